import DBus
/// `quickactions __complete apps`, `quickactions __complete items APP_ID` (item ids) and
/// `quickactions __complete types APP_ID` (item types, for scripts installed before ids):
/// hidden; what the completion scripts call. Prints one word per line and never writes to
/// stderr (a failure just offers nothing).
struct CompleteCommand: CLICommand {
    static let spec = CommandSpec(
        name: "__complete", abstract: "Print app ids, item ids or item types for shell completion.",
        arguments: [
            ArgumentSpec("what", help: "apps, items or types."),
            ArgumentSpec("app-id", help: "The app whose item ids or types to print.", isOptional: true),
        ],
        isHidden: true)

    enum Request: Sendable, Equatable {
        case applications
        case items(String)
        case types(String)
    }

    let request: Request

    init(parsing arguments: ParsedArguments, environment: [String: String]) throws(UsageError) {
        switch (arguments.positionals[0], arguments.positional(1)) {
        case ("apps", nil): request = .applications
        case ("items", let app?): request = .items(app)
        case ("types", let app?): request = .types(app)
        case (let what, nil) where what == "items" || what == "types":
            throw UsageError("missing expected argument '<app-id>' for '\(what)'")
        case (let what, _):
            throw UsageError("unknown completion \(what.quoted(mark: "'")): use apps, 'items <app-id>' or 'types <app-id>'")
        }
    }

    func run(_ context: CommandContext) async throws(CLIError) -> ExitCode {
        let broker = try context.connect()
        defer { broker.close() }
        let words: [String]
        switch request {
        case .applications:
            words = try await broker.listApplications().map(\.id)
        case .items(let app):
            words = try await broker.items(of: app).map(\.id)
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
