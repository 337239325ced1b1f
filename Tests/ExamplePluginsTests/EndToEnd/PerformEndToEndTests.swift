import Foundation
import QuickActionsTestSupport
import Testing

/// Each example performed through the real broker with busctl: launch versus resume, the
/// completion's message, dynamic items after the plugin sets them and after a broker restart.
@Suite struct PerformEndToEndTests {
    typealias Performed = ExampleBroker.Performed

    @Test func contacts() async throws {
        let broker = try await ExampleBroker()
        defer { broker.stop() }
        let app = ExampleBroker.contacts
        let launched = try await broker.perform(app, "SearchAction")
        #expect(launched == Performed(success: true, message: "SearchAction triggered", activation: "launch"))
        // Loading created the sample contacts and published the favorites.
        let items = try await broker.items(app)
        #expect(items.map(\.summary)
                == ["SearchAction/static", "ShareAction/static", "FavoriteAction/dynamic", "FavoriteAction/dynamic"])
        #expect(items.dropFirst(2).map(\.title) == ["Mia Schneider", "Emma Wagner"])
        #expect(items.dropFirst(2).map(\.subtitle) == ["mia@example.org", "emma@example.org"])
        #expect(items.dropFirst(2).map(\.icon) == ["avatar-default", "avatar-default"])
        #expect(items.last?.userInfoStrings == ["Name": "Emma Wagner"])
        let resumed = try await broker.perform(app, "FavoriteAction")
        #expect(resumed == Performed(success: true, message: "FavoriteAction triggered for Mia Schneider", activation: "resume"))
        // Each favorite is its own item: the second one, by its item-id, is Emma.
        let ids = items.dropFirst(2).map(\.id)
        try #require(ids.count == 2)
        #expect(Set(ids).count == 2 && ids.allSatisfy { $0.hasPrefix("FavoriteAction#") }, "\(ids)")
        let second = try await broker.perform(app, "FavoriteAction", itemID: ids[1])
        #expect(second == Performed(success: true, message: "FavoriteAction triggered for Emma Wagner", activation: "resume"))
        let changed = try await broker.perform(
            app, "ShareAction", arguments: [.string("contact", "Noah Becker"), .bool("favorite", true)])
        #expect(changed == Performed(success: true, message: "ShareAction triggered", activation: "resume"))
        let favorites = ["Mia Schneider", "Noah Becker", "Emma Wagner"]
        #expect(try await broker.items(app).dropFirst(2).map(\.title) == favorites)

