import Foundation
import QuickActionsHost
import QuickActionsModel
import QuickActionsTestSupport
import Testing

/// The Music example (C) loaded as the broker loads it (no bus).
@Suite struct MusicPluginTests {
    static let search = ShortcutItem(
        type: "SearchMusic", title: "Search", subtitle: "Find a track to play", icon: .type(.search))
    static let add = ShortcutItem(type: "AddMusic", title: "Add Track", subtitle: "Add track to playlist", icon: .type(.add))
    static let pause = ShortcutItem(type: "PauseMusic", title: "Pause", subtitle: "Pause playback", icon: .type(.pause))

    func withMusic(_ body: (PluginSession) async throws -> Void) async throws {
        let examples = try await AssembledExamples(["Music"])
        defer { examples.remove() }
        let session = try PluginSession("Music", from: examples)
        defer { session.remove() }
        try await body(session)
    }

    @Test(arguments: [("en", "Play: Recently Added, shuffle on"), ("de_DE", "Abspielen: Recently Added, shuffle on")])
    func playReportsItsTitleAndUserInfo(_ locale: String, _ message: String) async throws {
        try await withMusic { session in
            let result = await session.outcome(try session.staticItem("PlayMusic", locale: locale), launching: true)
            #expect(result == PerformOutcome(success: true, message: message))
            await session.drain()
            #expect(session.recorder.repeatedCompletions.isEmpty, "the launch item was performed twice")
            #expect(session.recorder.lists.isEmpty, "no dynamic items before the first resign")
        }
    }

    @Test func resigningAddsSearchAndAddTrack() async throws {
        try await withMusic { session in
            await session.willResign()
            #expect(session.recorder.lists == [[Self.search, Self.add]])
            for item in [Self.search, Self.add] {
                let result = await session.outcome(item)
                #expect(result == PerformOutcome(success: true, message: item.title))
            }
        }
    }

    @Test func playbackReplacesTheFirstDynamicItemWithPause() async throws {
        try await withMusic { session in
            await session.willResign()
            _ = await session.outcome(try session.staticItem("PlayMusic"))
            #expect(session.recorder.lists.last == [Self.pause, Self.add])
            let paused = await session.outcome(Self.pause)
            #expect(paused == PerformOutcome(success: true, message: "Pause"))
            #expect(session.recorder.lists.last == [Self.search, Self.add])
            // Resigning while playing keeps Pause first.
            _ = await session.outcome(try session.staticItem("PlayMusic"))
            await session.willResign()
            #expect(session.recorder.lists.last == [Self.pause, Self.add])
        }
    }

    @Test func clearingLeavesAnEmptyListThatPlaybackDoesNotRefill() async throws {
        try await withMusic { session in
            await session.willResign()
            let cleared = await session.outcome(Self.search, arguments: ["clear": .bool(true)])
            #expect(cleared == PerformOutcome(success: true, message: "Search (quick actions cleared)"))
            #expect(session.recorder.lists.last == [])
            let count = session.recorder.lists.count
            _ = await session.outcome(try session.staticItem("PlayMusic"))
            #expect(session.recorder.lists.count == count, "playback set items again: \(session.recorder.lists)")
            await session.willResign()
            #expect(session.recorder.lists.last == [Self.pause, Self.add], "the next resign adds them again")
        }
    }

    @Test func theShownItemsAreRememberedAcrossARestart() async throws {
        let data = try TemporaryDirectory.make(prefix: "qa-example-data")
        defer { try? FileManager.default.removeItem(at: data) }
        let first = try await AssembledExamples(["Music"])
        defer { first.remove() }
        let before = try PluginSession("Music", from: first, dataDirectory: data)
        await before.willResign()
        // A second copy of the library is a fresh process image: not playing, state from the file.
        let second = try await AssembledExamples(["Music"])
        defer { second.remove() }
        let after = try PluginSession("Music", from: second, dataDirectory: data)
        _ = await after.outcome(try after.staticItem("PlayMusic"), launching: true)
        #expect(after.recorder.lists == [[Self.pause, Self.add]])
    }

    @Test(arguments: [
        ("Rewind", [:], "no quick action of type 'Rewind'"),
        ("PlayMusic", ["clear": UserInfoValue.string("yes")], "argument 'clear' must be a boolean"),
    ] as [(String, UserInfo, String)])
    func aBadRequestFailsNamingTheValue(_ type: String, _ arguments: UserInfo, _ message: String) async throws {
        try await withMusic { session in
            let result = await session.outcome(ShortcutItem(type: type, title: type), arguments: arguments)
            #expect(result?.success == false)
            #expect(result?.message?.contains(message) == true, "\(String(describing: result))")
        }
    }
}
