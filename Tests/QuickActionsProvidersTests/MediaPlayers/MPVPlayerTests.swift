import DBus
import Foundation
import QuickActionsProviders
import QuickActionsProviding
import QuickActionsTestSupport
import Testing

/// A real player: Debian's mpv with mpv-mpris, headless on a generated sound, on a private
/// bus; playerctl (a real MPRIS client) says what users would see.
@Suite struct MPVPlayerTests {
    static let plugin = ["/usr/lib/mpv-mpris/mpris.so", "/etc/mpv/scripts/mpris.so"]
        .first { FileManager.default.fileExists(atPath: $0) }
    static let available = plugin != nil && Command.exists("mpv") && Command.exists("playerctl")

    /// mpv on `bus`, playing `sources` (lavfi sine waves), with no config, home or audio of the host.
    static func mpv(on bus: TestBus, name: String, sources: Int = 1) throws -> ManagedProcess {
        let home = bus.directory.appendingPathComponent("home-\(name)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let files = (0..<sources).map { "av://lavfi:sine=frequency=\(440 + 110 * $0):duration=600" }
        return try ManagedProcess(
            "mpv", ["--no-config", "--ao=null", "--vo=null", "--idle=no", "--no-terminal", "--script=\(plugin ?? "")"] + files,
            environment: bus.environment(["HOME": home.path, "XDG_CONFIG_HOME": home.path, "XDG_CACHE_HOME": home.path,
                                          "XDG_RUNTIME_DIR": home.path]),
            directory: bus.directory, name: name)
    }

    static func playerctl(_ bus: TestBus, _ arguments: [String]) async throws -> String {
        let result = try await Command.run("playerctl", arguments, environment: bus.environment(), timeout: .seconds(20))
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A property as gdbus reads it, e.g. "(<true>,)".
    static func property(_ bus: TestBus, _ name: String, busName: String = "org.mpris.MediaPlayer2.mpv") async throws -> String {
        let result = try await Command.run(
            "gdbus", ["call", "--address", bus.address, "--dest", busName, "--object-path", "/org/mpris/MediaPlayer2",
                      "--method", "org.freedesktop.DBus.Properties.Get", "org.mpris.MediaPlayer2.Player", name],
            timeout: .seconds(20))
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static let mpvApp = FakeInstalledApplications.app("mpv", name: "mpv Media Player")
    /// How long mpv may take to start playing and appear: a minute, for the sanitizer lanes
    /// on a loaded 2-core machine (a CI run saw more than 15 s there); a pass costs nothing.
    static let startWait: Duration = .seconds(60)

    @Test(.enabled(if: available, "needs mpv, mpv-mpris and playerctl (scripts/ensure-deps.sh)"))
    func mpvsItemsFollowThePlayerAndPauseReachesIt() async throws {
        let bus = try await TestBus()
        defer { bus.stop() }
        let provider = try ProviderUnderTest(bus: bus, applications: FakeInstalledApplications([Self.mpvApp]))
        defer { provider.stop() }
        let published = provider.published
        let mpv = try Self.mpv(on: bus, name: "mpv", sources: 2)
        defer { mpv.stop() }

        #expect(await eventually(Self.startWait) { published.itemIDs("mpv").first == "pause" },
                "items: \(published.latest ?? []); mpv: \(mpv.standardError)")
        #expect(try await Self.playerctl(bus, ["--player=mpv", "status"]) == "Playing")
        // Next and Previous exactly when mpv says it can (first of two tracks: next, no previous).
        let canGoNext = try await Self.property(bus, "CanGoNext") == "(<true>,)"
        let canGoPrevious = try await Self.property(bus, "CanGoPrevious") == "(<true>,)"
        #expect(published.itemIDs("mpv").contains("next") == canGoNext, "\(published.itemIDs("mpv"))")
        #expect(published.itemIDs("mpv").contains("previous") == canGoPrevious, "\(published.itemIDs("mpv"))")
        let pause = try #require(published.item("mpv", "pause"))
        #expect(pause.title.resolved(for: "fr_FR.UTF-8") == "Pause")
        #expect(pause.isStatic == false)

        let outcome = await provider.perform("mpv", pause)
        #expect(outcome.success, "\(outcome)")
        #expect(outcome.message.hasPrefix("Paused "), "\(outcome)")
        #expect(try await eventually { try await Self.playerctl(bus, ["--player=mpv", "status"]) == "Paused" })
        #expect(await eventually { published.itemIDs("mpv").first == "play" }, "\(published.itemIDs("mpv"))")

        if canGoNext, let next = published.item("mpv", "next") {
            let skipped = await provider.perform("mpv", next)
            #expect(skipped.success, "\(skipped)")
            // mpv went on to the second source, and the items' subtitle follows.
            #expect(try await eventually {
                try await Self.playerctl(bus, ["--player=mpv", "metadata", "xesam:title"]).contains("frequency=550")
            })
            #expect(await eventually { published.item("mpv", "play")?.subtitle?.value.contains("frequency=550") == true },
                    "\(String(describing: published.item("mpv", "play")))")
        }

