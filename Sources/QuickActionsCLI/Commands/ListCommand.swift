/// `quickactions list [APP_ID]`: items grouped by app, in display order.
struct ListCommand: CLICommand {
    static let spec = CommandSpec(
        name: "list", abstract: "List quick actions, grouped by app.",
        discussion: """
            Shows each app's items in display order (static items first, then dynamic ones):
            title, subtitle, id, icon and origin. Listing never loads a plugin. Rows are fitted
            to the terminal's width by cutting titles, subtitles and icons with "…" (ids stay
            whole, as the API gives them); --wide shows every cell whole.
            With --json, prints an array of {"app-id", "items"} objects, each item exactly as
            the broker sent it: "type", "title", "subtitle" and "icon" when there is one,
            "user-info" and "origin". The array has one element when an app id is given.
            """,
        arguments: [
            ArgumentSpec("app-id", help: "Only this app's items (default: every app).", isOptional: true,
                         completion: .applications)
        ],
        options: [CommonOptions.json, CommonOptions.wide, CommonOptions.locale, CommonOptions.limit],
        examples: [
            Example("quickactions list", "Every app's quick actions."),
            Example("quickactions list com.example.contacts --locale de", "One app's, with German titles."),
            Example("quickactions list --json --limit 3 | jq '.[].items[].title'", "The first three titles of each app."),
        ])

    let app: String?
    let json: Bool
    let wide: Bool
    let options: RequestOptions

    init(parsing arguments: ParsedArguments, environment: [String: String]) throws(UsageError) {
        app = arguments.positional(0)
        json = arguments.flag("json")
        wide = arguments.flag("wide")
        options = RequestOptions(locale: try CommonOptions.locale(arguments), limit: try CommonOptions.limit(arguments))
    }

    func run(_ context: CommandContext) async throws(CLIError) -> ExitCode {
        let broker = try context.connect()
        defer { broker.close() }
        let groups: [AppItems]
        if let app {
            groups = [AppItems(appID: app, items: try await broker.items(of: app, options: options))]
        } else {
            groups = try await broker.allItems(options: options)
        }
        if json {
            context.console.print(try JSONOutput.text(groups.map(JSONOutput.group)))
            return .success
        }
        if groups.isEmpty {
            context.console.error("no apps: the broker found no plugin bundles")
            return .success
        }
        let names = Dictionary(
            (try await broker.listApplications()).map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        var terminal = context.console.terminal
        if wide { terminal.width = nil }
        ItemsView.groups(groups, names: names, terminal: terminal).forEach(context.console.print)
        return .success
    }
}
