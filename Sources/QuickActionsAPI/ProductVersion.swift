/// The product's version: what `quickactions --version` and
/// `quickactionsd --version` print and what the broker's `Version` property
/// reports. Spelled once, here, so they can never disagree.
public let productVersion = "1.1.0"
