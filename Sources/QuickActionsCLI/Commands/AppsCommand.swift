/// `quickactions apps`: every app with its id, name, version and whether its
/// plugin is loaded.
struct AppsCommand: CLICommand {
    static let spec = CommandSpec(
        name: "apps", abstract: "List the apps that offer quick actions.",
        discussion: """
            Shows each app's id, display name, version, and whether the broker has loaded its
            plugin (plugins are loaded by their first invoke). With --json, prints an array of
            {"id", "name", "icon", "version", "loaded"} objects sorted by id.
            """,
        options: [CommonOptions.json],
        examples: [
            Example("quickactions apps", "List the apps."),
            Example("quickactions apps --json | jq -r '.[].id'", "Print just the app ids."),
        ])

    let json: Bool

    init(parsing arguments: ParsedArguments, environment: [String: String]) throws(UsageError) {
        json = arguments.flag("json")
    }

    func run(_ context: CommandContext) async throws(CLIError) -> ExitCode {
        let broker = try context.connect()
        defer { broker.close() }
        let apps = try await broker.applicationDetails()
        if json {
            context.console.print(try JSONOutput.text(apps.map(JSONOutput.application)))
        } else if apps.isEmpty {
            context.console.error("no apps: the broker found no plugin bundles")
        } else {
            ItemsView.applications(apps, terminal: context.console.terminal).forEach(context.console.print)
        }
        return .success
    }
}
