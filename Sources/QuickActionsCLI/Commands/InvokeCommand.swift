/// `quickactions invoke APP_ID TYPE`: performs one item and prints its result.
struct InvokeCommand: CLICommand {
    static let spec = CommandSpec(
        name: "invoke", abstract: "Perform one quick action and print its result.",
        discussion: """
            Performs the app's current item of the given type; the first invoke of an app loads
            its plugin. Prints the plugin's message on success; a failure is reported on stderr
            with exit code 1. On a terminal, a spinner shows while the call takes over a second.
            With --json, prints {"app-id", "type", "success", "result": {"message", "activation"}}.

            --arg values are typed: KEY=VALUE is a string, and KEY:TYPE=VALUE gives the type,
            one of string (s), int (i, 64-bit signed), bool (b: true or false) or double
            (d, finite). The first '=' ends the key; the last ':' before it starts the type.
            """,
        arguments: [
            ArgumentSpec("app-id", help: "The app, e.g. org.example.Music.", completion: .applications),
            ArgumentSpec("type", help: "The item's type, as 'list' shows it.", completion: .itemTypes),
        ],
        options: [CommonOptions.argument, CommonOptions.timeout, CommonOptions.json, CommonOptions.activationToken],
        examples: [
            Example("quickactions invoke org.example.Music play", "Perform the item of type 'play'."),
            Example(
                "quickactions invoke org.example.Notes new-note --arg title='Shopping' --arg pinned:bool=true",
                "Pass typed caller data."),
            Example("quickactions invoke org.example.Music play --timeout 5 --json", "Wait at most 5 s; print JSON."),
        ])

    let performer: Performer

    init(parsing arguments: ParsedArguments, environment: [String: String]) throws(UsageError) {
        let app = arguments.positionals[0]
        let type = arguments.positionals[1]
        guard !app.isEmpty else { throw UsageError("<app-id> is empty") }
        guard !type.isEmpty else { throw UsageError("<type> is empty") }
        let values = arguments.allValues("arg")
        let options = RequestOptions(
            timeoutMilliseconds: try CommonOptions.timeoutMilliseconds(arguments),
            arguments: values.isEmpty ? nil : try TypedArgument.dictionary(parsing: values),
            activationToken: CommonOptions.activationToken(arguments, environment: environment))
        performer = Performer(
            app: app, type: type, options: options, json: arguments.flag("json"), label: "\(app) \(type)")
    }

    func run(_ context: CommandContext) async throws(CLIError) -> ExitCode {
        let broker = try context.connect()
        defer { broker.close() }
        return try await performer.run(broker, context)
    }
}
