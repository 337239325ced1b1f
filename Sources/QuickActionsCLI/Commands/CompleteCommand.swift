import DBus
/// `quickactions __complete apps` and `quickactions __complete types APP_ID`:
/// hidden; what the completion scripts call. Prints one word per line and
/// never writes to stderr (a failure just offers nothing).
struct CompleteCommand: CLICommand {
    static let spec = CommandSpec(
        name: "__complete", abstract: "Print app ids or item types for shell completion.",
        arguments: [
            ArgumentSpec("what", help: "apps or types."),
            ArgumentSpec("app-id", help: "The app whose item types to print.", isOptional: true),
        ],
        isHidden: true)

    enum Request: Sendable, Equatable {
        case applications
        case types(String)
    }

    let request: Request

    init(parsing arguments: ParsedArguments, environment: [String: String]) throws(UsageError) {
        switch (arguments.positionals[0], arguments.positional(1)) {
        case ("apps", nil): request = .applications
        case ("types", let app?): request = .types(app)
        case ("types", nil): throw UsageError("missing expected argument '<app-id>' for 'types'")
        case (let what, _): throw UsageError("unknown completion \(what.quoted(mark: "'")): use apps or 'types <app-id>'")
        }
    }

    func run(_ context: CommandContext) async throws(CLIError) -> ExitCode {
        let broker = try context.connect()
        defer { broker.close() }
        let words: [String]
        switch request {
        case .applications:
            words = try await broker.listApplications().map(\.id)
        case .types(let app):
            words = try await broker.items(of: app).map(\.type)
        }
        var seen: Set<String> = []
        for word in words where !word.contains(where: \.isWhitespace) && seen.insert(word).inserted {
            context.console.print(word)
        }
        return .success
    }
}
