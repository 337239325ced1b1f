import DBus
import Testing

@testable import QuickActionsCLI

@Suite("Pick menu and picker choice")
struct PickerTests {
    let groups = [
        AppItems(appID: "org.example.Music", items: [
            Item(type: "play", title: "Play", subtitle: "Resume playback", origin: "static"),
            Item(type: "pause", title: "Pause", origin: "static"),
        ]),
        AppItems(appID: "org.example.Notes", items: [
            Item(type: "new", title: "New note", origin: "static"),
            Item(type: "new-pinned", title: "New note", origin: "dynamic"),
            Item(type: "evil", title: "Line\nbreak", origin: "dynamic"),
        ]),
    ]

    @Test("one line per item, 'App: Title — Subtitle'; equal lines get the app id and type")
    func lines() {
        let menu = PickMenu(groups: groups, names: ["org.example.Music": "Music", "org.example.Notes": "Notes"])
        #expect(menu.entries.map(\.line) == [
            "Music: Play — Resume playback",
            "Music: Pause",
            "Notes: New note [org.example.Notes new]",
            "Notes: New note [org.example.Notes new-pinned]",
            "Notes: Line break",
        ])
        #expect(Set(menu.entries.map(\.line)).count == menu.entries.count)
        #expect(menu.input.split(separator: "\n").count == 5)
    }

    @Test("every item is offered, several of one type each by its own id")
    func sameType() {
        let menu = PickMenu(groups: [AppItems(appID: "a.b", items: [
            Item(type: "t", title: "Static", origin: "static"),
            Item(type: "t", title: "Ada", origin: "dynamic", id: "t#1"),
            Item(type: "t", title: "Ada", origin: "dynamic", id: "t#2"),
        ])], names: [:])
        #expect(menu.entries.map(\.line) == ["a.b: Static", "a.b: Ada [a.b t#1]", "a.b: Ada [a.b t#2]"])
        #expect(menu.entries.map(\.item.id) == ["t", "t#1", "t#2"])
        #expect(menu.entry(forOutput: "a.b: Ada [a.b t#2]\n")?.item.id == "t#2")
    }

    @Test("an app without a name is shown by its id")
    func unnamed() {
        let menu = PickMenu(groups: [groups[0]], names: [:])
        #expect(menu.entries[1].line == "org.example.Music: Pause")
    }

    @Test("the picker's output line selects the entry; whitespace and later lines are ignored")
    func selection() {
        let menu = PickMenu(groups: groups, names: ["org.example.Music": "Music", "org.example.Notes": "Notes"])
        #expect(menu.entry(forOutput: "Music: Pause\n")?.type == "pause")
        #expect(menu.entry(forOutput: "  Music: Pause  \nrest")?.app == "org.example.Music")
        #expect(menu.entry(forOutput: "Notes: New note [org.example.Notes new-pinned]\n")?.type == "new-pinned")
        #expect(menu.entry(forOutput: "Music: Stop\n") == nil)
        #expect(menu.entry(forOutput: "\n") == nil)
    }

    static let detections: [(String?, [String: String], Bool, Set<String>, Picker)] = [
        ("rofi -dmenu", ["DISPLAY": ":0"], true, ["fzf"], .shell("rofi -dmenu")),
        (nil, [:], true, ["fzf", "rofi"], .program(["fzf", "--no-multi", "--prompt=Quick action> "])),
        (nil, [:], false, ["fzf"], .prompt),
        (nil, ["DISPLAY": ":0"], false, ["fzf", "rofi"], .program(["rofi", "-dmenu", "-i", "-p", "Quick action"])),
        (nil, ["WAYLAND_DISPLAY": "wayland-0"], false, ["fuzzel", "dmenu"], .program(["fuzzel", "--dmenu"])),
        (nil, ["DISPLAY": ":0"], false, ["fuzzel", "dmenu"], .program(["dmenu", "-i", "-p", "Quick action"])),
        (nil, [:], false, ["rofi", "fuzzel", "dmenu"], .prompt),
        (nil, [:], true, [], .prompt),
    ]

    @Test("the picker: --picker, else fzf on a terminal, rofi, fuzzel, dmenu with a display, else the prompt",
          arguments: detections)
    func detect(_ requested: String?, _ environment: [String: String], _ tty: Bool, _ installed: Set<String>,
                _ expected: Picker) {
        let picker = Picker.detect(
            requested: requested, environment: environment, terminal: Terminal(stdinIsTerminal: tty),
            isInstalled: { installed.contains($0) })
        #expect(picker == expected)
    }

    @Test("a shell picker gets the lines on stdin and its first output line chooses")
    func shellPicker() async throws {
        let menu = PickMenu(groups: groups, names: [:])
        let entry = try await Picker.shell("grep Pause").choose(menu, console: RecordingConsole().console)
        #expect(entry?.type == "pause")
    }

    @Test("a picker that exits non-zero or prints nothing chose nothing", arguments: ["false", "cat >/dev/null"])
    func cancelled(_ command: String) async throws {
        let menu = PickMenu(groups: groups, names: [:])
        #expect(try await Picker.shell(command).choose(menu, console: RecordingConsole().console) == nil)
    }

    @Test("a picker that prints a line not offered is an unknown item (exit 3)")
    func unknownLine() async {
        let menu = PickMenu(groups: groups, names: [:])
        await #expect(throws: CLIError.notFound(
            "the picker 'echo Nope' chose 'Nope', which is not one of the offered actions")) {
            try await Picker.shell("echo Nope").choose(menu, console: RecordingConsole().console)
        }
    }

    @Test("a picker command that does not exist is a usage error naming it")
    func missingCommand() async {
        let menu = PickMenu(groups: groups, names: [:])
        do {
            _ = try await Picker.shell("no-such-picker-qa").choose(menu, console: RecordingConsole().console)
            Issue.record("expected an error")
        } catch {
            #expect(error.exitCode == .usage)
            #expect(error.description.contains("'no-such-picker-qa'"))
        }
    }

    @Test("a picker that reads nothing and exits does not hurt us (SIGPIPE ignored)")
    func earlyExit() async throws {
        let many = [AppItems(appID: "a.b", items: (0..<20_000).map {
            Item(type: "t\($0)", title: "Item number \($0) with a long title to fill the pipe", origin: "static")
        })]
        let menu = PickMenu(groups: many, names: [:])
        let entry = try await Picker.shell("echo 'a.b: Item number 7 with a long title to fill the pipe'")
            .choose(menu, console: RecordingConsole().console)
        #expect(entry?.type == "t7")
    }
}
