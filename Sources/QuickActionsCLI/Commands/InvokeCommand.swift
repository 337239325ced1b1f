/// `quickactions invoke APP_ID ITEM`: performs one item and prints its result.
struct InvokeCommand: CLICommand {
    static let spec = CommandSpec(
        name: "invoke", abstract: "Perform one quick action and print its result.",
        discussion: """
            Performs exactly one of the app's current items: ITEM is its id or its type (ids
            win; a type shared by several items is refused, exit 2, with their ids), or --id
            names it by id alone. 'list' shows the ids. The first invoke of an app loads its
            plugin. Prints the plugin's message on success; a failure is reported on stderr
            with exit code 1. On a terminal, a spinner shows while the call takes over a second.
            With --json, prints {"app-id", "type", "id", "success", "result": {"message", "activation"}}.

            --arg values are typed: KEY=VALUE is a string, and KEY:TYPE=VALUE gives the type,
            one of string (s), int (i, 64-bit signed), bool (b: true or false) or double
            (d, finite). The first '=' ends the key; the last ':' before it starts the type.
            """,
        arguments: [
            ArgumentSpec("app-id", help: "The app, e.g. com.example.music.", completion: .applications),
            ArgumentSpec(
                "item", help: "The item's id or type, as 'list' shows them.", isOptional: true, completion: .itemIDs),
        ],
        options: [
            OptionSpec("id", kind: .value(name: "id"), help: "Perform exactly the item with this id."),
            CommonOptions.argument, CommonOptions.timeout, CommonOptions.json, CommonOptions.activationToken,
        ],
        examples: [
            Example("quickactions invoke com.example.music PlayMusic", "Perform the item of type 'PlayMusic'."),
            Example("quickactions invoke com.example.contacts --id 'FavoriteAction#4f0c…'",
                    "Perform one favorite of several, by the id 'list' shows."),
            Example(
                "quickactions invoke com.example.contacts ShareAction --arg contact='Noah Becker' --arg favorite:bool=true",
                "Pass typed caller data."),
            Example("quickactions invoke com.example.music PlayMusic --timeout 5 --json", "Wait at most 5 s; print JSON."),
        ])

    let app: String
    let selection: ItemSelection
    let options: RequestOptions
    let json: Bool

    init(parsing arguments: ParsedArguments, environment: [String: String]) throws(UsageError) {
        app = arguments.positionals[0]
        guard !app.isEmpty else { throw UsageError("<app-id> is empty") }
        let item = arguments.positional(1)
        let id = arguments.value("id")
        if item?.isEmpty == true { throw UsageError("<item> is empty") }
        if id?.isEmpty == true { throw UsageError("--id is empty") }
        guard item != nil || id != nil else { throw UsageError("name an item: <item> (an id or a type) or --id <id>") }
        selection = ItemSelection(item: item, id: id)
        let values = arguments.allValues("arg")
        options = RequestOptions(
            timeoutMilliseconds: try CommonOptions.timeoutMilliseconds(arguments),
            arguments: values.isEmpty ? nil : try TypedArgument.dictionary(parsing: values),
            activationToken: CommonOptions.activationToken(arguments, environment: environment))
        json = arguments.flag("json")
    }

    func run(_ context: CommandContext) async throws(CLIError) -> ExitCode {
        let broker = try context.connect()
        defer { broker.close() }
        let item = try selection.resolve(in: try await broker.items(of: app), app: app)
        let performer = Performer(
            app: app, item: item, options: options, json: json, label: "\(app) \(item.title)")
        return try await performer.run(broker, context)
    }
}
