import Foundation
import QuickActionsTestSupport
import Testing

/// What a launcher sees of the examples before any plugin runs: static items, localised
/// titles and resolved icons, over a private bus with the real broker.
@Suite struct ListingEndToEndTests {
    static let expected: [(app: String, items: [String], icons: [String])] = [
        (ExampleBroker.contacts, ["SearchAction/static", "ShareAction/static"], ["system-search", "document-send"]),
        (ExampleBroker.favorites, ["browseAction/static"], ["system-search"]),
        (ExampleBroker.music, ["PlayMusic/static"], ["media-playback-start"]),
        (ExampleBroker.stacks,
         ["OpenFavorites", "OpenFeatured", "OpenTopRated"].map { "\(ExampleBroker.stacks).\($0)/static" },
         ["favorites.svg", "featured.svg", "toprated.svg"]),
    ]

    @Test func staticItemsAndResolvedIconsAreListedBeforeAnyPluginLoads() async throws {
        let broker = try await ExampleBroker()
        defer { broker.stop() }
        for (app, summaries, icons) in Self.expected {
            let items = try await broker.items(app)
            #expect(items.map(\.summary) == summaries, "\(app): \(items)")
            for (item, icon) in zip(items, icons) {
                if icon.hasSuffix(".svg") {
                    // A file icon is an absolute path inside the installed bundle.
                    let bundle = broker.examples.bundleURL("Stacks").resolvingSymlinksInPath().path
                    #expect(item.icon == "\(bundle)/Icons/\(icon)", "\(item)")
                    #expect(FileManager.default.fileExists(atPath: item.icon ?? ""))
                } else {
                    #expect(item.icon == icon, "\(item)")
                }
            }
            #expect(try await broker.isLoaded(app) == false, "\(app) was loaded by listing")
        }
        let stacks = try await broker.items(ExampleBroker.stacks)
        #expect(stacks.map { $0.userInfoStrings["version"] } == ["1.2", "1.2", "1.2"])
        let music = try await broker.items(ExampleBroker.music)
        #expect(music.first?.userInfoStrings["playlist"] == "Recently Added")
    }

    static let localized: [(app: String, locale: String, titles: [String], subtitles: [String?])] = [
        (ExampleBroker.stacks, "de_DE.UTF-8", ["Favoriten", "Empfohlen", "Am besten bewertet"],
         ["Was dir gefällt", "Unsere Auswahl für dich", "Was anderen am besten gefällt"]),
        (ExampleBroker.stacks, "en_GB.UTF-8", ["Favorites", "Featured", "Top Rated"],
         ["What you like", "Our picks for you", "What others like most"]),
        (ExampleBroker.contacts, "de_AT", ["Suchen", "Teilen"], ["Nach einem Eintrag suchen", "Einen Eintrag teilen"]),
        (ExampleBroker.music, "de", ["Abspielen"], ["Wiedergabe starten"]),
        (ExampleBroker.favorites, "de_CH.UTF-8", ["Stöbern"], ["Etwas finden, das dir gefällt"]),
    ]

    @Test func titlesFollowTheLocaleOption() async throws {
        let broker = try await ExampleBroker()
        defer { broker.stop() }
        for (app, locale, titles, subtitles) in Self.localized {
            let items = try await broker.items(app, locale: locale)
            #expect(items.map(\.title) == titles, "\(app) in \(locale)")
            #expect(items.map(\.subtitle) == subtitles, "\(app) in \(locale)")
        }
    }
}
