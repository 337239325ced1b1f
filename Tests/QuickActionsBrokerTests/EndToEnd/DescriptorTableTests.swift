import Foundation
import QuickActionsTestSupport
import Testing

/// Issue 35's launch tail: the broker grows its descriptor table while it still has one
/// thread. Grown later, Linux waits for an RCU grace period inside whichever call opens the
/// 65th descriptor (a launch's pipe), 6-30 ms on this machine.
@Suite struct DescriptorTableTests {
    /// The table's size as the kernel reports it (`FDSize:` in /proc/PID/status).
    static func descriptorTableSize(_ pid: pid_t) throws -> Int? {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = status.split(separator: "\n").first { $0.hasPrefix("FDSize:") }
        return line.flatMap { Int($0.dropFirst("FDSize:".count).trimmingCharacters(in: .whitespaces)) }
    }

    @Test func theBrokerStartsWithATableOfAThousandDescriptors() async throws {
        let harness = try await BrokerHarness(bundles: [Fixtures.swiftApp])
        let pid = try #require(harness.process.pid)
        // A process that never opens its 65th descriptor keeps the kernel's first table of 64.
        let size = try #require(try Self.descriptorTableSize(pid))
        let limit = try Self.softDescriptorLimit()
        #expect(size >= min(1_024, limit), "FDSize \(size) with RLIMIT_NOFILE \(limit)")
        let open = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count
        #expect(open < 64, "the broker opened \(open) descriptors by itself, so the table says nothing")
    }

    static func softDescriptorLimit() throws -> Int {
        var limit = rlimit()
        try #require(getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0)
        return limit.rlim_cur > UInt(Int.max) ? Int.max : Int(limit.rlim_cur)
    }
}