        let beforeRestart = try await broker.items(app).dropFirst(2).map(\.id)
        try #require(beforeRestart.count == 3)
        #expect(beforeRestart[0] == ids[0] && beforeRestart[2] == ids[1], "ids changed when a favorite was added")
        try await broker.harness.restart()
        #expect(try await broker.items(app).dropFirst(2).map(\.title) == favorites, "lost across the restart")
        #expect(try await broker.items(app).dropFirst(2).map(\.id) == beforeRestart, "ids changed across the restart")
        #expect(try await broker.isLoaded(app) == false)
        let relaunched = try await broker.perform(app, "FavoriteAction")
        #expect(relaunched == Performed(success: true, message: "FavoriteAction triggered for Mia Schneider", activation: "launch"))
    }

    @Test func stacks() async throws {
        let broker = try await ExampleBroker()
        defer { broker.stop() }
        let app = ExampleBroker.stacks
        let launched = try await broker.perform(app, "\(app).OpenFavorites", locale: "de_DE.UTF-8")
        #expect(launched == Performed(success: true, message: "OpenFavorites handled at launch", activation: "launch"))
        let resumed = try await broker.perform(app, "\(app).OpenTopRated")
        // 2: the launch item was handled once, at launch, not again by perform.
        #expect(resumed == Performed(success: true, message: "OpenTopRated handled, 2 since launch", activation: "resume"))
        // An item the app does not list cannot be performed: the broker answers UnknownItem.
        let unknown = try await broker.harness.call("Perform", "ssa{sv}", [app, "\(app).OpenSettings", "0"])
        #expect(unknown.status != 0)
        #expect(unknown.stderr.contains("no current item of type \"\(app).OpenSettings\""), "\(unknown)")
        try await broker.harness.restart()
        #expect(try await broker.items(app).map(\.origin) == ["static", "static", "static"])
        let relaunched = try await broker.perform(app, "\(app).OpenFeatured")
        #expect(relaunched == Performed(success: true, message: "OpenFeatured handled at launch", activation: "launch"))
    }

    @Test func music() async throws {
        let broker = try await ExampleBroker()
        defer { broker.stop() }
        let app = ExampleBroker.music
        let played = try await broker.perform(app, "PlayMusic", locale: "de_DE.UTF-8")
        #expect(played == Performed(success: true, message: "Abspielen: Recently Added, shuffle on", activation: "launch"))
        #expect(try await broker.items(app).map(\.summary) == ["PlayMusic/static"], "no dynamic items before resigning")

        // Stopping the broker makes the plugin resign while playing: Pause comes first.
        try await broker.harness.restart()
        let afterRestart = try await broker.items(app)
        #expect(afterRestart.map(\.summary) == ["PlayMusic/static", "PauseMusic/dynamic", "AddMusic/dynamic"])
        #expect(afterRestart.map(\.title) == ["Play", "Pause", "Add Track"])
        #expect(afterRestart.map(\.icon) == ["media-playback-start", "media-playback-pause", "list-add"])

        let paused = try await broker.perform(app, "PauseMusic")
        #expect(paused == Performed(success: true, message: "Pause", activation: "launch"))
        #expect(try await broker.items(app).map(\.summary) == ["PlayMusic/static", "SearchMusic/dynamic", "AddMusic/dynamic"])
        let search = try await broker.items(app)[1]
        #expect(search.title == "Search" && search.subtitle == "Find a track to play" && search.icon == "system-search")

        let played2 = try await broker.perform(app, "PlayMusic")
        #expect(played2 == Performed(success: true, message: "Play: Recently Added, shuffle on", activation: "resume"))
        #expect(try await broker.items(app).map(\.summary) == ["PlayMusic/static", "PauseMusic/dynamic", "AddMusic/dynamic"])

        let cleared = try await broker.perform(app, "AddMusic", arguments: [.bool("clear", true)])
        #expect(cleared == Performed(success: true, message: "Add Track (quick actions cleared)", activation: "resume"))
        #expect(try await broker.items(app).map(\.summary) == ["PlayMusic/static"])
    }

    @Test func favorites() async throws {
        let broker = try await ExampleBroker()
        defer { broker.stop() }
        let app = ExampleBroker.favorites
        #expect(try await broker.items(app).map(\.summary) == ["browseAction/static"])
        let added = try await broker.perform(app, "browseAction", arguments: [.string("add", "Tea")])
        #expect(added == Performed(success: true, message: "Browsing; added Tea", activation: "launch"))
        let items = try await broker.items(app, locale: "de_DE")
        #expect(items.map(\.summary) == ["browseAction/static", "favoritesAction/dynamic"])
        #expect(items.last?.icon == "emblem-favorite")
        #expect(items.first?.title == "Stöbern")
        // A dynamic title is the plugin's own, already localised (iOS's localizedTitle).
        #expect(items.last?.title == "Favorites")

        try await broker.harness.restart()
        #expect(try await broker.items(app).map(\.summary) == ["browseAction/static", "favoritesAction/dynamic"])
        let shown = try await broker.perform(app, "favoritesAction")
        #expect(shown == Performed(success: true, message: "Showing 1 favorite: Tea", activation: "launch"))
        let removed = try await broker.perform(app, "favoritesAction", arguments: [.string("remove", "Tea")])
        #expect(removed == Performed(success: true, message: "No favorites; removed Tea", activation: "resume"))
        #expect(try await broker.items(app).map(\.summary) == ["browseAction/static"])
    }
}
