import DBus
import QuickActionsAPI
import Dispatch
import Glibc

/// `quickactions watch`: prints ItemsChanged and ApplicationsChanged as they
/// happen, with the changed app's new items, until SIGINT or SIGTERM.
struct WatchCommand: CLICommand {
    static let spec = CommandSpec(
        name: "watch", abstract: "Print changes to apps and their quick actions as they happen.",
        discussion: """
            Follows the broker's ItemsChanged and ApplicationsChanged signals and prints each
            with the changed app's new items (or the new list of apps), until interrupted
            (Ctrl-C or SIGTERM, exit 0). With --json, prints one JSON object per line:
            {"signal": "ItemsChanged", "app-id", "items"}, with "removed": true instead of
            "items" when the app is gone, or {"signal": "ApplicationsChanged", "applications"}.
            A line on stderr says when watching has started.
            """,
        options: [CommonOptions.json, CommonOptions.wide, CommonOptions.locale],
        examples: [
            Example("quickactions watch", "Watch changes on the terminal."),
            Example("quickactions watch --json | jq -c 'select(.signal == \"ItemsChanged\")'", "Feed a script."),
        ])

    /// What the watch loop reacts to.
    enum Event: Sendable {
        case itemsChanged(String)
        case applicationsChanged
        case stop
        case disconnected(String)
    }

    let json: Bool
    let wide: Bool
    let locale: String?

    init(parsing arguments: ParsedArguments, environment: [String: String]) throws(UsageError) {
        json = arguments.flag("json")
        wide = arguments.flag("wide")
        locale = try CommonOptions.locale(arguments)
    }

    func run(_ context: CommandContext) async throws(CLIError) -> ExitCode {
        let broker = try context.connect()
        defer { broker.close() }
        let (events, continuation) = AsyncStream.makeStream(of: Event.self)

        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        let signalSources = [SIGINT, SIGTERM].map { number in
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { continuation.yield(.stop) }
            source.resume()
            return source
        }
        defer { signalSources.forEach { $0.cancel() } }

        broker.connection.onDisconnect { error in continuation.yield(.disconnected(error.message)) }
        let subscription = try await broker.subscribeToChanges { message in
            switch message.member?.rawValue {
            case BrokerAPI.Signal.itemsChanged.rawValue:
                if let app = (try? message.arguments())?.first?.string { continuation.yield(.itemsChanged(app)) }
            case BrokerAPI.Signal.applicationsChanged.rawValue:
                continuation.yield(.applicationsChanged)
            default:
                break
            }
        }
        defer { subscription.cancel() }
        // Fails with exit 5 now, rather than waiting in silence, when the broker is not there.
        _ = try await broker.listApplications()
        context.console.error("watching the broker on \(context.globals.busDescription); press Ctrl-C to stop")

        for await event in events {
            switch event {
            case .stop:
                return .success
            case .disconnected(let reason):
                throw .unreachable("lost \(context.globals.busDescription): \(BrokerErrorMapping.oneLine(reason))")
            case .itemsChanged(let app):
                try await report(itemsOf: app, broker: broker, console: context.console)
            case .applicationsChanged:
                try await reportApplications(broker: broker, console: context.console)
            }
        }
        return .success
    }

    private func report(itemsOf app: String, broker: BrokerClient, console: Console) async throws(CLIError) {
        var items: [Item]?
        do {
            items = try await broker.items(of: app, options: RequestOptions(locale: locale))
        } catch .notFound {
            items = nil
        }
        if json {
            var object: [String: Any] = ["signal": BrokerAPI.Signal.itemsChanged.rawValue, "app-id": app]
            if let items {
                object["items"] = items.map { JSONOutput.object($0.raw) }
            } else {
                object["removed"] = true
            }
            console.print(try JSONOutput.text(object, compact: true))
            return
        }
        let style = Style(enabled: console.terminal.colour)
        guard let items else {
            console.print("\(Self.clock()) \(style.bold(BrokerAPI.Signal.itemsChanged.rawValue)) \(app): removed")
            return
        }
        let count = items.count == 1 ? "1 item" : "\(items.count) items"
        console.print("\(Self.clock()) \(style.bold(BrokerAPI.Signal.itemsChanged.rawValue)) \(app): \(count)")
        var terminal = console.terminal
        if wide { terminal.width = nil }
        ItemsView.items(items, terminal: terminal).forEach(console.print)
    }

    private func reportApplications(broker: BrokerClient, console: Console) async throws(CLIError) {
        let apps = try await broker.listApplications()
        if json {
            let object: [String: Any] = [
                "signal": BrokerAPI.Signal.applicationsChanged.rawValue, "applications": apps.map(JSONOutput.application),
            ]
            console.print(try JSONOutput.text(object, compact: true))
            return
        }
        let style = Style(enabled: console.terminal.colour)
        let clock = Self.clock()
        let ids = apps.isEmpty ? "no apps" : apps.map(\.id).joined(separator: ", ")
        let used = DisplayWidth.of("\(clock) \(BrokerAPI.Signal.applicationsChanged.rawValue) ")
        let fitted = console.terminal.width.map { DisplayWidth.truncate(ids, to: max(1, $0 - used)) } ?? ids
        console.print("\(clock) \(style.bold(BrokerAPI.Signal.applicationsChanged.rawValue)) \(fitted)")
    }

    /// The local time as HH:MM:SS.
    static func clock() -> String {
        var now = time(nil)
        var parts = tm()
        localtime_r(&now, &parts)
        return [parts.tm_hour, parts.tm_min, parts.tm_sec].map { $0 < 10 ? "0\($0)" : "\($0)" }.joined(separator: ":")
    }
}
