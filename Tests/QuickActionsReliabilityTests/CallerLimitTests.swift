import DBus
import Foundation
import QuickActionsTestSupport
import Testing

/// Issue 7 item 3: more than 256 Performs pending from one caller get
/// LimitsExceeded, exactly the excess; other callers are unaffected.
@Suite struct CallerLimitTests {
    static let limit = 256
    static let sent = 300

    @Test func theExcessOverTheCallerLimitGetsLimitsExceededAndOthersAreUnaffected() async throws {
        let harness = try await BrokerHarness(bundles: [Apps.fast("org.example.fast1")])
        defer { harness.stop() }
        let control = try BrokerClient(harness)
        _ = try await control.perform("org.example.fast1", "fast")
        let greedy = try Connection(.address(harness.bus.address))
        defer { greedy.close() }
        let outcomes = Outcomes()
        for _ in 0..<Self.sent {
            greedy.call(try BrokerClient.performMessage("org.example.fast1", "hold"), timeout: .seconds(120)) { result in
                switch result {
                case .success(let reply):
                    let message = (try? BrokerClient.performResult(try reply.arguments()))?.result["message"]?.string
                    outcomes.record("success \(message ?? "?")")
                case .failure(let error):
                    outcomes.record(error.name.rawValue, message: error.message)
                }
            }
        }
        let limited = "org.freedesktop.DBus.Error.LimitsExceeded"
        #expect(await eventually { outcomes.count == Self.sent - Self.limit }, "\(outcomes.counts)")
        #expect(outcomes.counts == [limited: Self.sent - Self.limit])
        #expect(outcomes.messages.allSatisfy { $0.contains(greedy.uniqueName) && $0.contains("\(Self.limit)") },
                "\(outcomes.messages.first ?? "")")
        #expect(try await control.pendingPerforms() == UInt32(Self.limit))

        // Another caller, python3's dbus module, gets its own 256 at once, all answered.
        let script = PackagePaths.root.appendingPathComponent("Tests/QuickActionsReliabilityTests/Scripts/fast_caller.py")
        let other = try await Command.run("/usr/bin/python3", [script.path, "org.example.fast1", "\(Self.limit)"],
                                          environment: harness.bus.environment(), timeout: .seconds(90))
        #expect(other.status == 0, "\(other)")
        #expect(other.stdout.contains("answered \(Self.limit) of \(Self.limit) exactly once"), "\(other)")
        #expect(try await control.perform("org.example.fast1", "fast").success)

        // The held calls complete: the greedy caller's 256 are answered, once each.
        let released = try await control.perform("org.example.fast1", "release")
        #expect(released.result["message"]?.string == "released \(Self.limit)")
        #expect(await eventually { outcomes.count == Self.sent }, "\(outcomes.counts)")
        #expect(outcomes.counts == [limited: Self.sent - Self.limit, "success late": Self.limit])
        #expect(try await control.pendingPerforms() == 0)

        // With its calls answered, the caller may have 256 pending again.
        for _ in 0..<Self.limit {
            greedy.call(try BrokerClient.performMessage("org.example.fast1", "hold"), timeout: .seconds(120)) { result in
                if case .failure(let error) = result { outcomes.record(error.name.rawValue, message: error.message) }
            }
        }
        #expect(try await control.waitForPending(UInt32(Self.limit)) == UInt32(Self.limit))
        #expect(outcomes.count == Self.sent, "no new LimitsExceeded: \(outcomes.counts)")
        Scale.report("""
            caller limit: \(Self.sent) sent by one caller → \(Self.limit) pending, \(Self.sent - Self.limit) \
            LimitsExceeded; python3 caller's \(Self.limit) concurrent Performs all answered
            """)
    }
}

/// Answers collected from completion handlers on other threads.
final class Outcomes: @unchecked Sendable {
    // @unchecked Sendable: both arrays are touched only under `lock`.
    private let lock = NSLock()
    private var recorded: [String] = []
    private var errorMessages: [String] = []

    func record(_ name: String, message: String? = nil) {
        lock.lock()
        defer { lock.unlock() }
        recorded.append(name)
        if let message { errorMessages.append(message) }
    }

    var count: Int { locked { recorded.count } }
    var counts: [String: Int] { locked { recorded.reduce(into: [:]) { $0[$1, default: 0] += 1 } } }
    var messages: [String] { locked { errorMessages } }

    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }
}
