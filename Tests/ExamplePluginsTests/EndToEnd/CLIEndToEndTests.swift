import Foundation
import QuickActionsTestSupport
import Testing

/// The examples through the launcher CLI, as a person at a terminal (or a
/// launcher's script) would use them: `quickactions invoke` shows the
/// completion's message, `quickactions list` the localised items.
@Suite struct CLIEndToEndTests {
    struct Invocation: Sendable, CustomTestStringConvertible {
        let app: String
        let type: String
        let arguments: [String]
        let message: String
        var testDescription: String { "\(app) \(type)" }
    }

    static let invocations: [Invocation] = [
        Invocation(app: ExampleBroker.contacts, type: "SearchAction", arguments: [], message: "SearchAction triggered"),
        Invocation(app: ExampleBroker.stacks, type: "com.example.stacks.OpenFeatured", arguments: [],
                   message: "OpenFeatured handled at launch"),
        Invocation(app: ExampleBroker.music, type: "PlayMusic", arguments: [],
                   message: "Play: Recently Added, shuffle on"),
        Invocation(app: ExampleBroker.favorites, type: "browseAction", arguments: ["--arg", "add=Tea"],
                   message: "Browsing; added Tea"),
    ]

    func quickactions(_ broker: ExampleBroker, _ arguments: [String]) async throws -> CommandResult {
        try await Command.run(PackagePaths.executable("quickactions").path,
                              arguments + ["--address", broker.harness.bus.address], timeout: .seconds(60))
    }

    @Test(arguments: invocations)
    func invokePrintsTheCompletionMessage(_ invocation: Invocation) async throws {
        let broker = try await ExampleBroker()
        defer { broker.stop() }
        let result = try await quickactions(broker, ["invoke", invocation.app, invocation.type, "--json"] + invocation.arguments)
        #expect(result.status == 0, "\(result)")
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        #expect(json?["app-id"] as? String == invocation.app)
        #expect(json?["type"] as? String == invocation.type)
        #expect(json?["success"] as? Bool == true)
        let outcome = json?["result"] as? [String: Any]
        #expect(outcome?["activation"] as? String == "launch")
        #expect(outcome?["message"] as? String == invocation.message)
        // The plain form prints the message, and the plugin is warm now.
        let plain = try await quickactions(broker, ["invoke", invocation.app, invocation.type] + invocation.arguments)
        #expect(plain.status == 0, "\(plain)")
        #expect(!plain.stdout.isEmpty)
        #expect(try await broker.isLoaded(invocation.app))
    }

    @Test func listShowsLocalisedItemsOfEveryExample() async throws {
        let broker = try await ExampleBroker()
        defer { broker.stop() }
        let result = try await quickactions(broker, ["list", "--json", "--locale", "de_DE.UTF-8"])
        #expect(result.status == 0, "\(result)")
        let groups = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] ?? []
        #expect(groups.compactMap { $0["app-id"] as? String }
                == [ExampleBroker.contacts, ExampleBroker.favorites, ExampleBroker.music, ExampleBroker.stacks])
        let stacks = groups.last?["items"] as? [[String: Any]] ?? []
        let titles = stacks.compactMap { ($0["title"] as? [String: Any])?["data"] as? String ?? $0["title"] as? String }
        let english = try await broker.items(ExampleBroker.stacks).map(\.title)
        #expect(titles.count == 3)
        #expect(titles != english, "German titles differ from the English ones: \(titles)")
    }
}
