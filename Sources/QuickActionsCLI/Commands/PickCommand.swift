import DBus
import QuickActionsAPI

/// `quickactions pick`: the desktop-launcher flow. Offers every item to a
/// picker and performs the one chosen.
struct PickCommand: CLICommand {
    static let spec = CommandSpec(
        name: "pick", abstract: "Choose a quick action with a picker and perform it.",
        discussion: """
            Offers every item of every app (or of APP_ID alone), one line each ("App: Title — Subtitle"), to a picker
            and performs exactly the chosen one, by its id, as invoke --id does. The picker is the --picker command (run by
            /bin/sh -c: it reads the lines on stdin and prints the chosen one); else fzf when
            on a terminal, rofi -dmenu, fuzzel --dmenu or dmenu when installed and a display
            is set; else a numbered list on stderr, answered on stdin. Choosing nothing
            (the picker prints nothing, or exits 1 or 130: fzf exits 1 with no match and 130 on
            Escape, rofi, fuzzel and dmenu exit 1 on Escape) exits 1 without performing anything.
            A picker exiting with any other status, or printing several lines, is an error (exit 2).

            --arg values are checked before the picker is shown and typed as for invoke:
            KEY=VALUE is a string; KEY:TYPE=VALUE gives the type (string, int, bool or double).

            When stdout is not a terminal (pick bound to a key) and a notification service
            (org.freedesktop.Notifications) runs on the session bus, the result is also shown as
            a desktop notification: the plugin's message, or the error. --notify asks for one
            on a terminal too. A cancelled pick shows none.
            """,
        arguments: [
            ArgumentSpec("app-id", help: "Offer only this app's items (its desktop entry does so).", isOptional: true,
                         completion: .applications),
        ],
        options: [
            OptionSpec(
                "picker", kind: .value(name: "command"),
                help: "The picker to run, e.g. 'rofi -dmenu' or 'fzf --height=10'.", valueCompletion: .executables),
            CommonOptions.argument, CommonOptions.locale, CommonOptions.timeout, CommonOptions.json,
            CommonOptions.activationToken,
            OptionSpec(
                "notify",
                help: "Also show the result as a desktop notification (default: only when stdout is not a terminal)."),
        ],
        examples: [
            Example("quickactions pick", "Pick with fzf, rofi, fuzzel, dmenu or the numbered prompt."),
            Example("quickactions pick --picker 'fuzzel --dmenu'",
                    "Bind this to a key in your compositor: the result shows as a notification."),
            Example("echo 2 | quickactions pick", "Perform the second item, without a picker."),
            Example("quickactions pick com.example.contacts", "Pick one of the contacts app's items."),
        ])

    let pickerCommand: String?
    /// Only this app's items, when given.
    let app: String?
    let locale: String?
    let options: RequestOptions
    let json: Bool
    let notify: Bool
    let environment: [String: String]

    init(parsing arguments: ParsedArguments, environment: [String: String]) throws(UsageError) {
        pickerCommand = arguments.value("picker")
        app = arguments.positional(0)
        if app?.isEmpty == true { throw UsageError("<app-id> is empty") }
        if let pickerCommand, pickerCommand.allSatisfy(\.isWhitespace) {
            throw UsageError("--picker \(pickerCommand.quoted(mark: "'")) is empty: name a command such as 'rofi -dmenu'")
        }
        locale = try CommonOptions.locale(arguments)
        let values = arguments.allValues("arg")
        options = RequestOptions(
            timeoutMilliseconds: try CommonOptions.timeoutMilliseconds(arguments),
            arguments: values.isEmpty ? nil : try TypedArgument.dictionary(parsing: values),
            activationToken: CommonOptions.activationToken(arguments, environment: environment))
        json = arguments.flag("json")
        notify = arguments.flag("notify")
        self.environment = environment
    }

    /// Picks and performs; without a terminal on stdout (or with --notify),
    /// the outcome is also a desktop notification.
    func run(_ context: CommandContext) async throws(CLIError) -> ExitCode {
        let notifies = notify || !context.console.terminal.stdoutIsTerminal
        var broker: BrokerClient?
        defer { broker?.close() }
        do {
            let client = try context.connect()
            broker = client
            let (code, title, result, failure) = try await pickAndPerform(client, context)
            if notifies {
                await self.notify(context, broker: client, summary: code == .success ? title : "\(title) failed",
                                  body: code == .success ? (result.message ?? "Done.") : failure, isError: code != .success)
            }
            return code
        } catch {
            if notifies, error.errorName != Self.cancelled {
                await self.notify(context, broker: broker, summary: "Quick action failed", body: error.description,
                                  isError: true)
            }
            throw error
        }
    }

    static let cancelled = "cancelled"

    private func notify(
        _ context: CommandContext, broker: BrokerClient?, summary: String, body: String, isError: Bool
    ) async {
        let reuse = context.globals.bus == .session ? broker?.connection : nil
        guard let notifier = await Notifier.connect(reusing: reuse) else {
            if notify { context.console.error("--notify: no notification service (org.freedesktop.Notifications) runs") }
            return
        }
        await notifier.show(summary: summary, body: body, isError: isError)
        if reuse == nil { notifier.connection.close() }
    }

    /// Offers the items, performs the chosen one: its exit code, title, reply and failure line.
    private func pickAndPerform(
        _ broker: BrokerClient, _ context: CommandContext
    ) async throws(CLIError) -> (ExitCode, String, PerformResult, String) {
        // Most used first: what the user picks most is nearest the top.
        let order = RequestOptions(locale: locale, order: BrokerAPI.Order.frecency.rawValue)
        let groups: [AppItems]
        if let app {
            groups = [AppItems(appID: app, items: try await broker.items(of: app, options: order))]
        } else {
            groups = try await broker.allItems(options: order)
        }
        let names = Dictionary(
            (try await broker.listApplications()).map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        let menu = PickMenu(groups: groups, names: names)
        guard !menu.entries.isEmpty else {
            throw .failed(app.map { "there is nothing to pick: app \($0.quoted(mark: "'")) offers no quick action" }
                ?? "there is nothing to pick: no app offers a quick action")
        }
        let picker = Picker.detect(
            requested: pickerCommand, environment: environment, terminal: context.console.terminal)
        guard let entry = try await picker.choose(menu, console: context.console) else {
            throw .failed("nothing chosen; nothing performed", name: Self.cancelled)
        }
        let performer = Performer(app: entry.app, item: entry.item, options: options, json: json, label: entry.title)
        let (code, result) = try await performer.perform(broker, context)
        return (code, entry.title, result, performer.failureLine(result))
    }
}
