import DBus
import Foundation
import QuickActionsTestSupport
import Testing

/// Items named by id through the CLI: invoke, --id, list, pick and completion offer every item,
/// several of one type included, and perform exactly the one named.
@Suite("item ids, end to end")
struct ItemIdCommandTests {
    static let app = TestBundle(
        appID: "org.example.ids", library: "QATestSwiftPlugin", name: "Ids",
        items: [TestBundle.item("publish", "Publish"), TestBundle.item("show-static", "Static")])

    /// A broker whose app has published three `show-fav` items that differ only in user info.
    static func harnessWithFavorites() async throws -> (BrokerHarness, [(id: String, title: String)]) {
        let harness = try await BrokerHarness(bundles: [Self.app])
        let items = ["Ada", "Bob", "Cy"].map { name in
            "{'type': <'show-fav'>, 'title': <'\(name)'>, 'user-info': <{'Name': <'\(name)'>}>}"
        }
        let published = try await Command.run("gdbus", [
            "call", "--address", harness.bus.address, "--dest", "org.quickactions.Broker1",
            "--object-path", "/org/quickactions/Broker1", "--method", "org.quickactions.Broker1.Perform",
            "org.example.ids", "publish", "{'arguments': <{'items': <[\(items.map { "<\($0)>" }.joined(separator: ", "))]>}>}",
        ], timeout: .seconds(30))
        guard published.status == 0, published.stdout.contains("set 3 items") else {
            throw TestSupportError("publishing failed: \(published)")
        }
        let listed = try #require(try CLIProcess.json(try await CLIProcess.run(
            ["list", "org.example.ids", "--json"], harness)) as? [[String: Any]])
        let favorites = (listed.first?["items"] as? [[String: Any]] ?? []).compactMap { item -> (String, String)? in
            guard item["type"] as? String == "show-fav", let id = item["id"] as? String,
                  let title = item["title"] as? String else { return nil }
            return (id, title)
        }
        return (harness, favorites.map { (id: $0.0, title: $0.1) })
    }

    @Test("list --json carries every item's id; invoke by that id performs exactly that item")
    func invokeByID() async throws {
        let (harness, favorites) = try await Self.harnessWithFavorites()
        try #require(favorites.count == 3)
        #expect(favorites.map(\.title) == ["Ada", "Bob", "Cy"])
        #expect(Set(favorites.map(\.id)).count == 3)
        let bob = favorites[1]
        let positional = try await CLIProcess.run(["invoke", "org.example.ids", bob.id], harness)
        #expect(positional.status == 0, "\(positional)")
        #expect(positional.stdout == "performed \(bob.id) Bob Name=Bob\n")
        let option = try await CLIProcess.run(["invoke", "org.example.ids", "--id", favorites[2].id, "--json"], harness)
        #expect(option.status == 0, "\(option)")
        let reply = try #require(try CLIProcess.json(option) as? [String: Any])
        #expect(reply["id"] as? String == favorites[2].id)
        #expect((reply["result"] as? [String: Any])?["message"] as? String == "performed \(favorites[2].id) Cy Name=Cy")
        // A type that is one item's (and its id, for a static item) still works.
        let byType = try await CLIProcess.run(["invoke", "org.example.ids", "show-static"], harness)
        #expect(byType.stdout == "performed show-static Static \n", "\(byType)")
    }

    @Test("a type shared by several items is refused (exit 2) listing their ids and titles")
    func ambiguousType() async throws {
        let (harness, favorites) = try await Self.harnessWithFavorites()
        let result = try await CLIProcess.run(["invoke", "org.example.ids", "show-fav"], harness)
        #expect(result.status == 2, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("'show-fav' is the type of 3 items of app 'org.example.ids'; name one by its id"))
        for favorite in favorites {
            #expect(result.stderr.contains("\(favorite.id)  \(favorite.title)"), "\(result.stderr)")
        }
    }

    @Test("an id that is not current exits 3; ITEM and --id that disagree exit 2")
    func unknownAndConflicting() async throws {
        let (harness, favorites) = try await Self.harnessWithFavorites()
        let stale = try await CLIProcess.run(["invoke", "org.example.ids", "--id", "show-fav#0000000000000000"], harness)
        #expect(stale.status == 3, "\(stale)")
        #expect(stale.stderr.contains("has no current item with id 'show-fav#0000000000000000'"))
        let conflicting = try await CLIProcess.run(
            ["invoke", "org.example.ids", "show-static", "--id", favorites.first?.id ?? "-"], harness)
        #expect(conflicting.status == 2, "\(conflicting)")
        #expect(conflicting.stderr.contains("has type 'show-fav', not 'show-static'"))
    }

    @Test("pick offers every favorite and performs the one chosen, by id")
    func pickEveryItem() async throws {
        let (harness, favorites) = try await Self.harnessWithFavorites()
        let offered = harness.directory.appendingPathComponent("offered.txt")
        let result = try await CLIProcess.run(["pick", "--picker", "tee '\(offered.path)' | grep -F 'Ids: Bob'"], harness)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "performed \(favorites[1].id) Bob Name=Bob\n")
        let lines = try String(contentsOf: offered, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines == ["Ids: Publish", "Ids: Static", "Ids: Ada", "Ids: Bob", "Ids: Cy"])
    }

    @Test("pick APP_ID offers only that app's items")
    func pickOneApp() async throws {
        let (harness, favorites) = try await Self.harnessWithFavorites()
        let offered = harness.directory.appendingPathComponent("offered-one.txt")
        let result = try await CLIProcess.run(
            ["pick", "org.example.ids", "--picker", "tee '\(offered.path)' | grep -F 'Ids: Cy'"], harness)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "performed \(favorites[2].id) Cy Name=Cy\n")
        let unknown = try await CLIProcess.run(["pick", "org.example.nosuch", "--picker", "cat"], harness)
        #expect(unknown.status == 3, "\(unknown)")
    }

    @Test("completion offers item ids")
    func completion() async throws {
        let (harness, favorites) = try await Self.harnessWithFavorites()
        let result = try await CLIProcess.run(["__complete", "items", "org.example.ids"], harness)
        #expect(result.stdout.split(separator: "\n").map(String.init) == ["publish", "show-static"] + favorites.map(\.id))
    }
}
