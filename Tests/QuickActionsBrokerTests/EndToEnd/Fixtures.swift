import Foundation
import QuickActionsTestSupport
import Testing

/// The apps most broker tests run against.
enum Fixtures {
    /// A Swift plugin (Tests/Plugins/SwiftPlugin) with static items for each behaviour it has.
    static let swiftApp = TestBundle(
        appID: "org.example.swift", library: "QATestSwiftPlugin", name: "Swift Example", version: "2.1",
        items: [
            TestBundle.item("hello", "Hello", subtitle: "Say hello", iconType: "UIApplicationShortcutIconTypeCompose",
                            userInfo: ["count": 3, "ratio": 0.5, "flag": true, "name": "x"]),
            TestBundle.item("echo-items", "Echo"),
            TestBundle.item("launch-handled", "Launch handled"),
            TestBundle.item("never", "Never completes"),
            TestBundle.item("twice", "Completes twice"),
        ],
        strings: ["de": "\"Hello\" = \"Hallo\";\n\"Say hello\" = \"Sag hallo\";\n"])

    /// A C plugin (Tests/Plugins/CPlugin).
    static let cApp = TestBundle(
        appID: "org.example.c", library: "QATestCPlugin", name: "C Example",
        items: [TestBundle.item("succeed", "Succeed"), TestBundle.item("fail", "Fail")])

    /// A plugin whose init fails.
    static let brokenApp = TestBundle(
        appID: "org.example.broken", library: "QATestInitFails", name: "Broken",
        items: [TestBundle.item("hello", "Never loads")])
}

/// busctl's --json=short output: {"type": "...", "data": [...]}.
struct BusctlReply {
    let type: String
    let data: [Any]

    init(_ result: CommandResult) throws {
        guard result.status == 0 else { throw TestSupportError("busctl failed: \(result)") }
        guard let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
              let type = object["type"] as? String, let data = object["data"] as? [Any] else {
            throw TestSupportError("busctl printed no JSON reply: \(result.stdout)")
        }
        self.type = type
        self.data = data
    }
}

/// An item as busctl's JSON shows an `a{sv}`: each value is {"type": …, "data": …}.
struct ItemJSON {
    let fields: [String: Any]

    init?(_ any: Any) {
        guard let fields = any as? [String: Any] else { return nil }
        self.fields = fields
    }

    func string(_ key: String) -> String? {
        (fields[key] as? [String: Any])?["data"] as? String
    }

    var userInfo: [String: Any]? {
        (fields["user-info"] as? [String: Any])?["data"] as? [String: Any]
    }
}
