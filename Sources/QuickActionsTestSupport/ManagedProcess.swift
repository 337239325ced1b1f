import Foundation
import Glibc

/// A process a test starts, tied to the test process by a lifeline.
///
/// The child runs under a small `sh` wrapper that holds the read end of a
/// pipe whose write end only this process has. Closing it — by `stop()`,
/// `deinit`, or the test process dying in any way, a crash included — makes
/// the wrapper send SIGTERM to the child, and SIGKILL if it is still there 10 s
/// later (when the test process is gone, nothing else would: a broker that hung
/// in its shutdown once outlived the test run). So no test leaves a dbus-daemon
/// or broker running behind it.
public final class ManagedProcess: @unchecked Sendable {
    // @unchecked Sendable: mutable state (`status`, `lifeline`) is only
    // touched under `lock`.

    public let executable: String
    public let arguments: [String]
    /// The child's standard output and error, as files a test can read.
    public let stdoutURL: URL
    public let stderrURL: URL

    private let wrapperPID: pid_t
    private let pidFile: URL
    private let lock = NSLock()
    private var lifeline: Int32?
    private var status: Int32?

    private static let wrapper = """
        exec 3<&0
        "$@" </dev/null 3<&- &
        child=$!
        echo "$child" > "$QA_TEST_PIDFILE"
        {
            cat <&3 >/dev/null
            kill -TERM "$child" 2>/dev/null
            tries=0
            while [ "$tries" -lt 100 ] && kill -0 "$child" 2>/dev/null; do
                sleep 0.1
                tries=$((tries + 1))
            done
            kill -KILL "$child" 2>/dev/null
        } &
        watcher=$!
        wait "$child"
        status=$?
        kill "$watcher" 2>/dev/null
        exit "$status"
        """

    /// Starts `executable` with `arguments`; output goes to files in `directory`.
    public init(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        directory: URL, name: String
    ) throws {
        self.executable = executable
        self.arguments = arguments
        stdoutURL = directory.appendingPathComponent("\(name).stdout")
        stderrURL = directory.appendingPathComponent("\(name).stderr")
        pidFile = directory.appendingPathComponent("\(name).pid")
        try? FileManager.default.removeItem(at: pidFile)
        var env = environment ?? ProcessInfo.processInfo.environment
        env["QA_TEST_PIDFILE"] = pidFile.path
        let child = try Spawn.start(
            ["/bin/sh", "-c", Self.wrapper, "lifeline", executable] + arguments,
            environment: env, stdout: stdoutURL.path, stderr: stderrURL.path, pipeStdin: true)
        wrapperPID = child.pid
        lifeline = child.stdinWriter
    }

    deinit {
        stop()
    }

    /// The child's own pid (not the wrapper's), once it has started.
    public var pid: pid_t? {
        for _ in 0..<1000 {
            if let text = try? String(contentsOf: pidFile, encoding: .utf8),
               let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
                return pid
            }
            usleep(2_000)
        }
        return nil
    }

    public var isRunning: Bool { exitStatus == nil }

    /// The exit status (the child's, or 128+signal), or nil while it runs.
    public var exitStatus: Int32? {
        lock.lock()
        defer { lock.unlock() }
        if status == nil { status = Spawn.poll(wrapperPID) }
        return status
    }

    /// Sends a signal to the child itself.
    public func signal(_ signal: Int32) {
        if let pid { kill(pid, signal) }
    }

    /// Waits up to `timeout` for the child to exit; returns its status, or
    /// nil if it is still running.
    @discardableResult
    public func waitForExit(timeout: Duration = .seconds(10)) -> Int32? {
        let deadline = ContinuousClock.now + timeout
        while exitStatus == nil && ContinuousClock.now < deadline {
            usleep(2_000)
        }
        return exitStatus
    }

    /// Closes the lifeline and returns at once, as the test process dying would: the wrapper
    /// alone then ends the child. For the tests of that.
    func abandon() {
        lock.lock()
        let writer = lifeline
        lifeline = nil
        lock.unlock()
        if let writer { close(writer) }
    }

    /// Ends the child: SIGTERM through the lifeline, then SIGKILL after 5 s.
    public func stop() {
        abandon()
        if waitForExit(timeout: .seconds(5)) == nil {
            if let pid { kill(pid, SIGKILL) }
            kill(wrapperPID, SIGKILL)
            waitForExit(timeout: .seconds(5))
        }
    }

    public var standardOutput: String {
        (try? String(contentsOf: stdoutURL, encoding: .utf8)) ?? ""
    }

    public var standardError: String {
        (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? ""
    }
}
