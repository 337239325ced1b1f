/// `quickactions forget APP_ID`: removes what the broker keeps for an app that
/// is no longer installed (its stored dynamic items and last-seen record).
struct ForgetCommand: CLICommand {
    static let spec = CommandSpec(
        name: "forget", abstract: "Remove the stored dynamic items of an app that is no longer installed.",
        discussion: """
            The broker keeps an app's dynamic items when its bundle disappears, so they come back
            with it; it removes them by itself only when no broker has seen the app for
            quickactionsd's --forget-unseen-days (30 by default). This removes them now. An app
            that is installed is refused (exit 1): its plugin owns its items. An app with nothing
            stored is exit 3. Prints how many items were removed; with --json,
            {"app-id", "removed-items"}.
            """,
        arguments: [
            ArgumentSpec("app-id", help: "The app, e.g. org.example.Music."),
        ],
        options: [CommonOptions.json],
        examples: [
            Example("quickactions forget org.example.Music", "Remove the stored items of an uninstalled app."),
            Example("quickactions forget org.example.Music --json", "The same; print JSON."),
        ])

    let app: String
    let json: Bool

    init(parsing arguments: ParsedArguments, environment: [String: String]) throws(UsageError) {
        app = arguments.positionals[0]
        guard !app.isEmpty else { throw UsageError("<app-id> is empty") }
        json = arguments.flag("json")
    }

    func run(_ context: CommandContext) async throws(CLIError) -> ExitCode {
        let broker = try context.connect()
        defer { broker.close() }
        let removed = try await broker.forget(app: app)
        if json {
            context.console.print(try JSONOutput.text(["app-id": app, "removed-items": Int(removed)] as [String: Any]))
        } else {
            context.console.print("forgot \(app): removed \(removed) stored item\(removed == 1 ? "" : "s")")
        }
        return .success
    }
}
