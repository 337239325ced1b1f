import Foundation
import Glibc
import Testing

@testable import QuickActionsTestSupport

/// The processes tests start (ManagedProcess) end with the test process, however it ends, and
/// hold none of its descriptors.
@Suite struct LifelineTests {
    @Test func aChildThatIgnoresSIGTERMIsKilledOnceItsTestIsGone() throws {
        let directory = try TemporaryDirectory.make(prefix: "qa-lifeline")
        defer { try? FileManager.default.removeItem(at: directory) }
        let child = try ManagedProcess(
            "/bin/sh", ["-c", "trap '' TERM; echo ready; while :; do sleep 1; done"], directory: directory,
            name: "stubborn")
        defer { child.stop() }
        let pid = try #require(child.pid)
        #expect(kill(pid, 0) == 0)
        // What the test process dying does: the lifeline closes and nobody calls stop().
        child.abandon()
        let deadline = ContinuousClock.now + .seconds(30)
        while child.exitStatus == nil && ContinuousClock.now < deadline { usleep(50_000) }
        #expect(child.exitStatus != nil, "the child ignoring SIGTERM is still running")
        #expect(kill(pid, 0) != 0)
    }

    @Test func aChildGetsOnlyStandardInputOutputAndError() throws {
        let directory = try TemporaryDirectory.make(prefix: "qa-lifeline")
        defer { try? FileManager.default.removeItem(at: directory) }
        // A descriptor of this process without close-on-exec, as other tests' sockets may be.
        let stray = open("/dev/null", O_RDONLY)
        try #require(stray > 2)
        defer { close(stray) }
        let child = try ManagedProcess("/bin/sh", ["-c", "ls /proc/$$/fd"], directory: directory, name: "fds")
        defer { child.stop() }
        #expect(child.waitForExit(timeout: .seconds(30)) == 0)
        let listed = Set(child.standardOutput.split(whereSeparator: \.isNewline).map(String.init))
        #expect(listed == ["0", "1", "2"], "\(listed.sorted()); the stray descriptor is \(stray)")
    }
}
