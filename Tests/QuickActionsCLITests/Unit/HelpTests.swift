import Foundation
import QuickActionsTestSupport
import QuickActionsCLI
import Testing

@Suite("Help")
struct HelpTests {
    static let visible = QuickActionsCLI.commandSpecs.filter { !$0.isHidden }.map(\.name)

    @Test("every command's help has usage, options, examples and the exit codes", arguments: visible)
    func commandHelp(_ name: String) {
        let text = QuickActionsCLI.help(for: name)
        #expect(text.hasPrefix("OVERVIEW:"))
        #expect(text.contains("USAGE:\n  quickactions \(name)"))
        #expect(text.contains("-h, --help"))
        #expect(text.contains("--address <address>"))
        #expect(text.contains("EXAMPLES:\n"))
        #expect(text.contains("$ quickactions "))
        for code in ExitCode.allCases {
            #expect(text.contains("\n  \(code.rawValue)  "), "exit code \(code.rawValue) missing from \(name)'s help")
        }
    }

    @Test("help lines fit 80 columns except example command lines", arguments: visible + [""])
    func width(_ name: String) {
        let text = QuickActionsCLI.help(for: name.isEmpty ? nil : name, width: 80)
        for line in text.split(separator: "\n") where !line.contains("$ ") {
            #expect(line.count <= 80, "too long in \(name)'s help: \(line)")
        }
    }

    @Test("the tool's help lists every visible command, --version, and the exit codes")
    func rootHelp() {
        let text = QuickActionsCLI.help(for: nil)
        for name in Self.visible + ["help"] {
            #expect(text.contains("\n  \(name) "), "\(name) missing")
        }
        #expect(text.contains("--version"))
        #expect(text.contains("EXIT CODES:"))
    }

    @Test("invoke's help documents how --arg values are typed")
    func invokeTyping() {
        let text = QuickActionsCLI.help(for: "invoke")
        for spelling in ["KEY=VALUE", "KEY:TYPE=VALUE", "string", "int", "bool", "double"] {
            #expect(text.contains(spelling))
        }
    }

    @Test("--help and help <command> print the same text, on stdout, exit 0")
    func helpForms() async {
        let first = RecordingConsole()
        let second = RecordingConsole()
        #expect(await QuickActionsCLI.run(["watch", "--help"], environment: [:], console: first.console) == 0)
        #expect(await QuickActionsCLI.run(["help", "watch"], environment: [:], console: second.console) == 0)
        #expect(first.stdout == second.stdout)
        #expect(first.stdout.contains("watch"))
        #expect(first.stderr.isEmpty)
    }

    @Test("help --help and help -h show the tool's help, which documents help", arguments: ["--help", "-h"])
    func helpOfHelp(_ flag: String) async {
        let recorder = RecordingConsole()
        #expect(await QuickActionsCLI.run(["help", flag], environment: [:], console: recorder.console) == 0)
        #expect(recorder.stdout == QuickActionsCLI.help(for: nil))
        #expect(recorder.stderr.isEmpty)
    }

    @Test("a wrong help command line points at the tool's help, never back at 'help --help'",
          arguments: [["help", "nosuch"], ["help", "list", "apps"]])
    func helpErrors(_ arguments: [String]) async {
        let recorder = RecordingConsole()
        #expect(await QuickActionsCLI.run(arguments, environment: [:], console: recorder.console) == 2)
        #expect(recorder.stderr.contains("see 'quickactions --help'"), "\(recorder.stderr)")
        #expect(!recorder.stderr.contains("help --help"), "\(recorder.stderr)")
    }

    /// The example plugins' app ids and item types, read from plugins/*/Bundle/Info.plist.
    static func examplePlugins() throws -> [String: Set<String>] {
        let plugins = PackagePaths.root.appendingPathComponent("plugins")
        var apps: [String: Set<String>] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: plugins.path) {
            let file = plugins.appendingPathComponent("\(name)/Bundle/Info.plist")
            guard let data = FileManager.default.contents(atPath: file.path) else { continue }
            let plist = try #require(try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
            let id = try #require(plist["CFBundleIdentifier"] as? String)
            let items = plist["UIApplicationShortcutItems"] as? [[String: Any]] ?? []
            apps[id] = Set(items.compactMap { $0["UIApplicationShortcutItemType"] as? String })
        }
        return apps
    }

    @Test("help examples name the example apps that exist, and their real item types",
          arguments: visible + [""])
    func examplesNameRealApps(_ name: String) throws {
        let apps = try Self.examplePlugins()
        try #require(apps.keys.contains("com.example.contacts"), "found \(apps.keys.sorted())")
        let text = QuickActionsCLI.help(for: name.isEmpty ? nil : name)
        for line in text.split(separator: "\n") where line.hasPrefix("  $ quickactions ") {
            let words = line.dropFirst(4).split(separator: " ").map(String.init)
            guard words.count >= 3, ["list", "invoke"].contains(words[1]), !words[2].hasPrefix("-") else { continue }
            let types = apps[words[2]]
            #expect(types != nil, "\(line): no example plugin has the id \(words[2])")
            if words[1] == "invoke", words.count >= 4, !words[3].hasPrefix("-"), let types {
                #expect(types.contains(words[3]), "\(line): \(words[2]) has no item of type \(words[3])")
            }
        }
    }
}
