import Foundation
import QuickActionsCLI
import QuickActionsTestSupport
import Testing

/// `apps` and `list` against a real broker.
@Suite("apps and list, end to end")
struct ListingCommandTests {
    @Test("apps lists id, name, version and loaded; --json field by field; Loaded follows the first invoke")
    func apps() async throws {
        let harness = try await BrokerHarness(bundles: [CLIFixtures.swiftApp, CLIFixtures.cApp])
        let text = try await CLIProcess.run(["apps"], harness)
        #expect(text.status == 0, "\(text)")
        #expect(text.stderr.isEmpty)
        let lines = text.stdout.split(separator: "\n").map(String.init)
        #expect(lines == [
            "ID                 NAME           VERSION  LOADED",
            "org.example.c      C Example      1.0      no",
            "org.example.swift  Swift Example  2.1      no",
        ])

        #expect(try await CLIProcess.run(["invoke", "org.example.c", "succeed"], harness).status == 0)
        let json = try await CLIProcess.run(["apps", "--json"], harness)
        #expect(json.status == 0, "\(json)")
        let apps = try #require(try CLIProcess.json(json) as? [[String: Any]])
        #expect(apps.count == 2)
        #expect(apps.map { $0["id"] as? String } == ["org.example.c", "org.example.swift"])
        #expect(apps[0]["name"] as? String == "C Example")
        #expect(apps[0]["version"] as? String == "1.0")
        #expect(apps[0]["loaded"] as? Bool == true)
        #expect(apps[0]["icon"] is String)
        #expect(apps[1]["name"] as? String == "Swift Example")
        #expect(apps[1]["version"] as? String == "2.1")
        #expect(apps[1]["loaded"] as? Bool == false)
        #expect(Set(apps[1].keys) == ["id", "name", "icon", "version", "loaded"])
    }

    @Test("list --json prints every app's items exactly, field by field")
    func listJSON() async throws {
        let harness = try await BrokerHarness(bundles: [CLIFixtures.swiftApp, CLIFixtures.cApp])
        let result = try await CLIProcess.run(["list", "--json"], harness)
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty)
        let groups = try #require(try CLIProcess.json(result) as? [[String: Any]])
        #expect(groups.map { $0["app-id"] as? String } == ["org.example.c", "org.example.swift"])
        let cItems = try #require(groups[0]["items"] as? [[String: Any]])
        #expect(cItems.map { $0["type"] as? String } == ["succeed", "fail"])
        #expect(cItems.map { $0["title"] as? String } == ["Succeed", "Fail"])
        let swiftItems = try #require(groups[1]["items"] as? [[String: Any]])
        #expect(swiftItems.map { $0["type"] as? String } == ["hello", "echo-items", "never"])
        let hello = swiftItems[0]
        #expect(hello["title"] as? String == "Hello")
        #expect(hello["subtitle"] as? String == "Say hello")
        #expect((hello["icon"] as? String).map { !$0.isEmpty } == true)
        #expect(hello["origin"] as? String == "static")
        let info = try #require(hello["user-info"] as? [String: Any])
        #expect(info["count"] as? Int == 3)
        #expect(info["ratio"] as? Double == 0.5)
        #expect(info["flag"] as? Bool == true)
        #expect(info["name"] as? String == "x")
        #expect(swiftItems[1]["subtitle"] == nil, "no subtitle key when the item has none")
        #expect(swiftItems[1]["icon"] == nil, "no icon key when the item has none")
    }

    @Test("list APP --locale --limit asks for one app, localised, limited")
    func listOneApp() async throws {
        let harness = try await BrokerHarness(bundles: [CLIFixtures.swiftApp, CLIFixtures.cApp])
        let result = try await CLIProcess.run(
            ["list", "org.example.swift", "--locale", "de", "--limit", "1", "--json"], harness)
        #expect(result.status == 0, "\(result)")
        let groups = try #require(try CLIProcess.json(result) as? [[String: Any]])
        #expect(groups.count == 1)
        #expect(groups[0]["app-id"] as? String == "org.example.swift")
        let items = try #require(groups[0]["items"] as? [[String: Any]])
        #expect(items.count == 1)
        #expect(items[0]["title"] as? String == "Hallo")
        #expect(items[0]["subtitle"] as? String == "Sag hallo")

        let limited = try await CLIProcess.run(["list", "--limit", "0", "--json"], harness)
        let all = try #require(try CLIProcess.json(limited) as? [[String: Any]])
        #expect(all.allSatisfy { ($0["items"] as? [Any])?.isEmpty == true })
    }

    @Test("list groups items under each app's name in aligned columns, without colour in a pipe")
    func listText() async throws {
        let harness = try await BrokerHarness(bundles: [CLIFixtures.swiftApp, CLIFixtures.cApp])
        let result = try await CLIProcess.run(["list"], harness)
        #expect(result.status == 0, "\(result)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("  TITLE") == true)
        #expect(lines.contains("C Example (org.example.c)"))
        #expect(lines.contains("Swift Example (org.example.swift)"))
        let hello = try #require(lines.first { $0.hasPrefix("  Hello") })
        #expect(hello.contains("Say hello"))
        #expect(hello.hasSuffix("static"))
        // Aligned: the ID column starts at the same place in the header and in every row.
        let typeColumn = try #require(lines[0].range(of: "ID")).lowerBound.utf16Offset(in: lines[0])
        let helloType = try #require(hello.range(of: "hello", options: .backwards)).lowerBound.utf16Offset(in: hello)
        #expect(typeColumn == helloType)
        #expect(!result.stdout.contains("\u{1B}"))
    }

    @Test("with $COLUMNS every line fits: icons and origins left out first, then cells cut with an ellipsis; ids whole",
          arguments: [30, 45])
    func listTruncated(_ columns: Int) async throws {
        let harness = try await BrokerHarness(bundles: [CLIFixtures.swiftApp])
        let result = try await CLIProcess.run(["list"], harness, environment: ["COLUMNS": "\(columns)"])
        #expect(result.status == 0, "\(result)")
        for line in result.stdout.split(separator: "\n") {
            #expect(line.count <= columns, "'\(line)' is wider than \(columns)")
        }
        #expect(!result.stdout.contains("ORIGIN") && !result.stdout.contains("ICON"), "\(result.stdout)")
        #expect(result.stdout.contains("echo-items"), "\(result.stdout)")
        if columns < 40 { #expect(result.stdout.contains("…"), "\(result.stdout)") }
    }

    @Test("list of an unknown app exits 3 with one line naming it, nothing on stdout")
    func unknownApp() async throws {
        let harness = try await BrokerHarness(bundles: [CLIFixtures.cApp])
        let result = try await CLIProcess.run(["list", "org.example.nope"], harness)
        #expect(result.status == 3, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderrLines.count == 1)
        #expect(result.stderr.contains("org.example.nope"))
    }

    @Test("--address reaches the broker without a session bus in the environment")
    func explicitAddress() async throws {
        let harness = try await BrokerHarness(bundles: [CLIFixtures.cApp])
        let result = try await CLIProcess.run(
            ["--address", harness.bus.address, "apps", "--json"], nil,
            environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/qa-cli"])
        #expect(result.status == 0, "\(result)")
        let apps = try #require(try CLIProcess.json(result) as? [[String: Any]])
        #expect(apps.first?["id"] as? String == "org.example.c")
        // And after the command, as a global option there too.
        let after = try await CLIProcess.run(
            ["apps", "--address=\(harness.bus.address)"], nil,
            environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/qa-cli"])
        #expect(after.status == 0, "\(after)")
        #expect(after.stdout.contains("org.example.c"))
    }

    @Test("on a terminal, list and apps are coloured, unless NO_COLOR is set")
    func colour() async throws {
        let harness = try await BrokerHarness(bundles: [CLIFixtures.cApp])
        guard let coloured = try await CLIProcess.runOnTerminal(["apps"], harness) else { return }
        #expect(coloured.status == 0, "\(coloured)")
        #expect(coloured.stdout.contains("\u{1B}[1mID"))
        let plain = try #require(try await CLIProcess.runOnTerminal(["list"], harness, environment: ["NO_COLOR": "1"]))
        #expect(plain.status == 0, "\(plain)")
        #expect(plain.stdout.contains("Succeed"))
        #expect(!plain.stdout.contains("\u{1B}["))
    }
}

/// `list` on an 80-column terminal, as a newcomer first sees it: the run is the CLI's own
/// (`QuickActionsCLI.run`) with a console that records what a terminal of that width would show.
@Suite("list on an 80-column terminal")
struct NarrowListingTests {
    static let longID = "com.example.cli.OpenFavoritesOfFollowed"
    static let app: TestBundle = {
        var bundle = TestBundle(
        appID: "org.example.narrow", library: "QATestSwiftPlugin", name: "Narrow",
        items: [
            TestBundle.item(longID, "Open the favorites of everyone you follow, newest first",
                            subtitle: "Everything the people you follow liked this week, and more"),
            ["UIApplicationShortcutItemType": "short", "UIApplicationShortcutItemTitle": "Short",
             "UIApplicationShortcutItemIconFile": "Icons/favorites.svg"],
        ])
        bundle.files["Icons/favorites.svg"] = "<svg xmlns=\"http://www.w3.org/2000/svg\"/>"
        return bundle
    }()

    func list(_ arguments: [String], harness: BrokerHarness) async -> (status: Int32, lines: [String]) {
        let recorder = RecordingConsole(terminal: Terminal(stdoutIsTerminal: true, stderrIsTerminal: true, width: 80))
        let status = await QuickActionsCLI.run(
            ["--address", harness.bus.address] + arguments, environment: ["LANG": "C.UTF-8"], console: recorder.console)
        return (status, recorder.stdout.split(separator: "\n").map(String.init))
    }

    func harness() async throws -> BrokerHarness {
        try await BrokerHarness(bundles: [Self.app])
    }

    @Test("titles and subtitles are cut to the width with an ellipsis, ids stay whole, a file icon shows its name")
    func fitted() async throws {
        let harness = try await harness()
        defer { harness.stop() }
        let (status, lines) = await list(["list"], harness: harness)
        #expect(status == 0)
        let long = try #require(lines.first { $0.contains(Self.longID) }, "\(lines)")
        #expect(long.contains("…"), "\(long)")
        #expect(!long.contains("newest first"), "\(long)")
        let short = try #require(lines.first { $0.hasPrefix("  Short") }, "\(lines)")
        #expect(short.contains("favorites.svg"), "\(short)")
        #expect(!short.contains("/Icons/"), "the icon's folder pushes the rest off the line: \(short)")
        for line in lines {
            #expect(DisplayWidth.of(line) <= 80, "'\(line)' is wider than 80")
        }
    }

    @Test("--wide shows every cell whole; --json is unchanged by it")
    func wide() async throws {
        let harness = try await harness()
        defer { harness.stop() }
        let (status, lines) = await list(["list", "--wide"], harness: harness)
        #expect(status == 0)
        let long = try #require(lines.first { $0.contains(Self.longID) }, "\(lines)")
        #expect(long.contains("Open the favorites of everyone you follow, newest first"))
        #expect(long.contains("Everything the people you follow liked this week, and more"))
        #expect(!lines.joined().contains("…"))
        let (_, json) = await list(["list", "--json"], harness: harness)
        let object = try JSONSerialization.jsonObject(with: Data(json.joined(separator: "\n").utf8))
        let items = try #require(((object as? [[String: Any]])?.first?["items"]) as? [[String: Any]])
        #expect(items.first?["id"] as? String == Self.longID)
        #expect((items.last?["icon"] as? String)?.hasSuffix("/Icons/favorites.svg") == true, "\(items)")
    }
}
