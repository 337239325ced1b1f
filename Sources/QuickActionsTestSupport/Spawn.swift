import CQuickActionsHostSupport
import Foundation
import Glibc

/// Starts a child with posix_spawn, a clean signal mask and default signal
/// handlers.
///
/// Foundation's Process passes on the calling thread's signal mask, and the
/// threads tests run on (Dispatch and Swift concurrency workers) block most
/// signals, so a child started from them could never be stopped with SIGTERM
/// and a shell in it would wait forever for SIGCHLD. Every process a test
/// starts goes through here instead.
///
/// The child gets standard input, output and error and no other descriptor:
/// tests run in parallel in one process, and a child that kept another test's
/// sockets or lifeline pipe (see ``ManagedProcess``) would keep that test's
/// bus or broker from seeing it end.
enum Spawn {
    struct Child {
        let pid: pid_t
        /// The write end of the child's stdin pipe, when one was asked for.
        let stdinWriter: Int32?
    }

    /// Runs `arguments[0]` (looked up in PATH) with stdout and stderr going
    /// to the given files. With `pipeStdin`, stdin is a pipe whose write end
    /// is returned (close-on-exec, so no other child inherits it).
    static func start(
        _ arguments: [String], environment: [String: String],
        stdout: String, stderr: String, pipeStdin: Bool
    ) throws -> Child {
        var fds: [Int32] = [-1, -1]
        if pipeStdin {
            // Close-on-exec from the start: a child another test spawns meanwhile must not
            // inherit either end.
            guard qa_pipe_cloexec(&fds) == 0 else { throw TestSupportError("pipe2: errno \(errno)") }
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if pipeStdin {
            posix_spawn_file_actions_adddup2(&actions, fds[0], 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        let closing = qa_spawn_close_from(&actions, 3)
        guard closing == 0 else {
            if pipeStdin { close(fds[0]); close(fds[1]) }
            throw TestSupportError("posix_spawn_file_actions_addclosefrom_np: \(String(cString: strerror(closing)))")
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let status = posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, envp)
        if pipeStdin { close(fds[0]) }
        guard status == 0 else {
            if pipeStdin { close(fds[1]) }
            throw TestSupportError("cannot start \(arguments[0]): \(String(cString: strerror(status)))")
        }
        return Child(pid: pid, stdinWriter: pipeStdin ? fds[1] : nil)
    }

    /// The exit status of `pid` if it has ended (reaping it), else nil:
    /// the exit code, or 128 + the signal that ended it.
    static func poll(_ pid: pid_t) -> Int32? {
        var status: Int32 = 0
        let result = waitpid(pid, &status, WNOHANG)
        guard result == pid else { return result < 0 ? -1 : nil }
        if status & 0x7f == 0 { return (status >> 8) & 0xff }
        return 128 + (status & 0x7f)
    }
}
