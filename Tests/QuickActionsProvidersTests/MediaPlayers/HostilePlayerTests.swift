import DBus
import Foundation
import QuickActionsProviders
import QuickActionsProviding
import QuickActionsTestSupport
import Testing

/// A good player beside a hostile one (wrong types, huge metadata, a GetAll that never
/// answers, a flood of signals) and a silent one, on a private bus: the provider serves the
/// good one as if the others were not there.
@Suite struct HostilePlayerTests {
    @Test func hostilePlayersCostOnlyThemselves() async throws {
        let bus = try await TestBus()
        defer { bus.stop() }
        let players = try await FakePlayers(bus: bus)
        defer { players.stop() }
        let applications = FakeInstalledApplications([FakeInstalledApplications.app("good-player", name: "Good")])
        let provider = try ProviderUnderTest(bus: bus, applications: applications)
        defer { provider.stop() }
        let published = provider.published

        // The good player is served, with its track.
        #expect(await eventually { published.itemIDs("good-player") == ["pause", "next"] },
                "good player's items: \(published.latest ?? []); log: \(published.log)")
        #expect(published.item("good-player", "pause")?.subtitle?.value == "Good Band — First Song")

        // The hostile one: its wrongly typed properties ignored (and named in the log), its
        // metadata cut; its root GetAll never answered, so it is an app of its own by bus name.
        // Its root GetAll costs up to three 2 s timeouts before it is served by bus name, and
        // its huge metadata is read meanwhile: on a loaded CI machine that took over 15 s.
        #expect(await eventually(.seconds(60)) { published.app("mpris.hostile") != nil }, "\(published.latest ?? [])")
        let hostile = try #require(published.app("mpris.hostile"))
        // PlaybackStatus was an int32: unknown, so Play (CanPlay); CanPause and CanGoNext were not booleans.
        #expect(hostile.items.map(\.id) == ["play", "previous"])
        let subtitle = try #require(hostile.items.first?.subtitle?.value)
        #expect(subtitle.utf8.count <= 1024, "subtitle of \(subtitle.utf8.count) bytes")
        #expect(subtitle.hasPrefix("AAAA") && subtitle.contains(" — TTTT"), "\(subtitle.prefix(80))")
        for property in ["PlaybackStatus", "CanPause", "CanGoNext", "Metadata"] {
            #expect(await eventually {
                published.log.contains { $0.contains("org.mpris.MediaPlayer2.hostile") && $0.contains(property) }
            }, "a log line names the hostile player and \(property): \(published.log)")
        }
        // The silent player's GetAll times out: logged, and it has no items.
        #expect(await eventually {
            published.log.contains { $0.contains("org.mpris.MediaPlayer2.silent") && $0.contains("GetAll(org.mpris.MediaPlayer2.Player) failed") }
        }, "\(published.log)")
        #expect(published.app("mpris.silent") == nil)

        // A flood of PropertiesChanged: coalesced, its last state published, the good player still followed.
        let before = published.count
        let flood: UInt32 = 3000
        let floodStarted = ContinuousClock.now
        _ = try await provider.connection.call(
            destination: BusName("org.mpris.MediaPlayer2.hostile"), path: "/org/mpris/MediaPlayer2",
            interface: "org.example.Fake", member: "Flood", [.uint32(flood)], timeout: .seconds(120))
        #expect(await eventually {
            published.app("mpris.hostile")?.items.first?.subtitle?.value == "Flood \(flood - 1)"
        }, "the flood's last title: \(published.app("mpris.hostile")?.items.first?.subtitle?.value ?? "none")")
        let publishes = published.count - before
        // The throttle publishes at most once per 75 ms interval, whatever the flood's pace: a
        // sanitizer build takes 30 s over it, a release build under one. Unthrottled, every
        // signal would publish.
        let elapsed = ContinuousClock.now - floodStarted
        let intervals = Int(elapsed / .milliseconds(75))
        #expect(publishes <= intervals + 3 && publishes < Int(flood),
                "\(flood) signals gave \(publishes) publishes in \(elapsed) (\(intervals) intervals)")
        // Each wrong property once in the log, not once per signal.
        #expect(published.log.filter { $0.contains("CanGoNext") }.count == 1, "\(published.log)")

        _ = try await provider.connection.call(
            destination: BusName("org.mpris.MediaPlayer2.good"), path: "/org/mpris/MediaPlayer2",
            interface: "org.example.Fake", member: "SetTitle", [.string("Second Song")])
        #expect(await eventually { published.item("good-player", "pause")?.subtitle?.value == "Good Band — Second Song" })

        // Performs: Pause reaches the player and the items flip; a player's error is carried.
        let pause = try #require(published.item("good-player", "pause"))
        let paused = await provider.perform("good-player", pause)
        #expect(paused == .succeeded("Paused Good Player"))
        #expect(players.output.contains("good Pause"))
        #expect(await eventually { published.itemIDs("good-player") == ["play", "next"] }, "\(published.itemIDs("good-player"))")
        let next = try #require(published.item("good-player", "next"))
        let skipped = await provider.perform("good-player", next)
        #expect(!skipped.success)
        #expect(skipped.message.contains("org.mpris.MediaPlayer2.good.Error.NoTrack"), "\(skipped)")
        #expect(skipped.message.contains("the playlist ended"), "\(skipped)")

        // A property sent as invalidated only is read again.
        _ = try await provider.connection.call(
            destination: BusName("org.mpris.MediaPlayer2.good"), path: "/org/mpris/MediaPlayer2",
            interface: "org.example.Fake", member: "InvalidateStatus", [.string("Playing")])
        #expect(await eventually { published.itemIDs("good-player") == ["pause", "next"] }, "\(published.itemIDs("good-player"))")

        // The players quit: their items go, and an item of theirs fails saying so.
        players.stop()
        #expect(await eventually { published.latest?.isEmpty == true }, "\(published.latest ?? [])")
        let late = await provider.perform("good-player", next)
        #expect(!late.success)
        #expect(late.message.contains("has quit"), "\(late)")
    }
}
