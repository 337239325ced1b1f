import Foundation
import QuickActionsTestSupport
import Testing

/// The CLI on a broker whose item providers run (issue 33), as users will see them: a real
/// player's controls in `list`, `invoke` pausing it, and `status` counting each provider.
@Suite("provided items, end to end")
struct ProvidedItemsCommandTests {
    static let mprisPlugin = ["/usr/lib/mpv-mpris/mpris.so", "/etc/mpv/scripts/mpris.so"]
        .first { FileManager.default.fileExists(atPath: $0) }
    static let mpvAvailable = mprisPlugin != nil && Command.exists("mpv") && Command.exists("playerctl")
    static let mpvEntry = "/usr/share/applications/mpv.desktop"

    /// mpv with mpv-mpris on `bus`, headless on a generated sine, with no config or home of the host.
    static func mpv(on bus: TestBus, world: DesktopWorld) throws -> ManagedProcess {
        let home = world.root.appendingPathComponent("mpv-home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        return try ManagedProcess(
            "mpv", ["--no-config", "--ao=null", "--vo=null", "--idle=no", "--no-terminal", "--script=\(mprisPlugin ?? "")",
                    "av://lavfi:sine=frequency=440:duration=600"],
            environment: bus.environment(["HOME": home.path, "XDG_CONFIG_HOME": home.path, "XDG_CACHE_HOME": home.path,
                                          "XDG_RUNTIME_DIR": home.path]),
            directory: world.root, name: "mpv")
    }

    static func playerctl(_ bus: TestBus, _ arguments: [String]) async throws -> String {
        let result = try await Command.run("playerctl", arguments, environment: bus.environment(), timeout: .seconds(20))
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// One app's items from `quickactions list --json`: (id, type, title) each.
    static func listed(_ app: String, _ harness: BrokerHarness) async throws -> [(id: String, type: String, title: String)] {
        let result = try await CLIProcess.run(["list", "--json"], harness)
        guard result.status == 0, let groups = try CLIProcess.json(result) as? [[String: Any]] else { return [] }
        let items = groups.first { $0["app-id"] as? String == app }?["items"] as? [[String: Any]] ?? []
        return items.map { (($0["id"] as? String) ?? "", ($0["type"] as? String) ?? "", ($0["title"] as? String) ?? "") }
    }

    @Test("a playing mpv's Pause is listed, invoke pauses it (playerctl agrees), and mpv quitting takes its items",
          .enabled(if: mpvAvailable, "needs mpv, mpv-mpris and playerctl (scripts/ensure-deps.sh)"))
    func mpvThroughTheBroker() async throws {
        let world = try DesktopWorld(prefix: "qa-cli-mpv")
        defer { world.remove() }
        // The test's data folders are private: mpv's own entry, copied in, makes it an installed
        // application; without it the player is the fallback app mpris.mpv.
        let installed = FileManager.default.fileExists(atPath: Self.mpvEntry)
        if installed {
            try world.entry("mpv.desktop", try String(contentsOfFile: Self.mpvEntry, encoding: .utf8))
        }
        let app = installed ? "mpv" : "mpris.mpv"
        let harness = try await BrokerHarness(environment: world.environment())
        defer { harness.stop() }
        let mpv = try Self.mpv(on: harness.bus, world: world)
        defer { mpv.stop() }

        #expect(try await eventually(.seconds(60)) { try await Self.listed(app, harness).contains { $0.title == "Pause" } },
                "mpv: \(mpv.standardError); broker: \(harness.log)")
        let text = try await CLIProcess.run(["list", app], harness)
        #expect(text.status == 0 && text.stdout.contains("Pause"), "\(text)")
        let pause = try #require(try await Self.listed(app, harness).first { $0.title == "Pause" })
        #expect(try await Self.playerctl(harness.bus, ["--player=mpv", "status"]) == "Playing")

        let invoked = try await CLIProcess.run(["invoke", app, pause.id], harness)
        #expect(invoked.status == 0, "\(invoked)")
        #expect(try await eventually { try await Self.playerctl(harness.bus, ["--player=mpv", "status"]) == "Paused" })
        #expect(try await eventually { try await Self.listed(app, harness).contains { $0.title == "Play" } })

        mpv.stop()
        #expect(try await eventually { try await Self.listed(app, harness).isEmpty }, "the player's items went with it")
    }

    @Test("status shows each item provider with its apps and items, and --json has them under providers")
    func status() async throws {
        let world = try DesktopWorld(prefix: "qa-cli-provider-status")
        defer { world.remove() }
        try world.entry("org.example.Editor.desktop", world.editor())
        let harness = try await BrokerHarness(environment: world.environment())
        defer { harness.stop() }
        #expect(try await eventually { try await Self.listed("org.example.Editor", harness).count == 1 }, "\(harness.log)")

        let text = try await CLIProcess.run(["status"], harness)
        #expect(text.status == 0, "\(text)")
        #expect(text.stdout.contains("item providers:\n"), "\(text)")
        #expect(text.stdout.contains("  desktop-actions: 1 app, 1 item\n"), "\(text)")
        #expect(text.stdout.contains("  recent-documents: 0 apps, 0 items\n"), "\(text)")
        #expect(text.stdout.contains("  media-players: 0 apps, 0 items\n"), "\(text)")

        let json = try await CLIProcess.run(["status", "--json"], harness)
        #expect(json.status == 0, "\(json)")
        let status = try #require(try CLIProcess.json(json) as? [String: Any])
        let providers = try #require(status["providers"] as? [[String: Any]], "\(status)")
        #expect(providers.map { $0["name"] as? String } == ["desktop-actions", "recent-documents", "media-players"])
        #expect(providers.first?["apps"] as? Int == 1 && providers.first?["items"] as? Int == 1, "\(providers)")

        let off = try await BrokerHarness(arguments: ["--no-media-players", "--no-recent-documents", "--no-desktop-actions"],
                                          environment: world.environment())
        defer { off.stop() }
        let none = try await CLIProcess.run(["status"], off)
        #expect(none.stdout.contains("item providers: none\n"), "\(none)")
        let noneJSON = try #require(try CLIProcess.json(try await CLIProcess.run(["status", "--json"], off)) as? [String: Any])
        #expect((noneJSON["providers"] as? [Any])?.isEmpty == true, "\(noneJSON)")
    }
}
