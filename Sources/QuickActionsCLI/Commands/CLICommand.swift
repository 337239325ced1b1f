/// A subcommand of `quickactions`: its spec, how it reads its parsed
/// arguments (validating every value once, here), and what it does.
protocol CLICommand: Sendable {
    static var spec: CommandSpec { get }
    /// Validates the parsed arguments; a bad value is a usage error naming it.
    init(parsing arguments: ParsedArguments, environment: [String: String]) throws(UsageError)
    /// Runs the command; its result goes to stdout, its errors are thrown.
    func run(_ context: CommandContext) async throws(CLIError) -> ExitCode
}

/// What a running command may use.
struct CommandContext: Sendable {
    let console: Console
    let globals: GlobalOptions
    let environment: [String: String]

    /// Connects to the bus the global options name.
    func connect() throws(CLIError) -> BrokerClient {
        try BrokerClient(globals: globals)
    }
}
