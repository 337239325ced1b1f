/// `quickactions forget APP_ID`: removes what the broker keeps for an app that is no longer
/// installed (its stored dynamic items and last-seen record).
/// `quickactions forget --usage [APP_ID]`: clears the usage history that ranks items.
struct ForgetCommand: CLICommand {
    static let spec = CommandSpec(
        name: "forget", abstract: "Remove the stored items of an uninstalled app, or the usage history.",
        discussion: """
            The broker keeps an app's dynamic items when its bundle disappears, so they come back
            with it; it removes them by itself only when no broker has seen the app for
            quickactionsd's --forget-unseen-days (30 by default). This removes them now. An app
            that is installed is refused (exit 1): its plugin owns its items. An app with nothing
            stored is exit 3. Prints how many items were removed; with --json,
            {"app-id", "removed-items"}.

            With --usage, clears instead the usage history that ranks items by frecency (recent
            and frequent first, as pick and the search providers list them): of one app, or of
            every app when no app id is given. Prints how many items had a history; with --json,
            {"forgotten": N}.
            """,
        arguments: [
            ArgumentSpec("app-id", help: "The app, e.g. org.example.Music (optional with --usage: every app).",
                         isOptional: true, completion: .applications),
        ],
        options: [
            OptionSpec("usage", help: "Clear the usage history (frecency ranking) instead."),
            CommonOptions.json,
        ],
        examples: [
            Example("quickactions forget org.example.Music", "Remove the stored items of an uninstalled app."),
            Example("quickactions forget org.example.Music --json", "The same; print JSON."),
            Example("quickactions forget --usage", "Forget which items were used, for every app."),
            Example("quickactions forget --usage org.example.Music", "Only for one app."),
        ])

    let app: String?
    let usage: Bool
    let json: Bool

    init(parsing arguments: ParsedArguments, environment: [String: String]) throws(UsageError) {
        app = arguments.positional(0)
        usage = arguments.flag("usage")
        if let app, app.isEmpty { throw UsageError("<app-id> is empty") }
        if app == nil && !usage {
            throw UsageError("give the <app-id> to forget, or --usage to clear the usage history")
        }
        json = arguments.flag("json")
    }

    func run(_ context: CommandContext) async throws(CLIError) -> ExitCode {
        let broker = try context.connect()
        defer { broker.close() }
        if usage {
            let forgotten = try await broker.forgetUsage(app: app ?? "")
            if json {
                context.console.print("{\"forgotten\":\(forgotten)}")
            } else {
                context.console.print("forgot the usage of \(forgotten) item(s) of \(app ?? "every app")")
            }
            return .success
        }
        guard let app else { return .usage }
        let removed = try await broker.forget(app: app)
        if json {
            context.console.print(try JSONOutput.text(["app-id": app, "removed-items": Int(removed)] as [String: Any]))
        } else {
            context.console.print("forgot \(app): removed \(removed) stored item\(removed == 1 ? "" : "s")")
        }
        return .success
    }
}
