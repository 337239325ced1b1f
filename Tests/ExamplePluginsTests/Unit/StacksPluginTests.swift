import Foundation
import QuickActionsHost
import QuickActionsModel
import QuickActionsTestSupport
import Testing

/// The Stacks example loaded as the broker loads it (no bus).
@Suite struct StacksPluginTests {
    static let prefix = "com.example.stacks."

    func withStacks(_ body: (PluginSession) async throws -> Void) async throws {
        let examples = try await AssembledExamples(["Stacks"])
        defer { examples.remove() }
        let session = try PluginSession("Stacks", from: examples)
        defer { session.remove() }
        try await body(session)
    }

    @Test func aLaunchItemIsHandledAtLaunchAndNeverAgain() async throws {
        try await withStacks { session in
            let launched = await session.outcome(try session.staticItem(Self.prefix + "OpenFavorites"), launching: true)
            #expect(launched == PerformOutcome(success: true, message: "OpenFavorites handled at launch"))
            // Had perform handled the launch item too, this would be the third.
            let resumed = await session.outcome(try session.staticItem(Self.prefix + "OpenTopRated"))
            #expect(resumed == PerformOutcome(success: true, message: "OpenTopRated handled, 2 since launch"))
            #expect(session.recorder.repeatedCompletions.isEmpty)
        }
    }

    @Test(arguments: ["OpenFavorites", "OpenFeatured", "OpenTopRated"])
    func everyStaticItemSelectsItsTab(_ identifier: String) async throws {
        try await withStacks { session in
            // Localised titles reach the plugin; the full type is what it maps.
            let result = await session.outcome(try session.staticItem(Self.prefix + identifier, locale: "de_DE"))
            #expect(result == PerformOutcome(success: true, message: "\(identifier) handled, 1 since launch"))
        }
    }

    @Test(arguments: [
        ("com.example.stacks.OpenSettings", false),
        ("com.example.stacks.OpenSettings", true),
        ("com.example.other.OpenFavorites", false),
        ("OpenFavorites", true),
        ("com.example.stacksOpenFavorites", false),
    ])
    func anUnknownTypeFailsCleanly(_ type: String, _ launching: Bool) async throws {
        try await withStacks { session in
            let item = ShortcutItem(type: type, title: "Tab", userInfo: ["version": .string("1.2")])
            let result = await session.outcome(item, launching: launching)
            #expect(result?.success == false)
            #expect(result?.message?.contains("no quick action of type '\(type)'") == true, "\(String(describing: result))")
            #expect(result?.message?.contains(Self.prefix + "OpenTopRated") == true, "the known types are listed")
            await session.drain()
            #expect(session.recorder.repeatedCompletions.isEmpty)
            // Nothing was handled: the next item is the first.
            let next = await session.outcome(try session.staticItem(Self.prefix + "OpenFeatured"))
            #expect(next?.message == "OpenFeatured handled, 1 since launch")
        }
    }

    @Test(arguments: [
        (["version": UserInfoValue.string("1.1")], "declared by Stacks 1.1, this is Stacks 1.2"),
        ([:], "has no user-info 'version'"),
        (["version": .int(12)], "user-info 'version' that is not a string"),
    ])
    func anItemOfAnotherVersionIsRefused(_ userInfo: UserInfo, _ message: String) async throws {
        try await withStacks { session in
            var item = try session.staticItem(Self.prefix + "OpenFavorites")
            item.userInfo = userInfo
            let result = await session.outcome(item)
            #expect(result?.success == false)
            #expect(result?.message?.contains(message) == true, "\(String(describing: result))")
        }
    }

    @Test func itSetsNoDynamicItems() async throws {
        try await withStacks { session in
            _ = await session.outcome(try session.staticItem(Self.prefix + "OpenFeatured"), launching: true)
            await session.willResign()
            #expect(session.recorder.lists.isEmpty)
        }
    }
}
