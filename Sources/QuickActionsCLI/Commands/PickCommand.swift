/// `quickactions pick`: the desktop-launcher flow. Offers every item to a
/// picker and performs the one chosen.
struct PickCommand: CLICommand {
    static let spec = CommandSpec(
        name: "pick", abstract: "Choose a quick action with a picker and perform it.",
        discussion: """
            Offers every item of every app, one line each ("App: Title — Subtitle"), to a picker
            and performs exactly the chosen one, by its id, as invoke --id does. The picker is the --picker command (run by
            /bin/sh -c: it reads the lines on stdin and prints the chosen one); else fzf when
            on a terminal, rofi -dmenu, fuzzel --dmenu or dmenu when installed and a display
            is set; else a numbered list on stderr, answered on stdin. Choosing nothing
            (the picker prints nothing, or exits 1 or 130: fzf exits 1 with no match and 130 on
            Escape, rofi, fuzzel and dmenu exit 1 on Escape) exits 1 without performing anything.
            A picker exiting with any other status, or printing several lines, is an error (exit 2).

            --arg values are checked before the picker is shown and typed as for invoke:
            KEY=VALUE is a string; KEY:TYPE=VALUE gives the type (string, int, bool or double).
            """,
        options: [
            OptionSpec(
                "picker", kind: .value(name: "command"),
                help: "The picker to run, e.g. 'rofi -dmenu' or 'fzf --height=10'.", valueCompletion: .executables),
            CommonOptions.argument, CommonOptions.locale, CommonOptions.timeout, CommonOptions.json,
            CommonOptions.activationToken,
        ],
        examples: [
            Example("quickactions pick", "Pick with fzf, rofi, fuzzel, dmenu or the numbered prompt."),
            Example("quickactions pick --picker 'fuzzel --dmenu'", "Bind this to a key in your compositor."),
            Example("echo 2 | quickactions pick", "Perform the second item, without a picker."),
        ])

    let pickerCommand: String?
    let locale: String?
    let options: RequestOptions
    let json: Bool
    let environment: [String: String]

    init(parsing arguments: ParsedArguments, environment: [String: String]) throws(UsageError) {
        pickerCommand = arguments.value("picker")
        if let pickerCommand, pickerCommand.allSatisfy(\.isWhitespace) {
            throw UsageError("--picker '\(pickerCommand)' is empty: name a command such as 'rofi -dmenu'")
        }
        locale = try CommonOptions.locale(arguments)
        let values = arguments.allValues("arg")
        options = RequestOptions(
            timeoutMilliseconds: try CommonOptions.timeoutMilliseconds(arguments),
            arguments: values.isEmpty ? nil : try TypedArgument.dictionary(parsing: values),
            activationToken: CommonOptions.activationToken(arguments, environment: environment))
        json = arguments.flag("json")
        self.environment = environment
    }

    func run(_ context: CommandContext) async throws(CLIError) -> ExitCode {
        let broker = try context.connect()
        defer { broker.close() }
        let groups = try await broker.allItems(options: RequestOptions(locale: locale))
        let names = Dictionary(
            (try await broker.listApplications()).map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        let menu = PickMenu(groups: groups, names: names)
        guard !menu.entries.isEmpty else {
            throw .failed("there is nothing to pick: no app offers a quick action")
        }
        let picker = Picker.detect(
            requested: pickerCommand, environment: environment, terminal: context.console.terminal)
        guard let entry = try await picker.choose(menu, console: context.console) else {
            throw .failed("nothing chosen; nothing performed", name: "cancelled")
        }
        let performer = Performer(app: entry.app, item: entry.item, options: options, json: json, label: entry.title)
        return try await performer.run(broker, context)
    }
}
