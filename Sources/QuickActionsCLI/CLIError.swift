/// Why a command failed: each case has its exit code, and its description is
/// the one line printed to stderr. `name` is the D-Bus error name the
/// failure came from, when there is one; ``errorName`` falls back to a CLI name.
public enum CLIError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A bad command line or value (exit 2).
    case usage(UsageError)
    /// No such app or item (exit 3).
    case notFound(String, name: String? = nil)
    /// The plugin could not be loaded, or timed out (exit 4).
    case pluginFailed(String, name: String? = nil)
    /// The bus or the broker could not be reached (exit 5).
    case unreachable(String, name: String? = nil)
    /// The broker refused or answered something unexpected; a picker was cancelled (exit 1).
    case failed(String, name: String? = nil)

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
        case .notFound(let message, _), .pluginFailed(let message, _), .unreachable(let message, _),
             .failed(let message, _):
            message
        }
    }

    /// The `name` of `--json`'s error object: the D-Bus error name when the
    /// failure came from the bus or the broker, else "usage", "not-found",
    /// "plugin-failed", "unreachable" or "failed".
    public var errorName: String {
        switch self {
        case .usage(let error): error.dbusName ?? Self.usageName
        case .notFound(_, let name): name ?? "not-found"
        case .pluginFailed(_, let name): name ?? "plugin-failed"
        case .unreachable(_, let name): name ?? "unreachable"
        case .failed(_, let name): name ?? "failed"
        }
    }

    /// The error name of a command line the CLI itself refuses.
    public static let usageName = "usage"
}
