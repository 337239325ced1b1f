import CQuickActionsLaunching
import Glibc

/// Starts a program that belongs to nobody but itself (`qa_launch_detached`): a session of its
/// own, standard input, output and error on /dev/null, no descriptor of ours, default signal
/// handling, and no parent to wait for it (the middle process of a double fork exits at once
/// and is reaped here), so it never becomes our zombie and outlives us.
enum DetachedProcess {
    /// Why a program did not start.
    struct Failure: Error, Equatable, CustomStringConvertible {
        let description: String
    }

    /// Starts `executable` (an absolute path) with `arguments` (the first is its argv[0]) and
    /// exactly `environment`, in `directory` when given. Returns the program's process id
    /// once it has executed. Blocks only until then.
    static func start(
        _ executable: String, arguments: [String], environment: [String: String], directory: String?
    ) throws(Failure) -> pid_t {
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        guard !argv.dropLast().contains(nil), !envp.dropLast().contains(nil) else {
            throw Failure(description: "cannot start \(executable): out of memory")
        }
        var pid: pid_t = 0
        var error: Int32 = 0
        let step = argv.withUnsafeBufferPointer { argvBuffer in
            envp.withUnsafeBufferPointer { envpBuffer in
                if let directory {
                    return qa_launch_detached(executable, argvBuffer.baseAddress, envpBuffer.baseAddress, directory, &pid, &error)
                }
                return qa_launch_detached(executable, argvBuffer.baseAddress, envpBuffer.baseAddress, nil, &pid, &error)
            }
        }
        let reason = String(cString: strerror(error))
        switch qa_launch_step(rawValue: UInt32(bitPattern: step)) {
        case QA_LAUNCH_OK: return pid
        case QA_LAUNCH_CHDIR: throw Failure(description: "cannot enter the folder \(directory ?? ""): \(reason)")
        case QA_LAUNCH_EXEC: throw Failure(description: "cannot run \(executable): \(reason)")
        case QA_LAUNCH_LOST: throw Failure(description: "cannot start \(executable): the starting process ended without a word")
        default: throw Failure(description: "cannot start \(executable): \(reason)")
        }
    }
}
