import CQuickActionsHostSupport
import Dispatch
import Foundation
import Glibc
import Locking
import QuickActionsAPI

/// Starts host processes from one thread that lives as long as the broker: a host's
/// parent-death signal fires when the thread that started it ends, so no short-lived
/// Dispatch thread may start one.
final class HostSpawner: @unchecked Sendable {
    // @unchecked Sendable: `requests` is guarded by `lock`; `wake` is thread-safe.
    private let lock = NSLock()
    private var requests: [@Sendable () -> Void] = []
    private let wake = DispatchSemaphore(value: 0)

    init() {
        let thread = Thread { [self] in run() }
        thread.name = "org.quickactions.broker.spawner"
        thread.start()
    }

    /// Runs `body` on the spawner thread.
    func onSpawnerThread(_ body: @escaping @Sendable () -> Void) {
        lock.lock()
        requests.append(body)
        lock.unlock()
        wake.signal()
    }

    private func run() {
        while true {
            wake.wait()
            lock.lock()
            let next = requests.isEmpty ? nil : requests.removeFirst()
            lock.unlock()
            next?()
        }
    }

    /// Starts `executable` with exactly `environment`, standard input and output on /dev/null,
    /// standard error on `stderr`, a clean signal mask and default signal handlers, and no
    /// other descriptor (every other one is closed in the child). Call on the spawner thread.
    static func spawn(executable: String, arguments: [String], environment: [String: String], stderr: Int32) throws(HostSpawnError) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, stderr, 2)
        qa_spawn_close_from(&actions, 3)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGPIPE, SIGCHLD, SIGHUP, SIGUSR1, SIGUSR2] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard status == 0 else { throw HostSpawnError(executable: executable, code: status) }
        return pid
    }
}

struct HostSpawnError: Error, CustomStringConvertible {
    let executable: String
    let code: Int32
    var description: String { "cannot start \(executable): \(String(cString: strerror(code)))" }
}

/// How a host process ended, from `waitpid`.
struct HostExit: Sendable, Equatable, CustomStringConvertible {
    let status: Int32

    var signal: Int32? {
        (status & 0x7f) != 0 && (status & 0x7f) != 0x7f ? status & 0x7f : nil
    }

    var exitCode: Int32? {
        (status & 0x7f) == 0 ? (status >> 8) & 0xff : nil
    }

    /// A death the plugin is to blame for: any signal, or an exit status other than 0.
    var isCrash: Bool { signal != nil || exitCode != 0 }

    var description: String {
        if let signal {
            let name = String(cString: strsignal(signal))
            return "killed by signal \(signal) (\(Self.signalNames[signal] ?? name))"
        }
        return "exited with status \(exitCode ?? -1)"
    }

    private static let signalNames: [Int32: String] = [
        SIGSEGV: "SIGSEGV", SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGILL: "SIGILL", SIGFPE: "SIGFPE",
        SIGKILL: "SIGKILL", SIGTERM: "SIGTERM", SIGTRAP: "SIGTRAP", SIGINT: "SIGINT",
    ]

    /// Waits for `pid` to end, on this thread.
    static func wait(for pid: pid_t) -> HostExit {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            if errno != EINTR { return HostExit(status: 0xff << 8) }
        }
        return HostExit(status: status)
    }
}
