/// Why a benchmark run could not finish. Every case names the value at fault.
enum BenchError: Error, CustomStringConvertible {
    /// A command-line argument is wrong (exit status 2).
    case usage(String)
    /// A process under test did not start, died, or never took its bus name.
    case subject(name: String, reason: String)
    /// Calls failed or did not finish in time.
    case calls(subject: String, reason: String)
    /// A file or folder could not be read or written.
    case file(path: String, reason: String)

    var description: String {
        switch self {
        case .usage(let message): message
        case .subject(let name, let reason): "\(name): \(reason)"
        case .calls(let subject, let reason): "calls to \(subject): \(reason)"
        case .file(let path, let reason): "\(path): \(reason)"
        }
    }
}
