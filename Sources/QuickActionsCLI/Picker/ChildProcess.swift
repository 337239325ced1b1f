import DBus
import Dispatch
import Glibc

/// Runs a picker: feeds it lines on stdin and reads what it prints. Started
/// with posix_spawn, a clean signal mask and default signal handlers, so
/// Ctrl-C reaches it as it would from a shell; stderr and the terminal stay shared.
enum ChildProcess {
    struct Outcome: Sendable, Equatable {
        /// The exit code, or 128 + the signal that ended it.
        let status: Int32
        let output: String
    }

    enum Failure: Error, Sendable {
        /// A system call failed (`what` names it).
        case system(what: String, errno: Int32)
    }

    /// Runs `arguments` (the first looked up in PATH) with `input` on its stdin.
    static func run(_ arguments: [String], input: String) async throws(Failure) -> Outcome {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Outcome, Failure>, Never>) in
            DispatchQueue.global().async {
                continuation.resume(returning: Result { () throws(Failure) -> Outcome in
                    try runBlocking(arguments, input: input)
                })
            }
        }
        return try result.get()
    }

    static func runBlocking(_ arguments: [String], input: String) throws(Failure) -> Outcome {
        var inPipe: [Int32] = [-1, -1]
        var outPipe: [Int32] = [-1, -1]
        guard pipe(&inPipe) == 0 else { throw .system(what: "pipe", errno: errno) }
        guard pipe(&outPipe) == 0 else {
            let code = errno
            close(inPipe[0])
            close(inPipe[1])
            throw .system(what: "pipe", errno: code)
        }
        // Close-on-exec, so the picker inherits only the ends dup2'ed onto 0 and 1.
        for fd in inPipe + outPipe { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGPIPE, SIGQUIT, SIGHUP] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, environ)
        close(inPipe[0])
        close(outPipe[1])
        guard spawned == 0 else {
            close(inPipe[1])
            close(outPipe[0])
            throw .system(what: "starting \(arguments[0].quoted(mark: "'"))", errno: spawned)
        }

        // Feed stdin on another thread so a picker that prints before it has
        // read everything cannot deadlock us; a picker that exits early only
        // makes the write fail (EPIPE: SIGPIPE is ignored while picking).
        let writer = inPipe[1]
        let bytes = Array(input.utf8)
        let fed = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            var offset = 0
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeBytes { write(writer, $0.baseAddress, $0.count) }
                if written < 0 && errno == EINTR { continue }
                if written <= 0 { break }
                offset += written
            }
            close(writer)
            fed.signal()
        }

        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(outPipe[0], $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            output += buffer[0..<count]
        }
        close(outPipe[0])
        fed.wait()

        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw .system(what: "waitpid", errno: errno) }
        }
        let code = status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return Outcome(status: code, output: String(decoding: output, as: UTF8.self))
    }
}
