import DBus
import QuickActionsCLI
import Testing

@Suite("Argument parser")
struct ArgumentParserTests {
    let parser = QuickActionsCLI.parser

    static let accepted: [([String], Invocation)] = [
        (["--help"], .help(command: nil)),
        (["-h"], .help(command: nil)),
        (["--version"], .version),
        (["help"], .help(command: nil)),
        (["help", "invoke"], .help(command: "invoke")),
        (["list", "--help"], .help(command: "list")),
        (["invoke", "a.b", "-h"], .help(command: "invoke")),
        (["apps"], .run(command: "apps", arguments: ParsedArguments(), globals: GlobalOptions())),
        (["apps", "--json"], .run(command: "apps", arguments: ParsedArguments(flags: ["json"]), globals: GlobalOptions())),
        (
            ["--system", "list", "org.example.A", "--limit", "3"],
            .run(
                command: "list", arguments: ParsedArguments(positionals: ["org.example.A"], values: ["limit": ["3"]]),
                globals: GlobalOptions(bus: .system))
        ),
        (
            ["list", "--locale=de_DE", "--address", "unix:path=/tmp/bus"],
            .run(
                command: "list", arguments: ParsedArguments(values: ["locale": ["de_DE"]]),
                globals: GlobalOptions(bus: .address("unix:path=/tmp/bus")))
        ),
        (
            ["--address=unix:path=/x,guid=1", "apps"],
            .run(command: "apps", arguments: ParsedArguments(), globals: GlobalOptions(bus: .address("unix:path=/x,guid=1")))
        ),
        (
            ["invoke", "a.b", "play", "--arg", "n:int=-4", "--arg=x=y=z", "--timeout", "1.5"],
            .run(
                command: "invoke",
                arguments: ParsedArguments(
                    positionals: ["a.b", "play"], values: ["arg": ["n:int=-4", "x=y=z"], "timeout": ["1.5"]]),
                globals: GlobalOptions())
        ),
        (
            // "--" ends the options: what follows is positional even if it looks like one.
            ["invoke", "--", "a.b", "--json"],
            .run(command: "invoke", arguments: ParsedArguments(positionals: ["a.b", "--json"]), globals: GlobalOptions())
        ),
        (
            ["list", "--limit", "-1"],
            .run(command: "list", arguments: ParsedArguments(values: ["limit": ["-1"]]), globals: GlobalOptions())
        ),
        // A command's own options may come before it, as the global ones may come after it.
        (["--json", "apps"], .run(command: "apps", arguments: ParsedArguments(flags: ["json"]), globals: GlobalOptions())),
        (
            ["--json", "--system", "--limit=2", "list", "org.example.A", "--locale", "de"],
            .run(
                command: "list",
                arguments: ParsedArguments(
                    positionals: ["org.example.A"], values: ["limit": ["2"], "locale": ["de"]], flags: ["json"]),
                globals: GlobalOptions(bus: .system))
        ),
        (
            ["--arg", "a=1", "invoke", "a.b", "play", "--arg", "b=2"],
            .run(
                command: "invoke",
                arguments: ParsedArguments(positionals: ["a.b", "play"], values: ["arg": ["a=1", "b=2"]]),
                globals: GlobalOptions())
        ),
        (
            ["--session", "apps", "--session"],
            .run(command: "apps", arguments: ParsedArguments(), globals: GlobalOptions(bus: .session))
        ),
    ]

    @Test("accepted command lines parse to what they ask for", arguments: accepted)
    func accepts(_ arguments: [String], _ expected: Invocation) throws {
        #expect(try parser.parse(arguments) == expected)
    }

    static let rejected: [([String], String)] = [
        ([], "missing command; see 'quickactions --help' for the commands"),
        (["lsit"], "unknown command 'lsit'; see 'quickactions --help' for the commands"),
        (["--jsn", "list"], "unknown option '--jsn'"),
        (["--limit", "3", "apps"], "unknown option '--limit'"),
        (["--json"], "missing command; see 'quickactions --help' for the commands"),
        (["list", "--jsn"], "unknown option '--jsn'"),
        (["list", "-x"], "unknown option '-x'"),
        (["list", "--json=yes"], "option '--json' takes no value, got 'yes'"),
        (["list", "--locale"], "missing value for '--locale <locale>'"),
        (["list", "--locale", "--json"], "missing value for '--locale <locale>'"),
        (["list", "a", "b"], "unexpected argument 'b'"),
        (["invoke"], "missing expected argument '<app-id>'"),
        (["apps", "extra"], "unexpected argument 'extra'"),
        (["--system", "apps", "--session"], "--session and --system cannot be combined: choose one bus"),
        (["apps", "--system", "--address", "x"], "--system and --address cannot be combined: choose one bus"),
        (["apps", "--address", "a", "--address", "b"], "--address was given twice with different values: 'a' and 'b'"),
        (["help", "nope"], "unknown command 'nope'; see 'quickactions --help' for the commands"),
        (["help", "list", "apps"], "unexpected argument 'apps'; 'help' takes one command name; see 'quickactions --help'"),
    ]

    @Test("rejected command lines give one line naming the value", arguments: rejected)
    func rejects(_ arguments: [String], _ message: String) {
        #expect(throws: UsageError.self) { try parser.parse(arguments) }
        do {
            _ = try parser.parse(arguments)
        } catch {
            #expect(error.message == message)
            #expect(!error.message.contains("\n"))
        }
    }

    @Test("an error after the command names the command, for the 'see --help' hint")
    func errorNamesCommand() {
        do {
            _ = try parser.parse(["list", "--bogus"])
            Issue.record("expected a usage error")
        } catch {
            #expect(error.command == "list")
        }
    }

    @Test("the hidden __complete command parses but is not in help")
    func hiddenCommand() throws {
        let invocation = try parser.parse(["__complete", "types", "a.b"])
        #expect(invocation == .run(
            command: "__complete", arguments: ParsedArguments(positionals: ["types", "a.b"]), globals: GlobalOptions()))
        #expect(!QuickActionsCLI.help(for: nil).contains("__complete"))
    }
}
