/// The documented exit codes of `quickactions`.
public enum ExitCode: Int32, Sendable, CaseIterable {
    /// Performed and the plugin reported success; any other command succeeded.
    case success = 0
    /// Performed and the plugin reported failure (or the broker refused the request).
    case failure = 1
    /// The command line was wrong.
    case usage = 2
    /// No such app, or the app has no current item of that type.
    case notFound = 3
    /// The plugin failed to load or initialise, or did not complete in time.
    case pluginFailed = 4
    /// The bus or the broker could not be reached.
    case unreachable = 5

    /// One line per code, as --help and the README show them.
    public var meaning: String {
        switch self {
        case .success: "the command succeeded; for invoke and pick, the plugin reported success"
        case .failure: "the plugin reported failure, the picker was cancelled, or the broker refused the request"
        case .usage: "usage error: an unknown command or option, a value that is not valid, or a failing picker"
        case .notFound: "unknown app, or the app has no current item of that type"
        case .pluginFailed: "the plugin failed to load or initialise, or did not complete in time"
        case .unreachable: "the bus or the broker is not reachable (the message says which, and how to start it)"
        }
    }
}