        let play = try #require(published.item("mpv", "play"))
        #expect(await provider.perform("mpv", play).success)
        #expect(try await eventually { try await Self.playerctl(bus, ["--player=mpv", "status"]) == "Playing" })

        // mpv quits: its items go, and its item's Perform fails saying so.
        mpv.stop()
        #expect(await eventually { published.app("mpv") == nil }, "\(published.latest ?? [])")
        let late = await provider.perform("mpv", pause)
        #expect(!late.success)
        #expect(late.message.contains("has quit"), "\(late)")
    }

    @Test(.enabled(if: available, "needs mpv, mpv-mpris and playerctl (scripts/ensure-deps.sh)"))
    func twoMPVInstancesShareOneAppWithDistinctItems() async throws {
        let bus = try await TestBus()
        defer { bus.stop() }
        let provider = try ProviderUnderTest(bus: bus, applications: FakeInstalledApplications([Self.mpvApp]))
        defer { provider.stop() }
        let published = provider.published
        let first = try Self.mpv(on: bus, name: "mpv-1")
        defer { first.stop() }
        #expect(await eventually(Self.startWait) { published.itemIDs("mpv").contains("pause") })
        let second = try Self.mpv(on: bus, name: "mpv-2")
        defer { second.stop() }
        #expect(await eventually(Self.startWait) { published.itemIDs("mpv").filter { $0.hasPrefix("pause") }.count == 2 },
                "\(published.itemIDs("mpv")); \(second.standardError)")
        let ids = published.itemIDs("mpv")
        #expect(Set(ids).count == ids.count, "distinct ids: \(ids)")
        let titles = published.app("mpv")?.items.map(\.title.value) ?? []
        #expect(Set(titles).count == titles.count, "titles naming their instance: \(titles)")

        // The second quits: the first's items stay, unchanged in id.
        second.stop()
        #expect(await eventually { published.itemIDs("mpv").filter { $0.hasPrefix("pause") } == ["pause"] },
                "\(published.itemIDs("mpv"))")
    }

    @Test(.enabled(if: available, "needs mpv, mpv-mpris and playerctl (scripts/ensure-deps.sh)"))
    func aPlayerWhoseEntryIsNotInstalledIsAnAppOfItsOwn() async throws {
        let bus = try await TestBus()
        defer { bus.stop() }
        let applications = FakeInstalledApplications()
        let provider = try ProviderUnderTest(bus: bus, applications: applications)
        defer { provider.stop() }
        let published = provider.published
        let mpv = try Self.mpv(on: bus, name: "mpv")
        defer { mpv.stop() }
        #expect(await eventually(Self.startWait) { published.app("mpris.mpv") != nil }, "\(published.latest ?? [])")
        #expect(published.app("mpris.mpv")?.icon == "multimedia-player")
        // Installed later: the items move to it.
        applications.set([Self.mpvApp])
        #expect(await eventually { published.app("mpv") != nil && published.app("mpris.mpv") == nil }, "\(published.latest ?? [])")
    }
}
