import DBus
import QuickActionsAPI
import Foundation
import QuickActionsTestSupport
import Testing

/// Issue 7 item 2: a client that leaves with 1,000 Performs pending has its
/// state reaped, the late completions are dropped, nothing leaks.
@Suite struct DepartureTests {
    /// The per-caller limit is 256, so the client holds its 1,000 calls on
    /// four connections, as a program with several would.
    static let connections = 4
    static let perConnection = 250
    /// Rounds measured: each sends 1,000, leaves, then has the plugin
    /// complete them all late.
    static let rounds = Scale.pick(short: 3, long: 30)
    /// Rounds before the baseline is measured. The broker's memory grows
    /// over the first rounds (timers of earlier rounds overlap later ones;
    /// malloc keeps what it had) and then stays flat, so the baseline is
    /// taken on the plateau.
    static let warmUpRounds = Scale.pick(short: 3, long: 8)
    /// The held calls' timeout. A dropped call's deadline stays in the
    /// broker's timeout heap until then, doing nothing, so memory is
    /// measured after it; and it must not expire before the client has
    /// left, even on a busy machine (2 s was too short with 1,000 calls on
    /// 2 cores shared by five builds: 931 timeouts reached callers still there).
    static let timeout = UInt32(6_000 * Scale.timeScale)

    static let late = "called again (or after the broker stopped waiting); ignored"

    @Test func aClientLeavingWith1000PendingIsReapedAndItsLateCompletionsDropped() async throws {
        // In process: the late completions this counts are dropped by the broker's own
        // completion table (a host process answers late calls and the broker drops the answers).
        let harness = try await BrokerHarness(bundles: [Apps.fast("org.example.fast1")], arguments: ["--plugin-host", "in-process"])
        defer { harness.stop() }
        let control = try BrokerClient(harness)
        let pid = try #require(harness.process.pid)
        _ = try await control.perform("org.example.fast1", "fast")
        let pending = Self.connections * Self.perConnection
        var before = 0
        var trajectory: [Int] = []
        for round in 0..<(Self.warmUpRounds + Self.rounds) {
            let monitor = try await ReplyMonitor(harness, name: "monitor-\(round)")
            let leavers = try (0..<Self.connections).map { _ in try Connection(.address(harness.bus.address)) }
            for leaver in leavers {
                for _ in 0..<Self.perConnection {
                    let options = BrokerClient.options([("timeout-ms", .uint32(Self.timeout))])
                    leaver.call(try BrokerClient.performMessage("org.example.fast1", "hold", options),
                                timeout: .seconds(120)) { _ in }
                }
            }
            // The broker handles each connection's messages in order: once a
            // later call is answered, all 250 are pending.
            for leaver in leavers {
                _ = try await leaver.call(destination: BrokerClient.broker, path: BrokerClient.root,
                                          interface: BrokerClient.interface, member: BrokerAPI.Member.listApplications)
            }
            let names = leavers.map(\.uniqueName)
            let dropped = occurrences(of: "dropped its \(Self.perConnection) pending Perform(s)", in: harness.log)
            let lateBefore = occurrences(of: Self.late, in: harness.log)
            #expect(try await control.pendingPerforms() == UInt32(pending), "round \(round)")
            leavers.forEach { $0.close() }
            #expect(try await control.waitForPending(0) == 0, "round \(round): the leavers' calls are reaped")
            #expect(await eventually {
                occurrences(of: "dropped its \(Self.perConnection) pending Perform(s)", in: harness.log)
                    == dropped + Self.connections
            }, "round \(round): \(harness.log.suffix(2000))")

            // The plugin now completes all 1,000: each is late and dropped.
            let released = try await control.perform("org.example.fast1", "release")
            #expect(released.success)
            #expect(released.result["message"]?.string == "released \(pending)")
            #expect(await eventually { occurrences(of: Self.late, in: harness.log) == lateBefore + pending }, "round \(round)")
            #expect(try await control.pendingPerforms() == 0)
            let wire = try monitor.finish()
            // Each departed caller got its ListApplications answer and nothing else.
            #expect(names.allSatisfy { wire.destinations[$0] == 1 }, "answers went to departed callers: \(wire.destinations)")
            #expect(wire.errors == 0, "\(wire.errorNames)")

            trajectory.append(try ProcessMemory.residentKiB(of: pid))
            if round == Self.warmUpRounds - 1 {
                try await Task.sleep(for: .milliseconds(Int(Self.timeout) + 200))
                before = try ProcessMemory.residentKiB(of: pid)
            }
        }
        try await Task.sleep(for: .milliseconds(Int(Self.timeout) + 200))
        let after = try ProcessMemory.residentKiB(of: pid)
        if Scale.memoryIsMeaningful {
            #expect(Double(after) <= Double(before) * 1.10, "VmRSS \(before) KiB after warming up, \(after) KiB at the end: \(trajectory)")
        }
        #expect(try await control.applicationIDs() == ["org.example.fast1"])
        Scale.report("""
            departure: \(Self.rounds) rounds (after \(Self.warmUpRounds) to warm up) of \(pending) Performs pending on \(Self.connections) \
            connections that then left; every call reaped, \(pending) late completions dropped per round; \
            VmRSS \(before) KiB → \(after) KiB (at each round's end: \(trajectory.map(String.init).joined(separator: " ")))
            """)
    }
}
