import QuickActionsTestSupport

/// The apps the reliability tests run against, each backed by a
/// purpose-built test plugin (Tests/Plugins).
enum Apps {
    /// An app of the Fast plugin (Tests/Plugins/Fast): `fast` completes at
    /// once, `never` never, `hold` and `release` complete late on demand,
    /// `block` blocks inside perform until a file exists.
    static func fast(_ appID: String) -> TestBundle {
        TestBundle(
            appID: appID, library: "QATestFast", name: "Fast \(appID)",
            items: ["fast", "never", "hold", "release", "block"].map { TestBundle.item($0, $0) })
    }

    /// An app of the Churn plugin (Tests/Plugins/Churn), with one static
    /// item besides the ones that drive it.
    static func churn(_ appID: String) -> TestBundle {
        TestBundle(
            appID: appID, library: "QATestChurn", name: "Churn \(appID)",
            items: [TestBundle.item("churn", "Churn"), TestBundle.item("nest", "Nest")])
    }

    /// An app of the well-behaved Swift plugin (Tests/Plugins/SwiftPlugin).
    static let swift = TestBundle(
        appID: "org.example.swift", library: "QATestSwiftPlugin", name: "Swift Example",
        items: [TestBundle.item("hello", "Hello"), TestBundle.item("echo-items", "Echo")])

    /// An app of the C scenarios plugin (Tests/Plugins/CPlugin), whose init logs "c-plugin: init".
    static let c = TestBundle(
        appID: "org.example.c", library: "QATestCPlugin", name: "C Example",
        items: [TestBundle.item("succeed", "Succeed")])
}
