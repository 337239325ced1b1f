import DBus
import Dispatch
import Glibc

/// Performs one item and reports its result: shared by `invoke` and `pick`.
struct Performer: Sendable {
    let app: String
    let type: String
    /// The id of exactly the item to perform.
    let itemID: String
    let options: RequestOptions
    let json: Bool
    /// What the spinner says, e.g. the item's title.
    let label: String

    init(app: String, item: Item, options: RequestOptions, json: Bool, label: String) {
        self.app = app
        type = item.type
        itemID = item.id
        var options = options
        options.itemID = item.id
        self.options = options
        self.json = json
        self.label = label
    }

    /// Performs, with a spinner on a terminal while the call takes more than
    /// a second. Success prints the plugin's message (or the JSON reply) and
    /// is exit 0; the plugin's failure is exit 1 with a line on stderr.
    func run(_ broker: BrokerClient, _ context: CommandContext) async throws(CLIError) -> ExitCode {
        try await perform(broker, context).code
    }

    /// As ``run(_:_:)``, also returning the broker's reply (for `pick`'s notification).
    func perform(_ broker: BrokerClient, _ context: CommandContext) async throws(CLIError) -> (code: ExitCode, result: PerformResult) {
        let console = context.console
        var spinner: Spinner?
        var interrupt: (any DispatchSourceSignal)?
        if console.terminal.stderrIsTerminal {
            let made = Spinner(label: "\(label)…", unicode: console.terminal.unicode, write: console.writeError)
            // Ctrl-C while waiting: erase the spinner's line, then end as SIGINT would (130).
            signal(SIGINT, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
            source.setEventHandler {
                made.stop()
                exit(128 + SIGINT)
            }
            source.resume()
            interrupt = source
            made.start()
            spinner = made
        }
        defer {
            if let interrupt {
                interrupt.cancel()
                signal(SIGINT, SIG_DFL)
            }
        }
        let result: PerformResult
        do {
            result = try await broker.perform(app: app, type: type, options: options)
            spinner?.stop()
        } catch {
            spinner?.stop()
            throw error
        }
        if json {
            console.print(try JSONOutput.text(JSONOutput.performResult(result, app: app, type: type, id: itemID)))
        } else if result.success, let message = result.message {
            console.print(message)
        }
        guard result.success else {
            console.error(failureLine(result))
            return (.failure, result)
        }
        return (.success, result)
    }

    /// The line saying the plugin reported failure.
    func failureLine(_ result: PerformResult) -> String {
        let reason = result.message.map { BrokerErrorMapping.oneLine($0) } ?? "no message"
        return "\(type.quoted(mark: "'")) of app \(app.quoted(mark: "'")) failed: \(reason)"
    }
}
