import DBus
import Glibc
import QuickActionsAPI

/// The `quickactions` command: parses the command line, runs the command,
/// and turns the outcome into output and an exit code.
public enum QuickActionsCLI {
    public static let toolName = "quickactions"
    /// The CLI's version, printed by `--version`.
    public static let version = productVersion

    static let commands: [any CLICommand.Type] = [
        AppsCommand.self, ListCommand.self, InvokeCommand.self, PickCommand.self, WatchCommand.self, StatusCommand.self,
        ForgetCommand.self, CompletionCommand.self, CompleteCommand.self,
    ]

    /// Every command's spec, hidden ones included, in help order.
    public static var commandSpecs: [CommandSpec] { commands.map { $0.spec } }

    public static let parser = ArgumentParser(toolName: toolName, commands: commandSpecs)

    static let overview = """
        List and invoke application quick actions through the QuickActions broker \
        (\(BrokerAPI.busName) on D-Bus).
        """

    static let examples = [
        Example("quickactions list", "List every app's quick actions."),
        Example("quickactions invoke com.example.contacts SearchAction", "Perform one."),
        Example("quickactions pick --picker 'rofi -dmenu'", "Choose one with rofi and perform it."),
    ]

    /// The help text of a command, or the tool's when nil, wrapped to `width`.
    public static func help(for command: String?, width: Int = 80) -> String {
        let formatter = HelpFormatter(toolName: toolName, commands: commandSpecs, width: width)
        if let command, let spec = parser.command(named: command) {
            return formatter.commandHelp(spec)
        }
        return formatter.rootHelp(overview: overview, examples: examples)
    }

    /// Runs the tool with `arguments` (without the program name) and returns its exit code.
    public static func run(
        _ arguments: [String], environment: [String: String], console: Console
    ) async -> Int32 {
        let helpWidth = min(100, console.terminal.width ?? 80)
        // --json anywhere among the options: failures are also a JSON object on stdout.
        let json = arguments.prefix { $0 != "--" }.contains("--json")
        let invocation: Invocation
        do {
            invocation = try parser.parse(arguments)
        } catch {
            if arguments.isEmpty {
                console.writeError(help(for: nil, width: helpWidth))
            } else {
                report(error, console: console)
                if json { reportJSON(.usage(error), console: console) }
            }
            return ExitCode.usage.rawValue
        }
        switch invocation {
        case .version:
            console.print(version)
            return ExitCode.success.rawValue
        case .help(let command):
            console.write(help(for: command, width: helpWidth))
            return ExitCode.success.rawValue
        case .run(let name, let parsed, let globals):
            guard let type = commands.first(where: { $0.spec.name == name }) else {
                report(UsageError("unknown command \(name.quoted(mark: "'"))"), console: console)
                return ExitCode.usage.rawValue
            }
            let command: any CLICommand
            do {
                command = try type.init(parsing: parsed, environment: environment)
            } catch {
                report(error.attributed(to: name), console: console)
                if json { reportJSON(.usage(error), console: console) }
                return ExitCode.usage.rawValue
            }
            let context = CommandContext(console: console, globals: globals, environment: environment)
            do {
                return try await command.run(context).rawValue
            } catch {
                if name != CompleteCommand.spec.name {
                    if case .usage(let usage) = error {
                        report(usage.attributed(to: name), console: console)
                    } else {
                        console.error(error.description)
                    }
                    if json { reportJSON(error, console: console) }
                }
                return error.exitCode.rawValue
            }
        }
    }

    /// One line on stderr: the message and where to look for help.
    static func report(_ error: UsageError, console: Console) {
        if let command = error.command {
            console.error("\(command): \(error.message) (see '\(toolName) \(command) --help')")
        } else {
            console.error(error.message)
        }
    }

    /// With `--json`: the failure as `{"error": {"name": …, "message": …}}` on
    /// stdout, beside the line on stderr. `name` is the D-Bus error name when
    /// there is one, else the CLI's ("usage", "not-found", "cancelled", …).
    static func reportJSON(_ error: CLIError, console: Console) {
        let object: [String: Any] = ["error": ["name": error.errorName, "message": error.description]]
        if let text = try? JSONOutput.text(object) { console.print(text) }
    }

    /// The process entry point: real arguments, environment and descriptors.
    public static func main() async -> Int32 {
        var environment: [String: String] = [:]
        var pointer = environ
        while let entry = pointer.pointee {
            let text = String(cString: entry)
            if let equals = text.firstIndex(of: "=") {
                environment[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            pointer += 1
        }
        let console = Console.standard(terminal: Terminal.current(environment: environment))
        return await run(Array(CommandLine.arguments.dropFirst()), environment: environment, console: console)
    }
}
