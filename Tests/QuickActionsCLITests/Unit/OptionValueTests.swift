import QuickActionsCLI
import Testing

/// Option values are checked before anything is sent: a bad one exits 2
/// with one line on stderr naming it, and nothing on stdout.
@Suite("Option values")
struct OptionValueTests {
    static let rejected: [([String], String)] = [
        (["list", "--limit", "x"], "quickactions: list: --limit 'x' is not a whole number from 0 to 4294967295"),
        (["list", "--limit", "-1"], "quickactions: list: --limit '-1' is not a whole number from 0 to 4294967295"),
        (["list", "--limit", "4294967296"], "quickactions: list: --limit '4294967296' is not a whole number from 0 to 4294967295"),
        (["list", "--locale", "de DE"], "quickactions: list: --locale 'de DE' is not a locale name such as de_DE or fr"),
        (["invoke", "a", "t", "--timeout", "0"], "quickactions: invoke: --timeout '0' is not a number of seconds from 0.001 to 600"),
        (["invoke", "a", "t", "--timeout", "601"], "quickactions: invoke: --timeout '601' is not a number of seconds from 0.001 to 600"),
        (["invoke", "a", "t", "--timeout", "soon"], "quickactions: invoke: --timeout 'soon' is not a number of seconds from 0.001 to 600"),
        (["invoke", "a", "t", "--timeout", "nan"], "quickactions: invoke: --timeout 'nan' is not a number of seconds from 0.001 to 600"),
        (["invoke", "a", "t", "--arg", "k:int=x"], "quickactions: invoke: --arg 'k:int=x': 'x' is not an integer (a 64-bit signed whole number)"),
        (["invoke", "", "t"], "quickactions: invoke: <app-id> is empty"),
        (["pick", "--picker", " "], "quickactions: pick: --picker ' ' is empty: name a command such as 'rofi -dmenu'"),
        (["completion", "tcsh"], "quickactions: completion: unknown shell 'tcsh': choose bash, zsh or fish"),
        (["list", "--nope"], "quickactions: list: unknown option '--nope' (see 'quickactions list --help')"),
    ]

    @Test("a bad value exits 2 with one line naming it", arguments: rejected)
    func rejects(_ arguments: [String], _ line: String) async {
        let recorder = RecordingConsole()
        let status = await QuickActionsCLI.run(arguments, environment: [:], console: recorder.console)
        #expect(status == 2)
        #expect(recorder.stdout == "")
        let lines = recorder.stderr.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(lines.first.map(String.init)?.hasPrefix(line) == true, "got: \(recorder.stderr)")
    }

    @Test("no arguments prints the help on stderr and exits 2")
    func noArguments() async {
        let recorder = RecordingConsole()
        let status = await QuickActionsCLI.run([], environment: [:], console: recorder.console)
        #expect(status == 2)
        #expect(recorder.stdout == "")
        #expect(recorder.stderr.contains("USAGE:"))
    }

    @Test("--version prints the version alone on stdout")
    func version() async {
        let recorder = RecordingConsole()
        let status = await QuickActionsCLI.run(["--version"], environment: [:], console: recorder.console)
        #expect(status == 0)
        #expect(recorder.stdout == QuickActionsCLI.version + "\n")
        #expect(recorder.stderr == "")
    }

    @Test("a bus that cannot be reached exits 5 naming the bus")
    func unreachableBus() async {
        let recorder = RecordingConsole()
        let status = await QuickActionsCLI.run(
            ["--address", "unix:path=/nonexistent/qa-test-bus", "apps"], environment: [:], console: recorder.console)
        #expect(status == 5)
        #expect(recorder.stdout == "")
        #expect(recorder.stderr.hasPrefix("quickactions: cannot connect to the bus at unix:path=/nonexistent/qa-test-bus: "))
        #expect(recorder.stderr.split(separator: "\n").count == 1)
    }
}
