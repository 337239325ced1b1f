import CQuickActionsPlugin

/// An ABI version of `quickactions_plugin.h`: a major and a minor number.
///
/// Compatibility follows the header: a host accepts a plugin with the same
/// major and a minor no newer than its own.
public struct ABIVersion: Sendable, Hashable, CustomStringConvertible {
    public var major: UInt32
    public var minor: UInt32

    public init(major: UInt32, minor: UInt32) {
        self.major = major
        self.minor = minor
    }

    /// The version of the header this code was compiled against
    /// (`QA_ABI_MAJOR`.`QA_ABI_MINOR`).
    public static let current = ABIVersion(major: UInt32(QA_ABI_MAJOR), minor: UInt32(QA_ABI_MINOR))

    /// Whether a host of this version can load a plugin built for `plugin`.
    public func accepts(plugin: ABIVersion) -> Bool {
        plugin.major == major && plugin.minor <= minor
    }

    public var description: String { "\(major).\(minor)" }
}
