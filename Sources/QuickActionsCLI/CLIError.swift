/// Why a command failed: each case has its exit code, and its description is
/// the one line printed to stderr.
public enum CLIError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A bad command line or value (exit 2).
    case usage(UsageError)
    /// No such app or item (exit 3).
    case notFound(String)
    /// The plugin could not be loaded, or timed out (exit 4).
    case pluginFailed(String)
    /// The bus or the broker could not be reached (exit 5).
    case unreachable(String)
    /// The broker refused or answered something unexpected; a picker was cancelled (exit 1).
    case failed(String)

    public var exitCode: ExitCode {
        switch self {
        case .usage: .usage
        case .notFound: .notFound
        case .pluginFailed: .pluginFailed
        case .unreachable: .unreachable
        case .failed: .failure
        }
    }

    public var description: String {
        switch self {
        case .usage(let error): error.message
        case .notFound(let message), .pluginFailed(let message), .unreachable(let message), .failed(let message):
            message
        }
    }
}
