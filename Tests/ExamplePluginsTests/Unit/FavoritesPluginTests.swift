import Foundation
import QuickActionsHost
import QuickActionsModel
import QuickActionsTestSupport
import Testing

/// The Favorites example loaded as the broker loads it (no bus).
@Suite struct FavoritesPluginTests {
    static let favorites = ShortcutItem(type: "favoritesAction", title: "Favorites", icon: .symbol("heart"))

    func withFavorites(_ body: (PluginSession) async throws -> Void) async throws {
        let examples = try await AssembledExamples(["Favorites"])
        defer { examples.remove() }
        let session = try PluginSession("Favorites", from: examples)
        defer { session.remove() }
        try await body(session)
    }

    @Test func withoutFavoritesTheDynamicListIsEmpty() async throws {
        try await withFavorites { session in
            #expect(session.recorder.lists == [[]])
            let browse = await session.outcome(try session.staticItem("browseAction"), launching: true)
            #expect(browse == PerformOutcome(success: true, message: "Browsing"))
            await session.willResign()
            #expect(session.recorder.lists == [[], []])
        }
    }

    @Test func addingAFavoriteShowsTheFavoritesItemOnce() async throws {
        try await withFavorites { session in
            let added = await session.outcome(try session.staticItem("browseAction"), arguments: ["add": .string("Tea")],
                                              launching: true)
            #expect(added == PerformOutcome(success: true, message: "Browsing; added Tea"))
            await session.drain()
            // Handled at launch only: a second handling would have completed again.
            #expect(session.recorder.repeatedCompletions.isEmpty)
            #expect(session.recorder.lists == [[], [Self.favorites]])
            let again = await session.outcome(Self.favorites, arguments: ["add": .string("Coffee")])
            #expect(again == PerformOutcome(success: true, message: "Showing 2 favorites: Tea, Coffee; added Coffee"))
            #expect(session.recorder.lists.last == [Self.favorites])
        }
    }

    @Test func removingTheLastFavoriteEmptiesTheList() async throws {
        try await withFavorites { session in
            _ = await session.outcome(try session.staticItem("browseAction"), arguments: ["add": .string("Tea")])
            let removed = await session.outcome(Self.favorites, arguments: ["remove": .string("Tea")])
            #expect(removed == PerformOutcome(success: true, message: "No favorites; removed Tea"))
            #expect(session.recorder.lists == [[], [Self.favorites], []])
        }
    }

    @Test func clearRemovesEveryFavorite() async throws {
        try await withFavorites { session in
            let browse = try session.staticItem("browseAction")
            _ = await session.outcome(browse, arguments: ["add": .string("Tea")])
            _ = await session.outcome(browse, arguments: ["add": .string("Tea")])
            _ = await session.outcome(browse, arguments: ["add": .string("Coffee")])
            let cleared = await session.outcome(Self.favorites, arguments: ["clear": .bool(true)])
            #expect(cleared == PerformOutcome(success: true, message: "No favorites; cleared 2 favorites"))
            #expect(session.recorder.lists.last == [])
        }
    }

    @Test func favoritesAreKeptAcrossARestart() async throws {
        let data = try TemporaryDirectory.make(prefix: "qa-example-data")
        defer { try? FileManager.default.removeItem(at: data) }
        let first = try await AssembledExamples(["Favorites"])
        defer { first.remove() }
        let before = try PluginSession("Favorites", from: first, dataDirectory: data)
        _ = await before.outcome(try before.staticItem("browseAction"), arguments: ["add": .string("Tea")])
        let second = try await AssembledExamples(["Favorites"])
        defer { second.remove() }
        let after = try PluginSession("Favorites", from: second, dataDirectory: data)
        #expect(after.recorder.lists == [[Self.favorites]])
        let shown = await after.outcome(Self.favorites, launching: true)
        #expect(shown?.message == "Showing 1 favorite: Tea")
    }

    @Test(arguments: [
        ("browseAction", ["remove": UserInfoValue.string("Tea")], "'Tea' is not a favorite"),
        ("browseAction", ["add": .string("")], "argument 'add' must be a non-empty string"),
        ("browseAction", ["clear": .int(1)], "argument 'clear' must be a boolean"),
        ("settingsAction", [:], "no quick action of type 'settingsAction'"),
    ] as [(String, UserInfo, String)])
    func aBadRequestFailsAndChangesNothing(_ type: String, _ arguments: UserInfo, _ message: String) async throws {
        try await withFavorites { session in
            let result = await session.outcome(ShortcutItem(type: type, title: type), arguments: arguments)
            #expect(result?.success == false)
            #expect(result?.message?.contains(message) == true, "\(String(describing: result))")
            #expect(session.recorder.lists == [[]])
        }
    }
}
