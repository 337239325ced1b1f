import Foundation
import QuickActionsTestSupport

/// Purpose-built test plugins (Tests/Plugins) for failure paths the examples never take.
enum TestApps {
    /// "succeed" completes with success, "fail" with failure (Tests/Plugins/CPlugin).
    static let cApp = TestBundle(
        appID: "org.example.c", library: "QATestCPlugin", name: "C Example",
        items: [TestBundle.item("succeed", "Succeed"), TestBundle.item("fail", "Fail")])
    /// "never" never completes (Tests/Plugins/SwiftPlugin).
    static let swiftApp = TestBundle(
        appID: "org.example.swift", library: "QATestSwiftPlugin", name: "Swift Example",
        items: [TestBundle.item("hello", "Hello"), TestBundle.item("never", "Never completes")])
}

/// The python3 notification server (Scripts/notification_server.py) on a test bus.
final class NotificationServer {
    let log: URL
    private let process: ManagedProcess

    init(bus: TestBus) async throws {
        log = bus.directory.appendingPathComponent("notifications.jsonl")
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Scripts/notification_server.py").path
        process = try ManagedProcess("/usr/bin/python3", [script, bus.address, log.path], directory: bus.directory,
                                     name: "notification-server")
        let deadline = ContinuousClock.now + .seconds(20)
        while !process.standardOutput.contains("ready") {
            guard process.isRunning, ContinuousClock.now < deadline else {
                process.stop()
                throw TestSupportError("the notification server did not start: \(process.standardError)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    deinit { process.stop() }

    func stop() { process.stop() }

    /// The notifications received so far.
    var received: [[String: Any]] {
        guard let text = try? String(contentsOf: log, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }
}
