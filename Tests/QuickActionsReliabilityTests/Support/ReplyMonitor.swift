import Foundation
import QuickActionsTestSupport

/// Scripts/reply_monitor.py on a harness's bus: counts the broker's method
/// returns and errors on the wire and any call answered twice.
final class ReplyMonitor {
    struct Summary {
        var returns: Int
        var errors: Int
        var duplicates: Int
        var errorNames: [String: Int]
        /// Answers per destination (the caller's unique name).
        var destinations: [String: Int]
        var answers: Int { returns + errors }
    }

    private let process: ManagedProcess

    static let script = PackagePaths.root
        .appendingPathComponent("Tests/QuickActionsReliabilityTests/Scripts/reply_monitor.py")

    /// Starts monitoring; returns once the monitor is in place.
    init(_ harness: BrokerHarness, name: String = "monitor") async throws {
        process = try ManagedProcess(
            "/usr/bin/python3", [Self.script.path], environment: harness.bus.environment(),
            directory: harness.directory, name: name)
        let ready = await eventually(.seconds(20)) { process.standardOutput.contains("ready") || !process.isRunning }
        guard ready, process.isRunning else {
            throw TestSupportError("reply monitor did not start: \(process.standardError)")
        }
    }

    /// Stops the monitor and returns what it counted.
    func finish() throws -> Summary {
        process.stop()
        let line = process.standardOutput.split(separator: "\n").last.map(String.init) ?? ""
        guard let json = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
              let returns = json["returns"] as? Int, let errors = json["errors"] as? Int,
              let duplicates = json["duplicates"] as? Int else {
            throw TestSupportError("reply monitor printed no summary: \(process.standardOutput) \(process.standardError)")
        }
        return Summary(returns: returns, errors: errors, duplicates: duplicates,
                       errorNames: json["error_names"] as? [String: Int] ?? [:],
                       destinations: json["destinations"] as? [String: Int] ?? [:])
    }
}
