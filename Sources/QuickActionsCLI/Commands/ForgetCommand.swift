/// `quickactions forget --usage [APP_ID]`: clears what the broker remembers.
struct ForgetCommand: CLICommand {
    static let spec = CommandSpec(
        name: "forget", abstract: "Clear what the broker remembers of an app.",
        discussion: """
            With --usage, clears the usage history that ranks items by frecency (recent and
            frequent first, as pick and the search providers list them): of one app, or of
            every app when no app id is given. Prints how many items had a history.
            With --json, prints {"forgotten": N}.
            """,
        arguments: [
            ArgumentSpec("app-id", help: "Only this app (default: every app).", isOptional: true,
                         completion: .applications)
        ],
        options: [
            OptionSpec("usage", help: "Clear the usage history (frecency ranking)."),
            CommonOptions.json,
        ],
        examples: [
            Example("quickactions forget --usage", "Forget which items were used, for every app."),
            Example("quickactions forget --usage org.example.Music", "Only for one app."),
        ])

    let app: String?
    let json: Bool

    init(parsing arguments: ParsedArguments, environment: [String: String]) throws(UsageError) {
        guard arguments.flag("usage") else {
            throw UsageError("say what to forget: --usage (the usage history)")
        }
        app = arguments.positional(0)
        if let app, app.isEmpty {
            throw UsageError("the app id is empty: give one, or none for every app")
        }
        json = arguments.flag("json")
    }

    func run(_ context: CommandContext) async throws(CLIError) -> ExitCode {
        let broker = try context.connect()
        defer { broker.close() }
        let forgotten = try await broker.forgetUsage(app: app ?? "")
        if json {
            context.console.print("{\"forgotten\":\(forgotten)}")
        } else {
            context.console.print("forgot the usage of \(forgotten) item(s) of \(app ?? "every app")")
        }
        return .success
    }
}
