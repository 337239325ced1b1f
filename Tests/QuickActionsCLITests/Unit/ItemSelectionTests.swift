import Testing

@testable import QuickActionsCLI

@Suite("Naming an item on the command line")
struct ItemSelectionTests {
    let items = [
        Item(type: "compose", title: "Compose", origin: "static"),
        Item(type: "show-fav", title: "Ada", origin: "dynamic", id: "show-fav#1"),
        Item(type: "show-fav", title: "Grace", origin: "dynamic", id: "show-fav#2"),
    ]

    /// The message of the error `selection` throws among `items`, or nil if it resolves.
    func failure(_ selection: ItemSelection, app: String = "org.example.mail") -> String? {
        do {
            _ = try selection.resolve(in: items, app: app)
            return nil
        } catch {
            return error.description
        }
    }

    @Test("an id wins over a type, and a type shared by several items asks for an id")
    func resolves() throws {
        #expect(try ItemSelection(item: "compose", id: nil).resolve(in: items, app: "a").title == "Compose")
        #expect(try ItemSelection(item: nil, id: "show-fav#2").resolve(in: items, app: "a").title == "Grace")
        let shared = try #require(failure(ItemSelection(item: "show-fav", id: nil)))
        #expect(shared.contains("'show-fav' is the type of 2 items of app 'org.example.mail'; name one by its id"))
        #expect(shared.contains("show-fav#1  Ada"))
    }

    @Test("what the user typed comes back quoted, cut to a prefix with its length, on one line")
    func boundsWhatTheUserTyped() throws {
        let long = String(repeating: "y", count: 5000)
        let unknownItem = try #require(failure(ItemSelection(item: long, id: nil)))
        #expect(unknownItem.contains("has no current item with id or type 'yyyy"))
        #expect(unknownItem.contains("…' (5000 bytes)"))
        #expect(unknownItem.utf8.count < 300, "\(unknownItem.utf8.count) bytes")

        let unknownID = try #require(failure(ItemSelection(item: nil, id: "fav\nrm -rf ~"), app: String(repeating: "a", count: 900)))
        #expect(unknownID.contains("with id 'fav\\nrm -rf ~'"))
        #expect(unknownID.contains("…' (900 bytes)"))
        #expect(!unknownID.contains("\n"))

        let disagree = try #require(failure(ItemSelection(item: long, id: "show-fav#1")))
        #expect(disagree.contains("the item with id 'show-fav#1' has type 'show-fav', not 'yyyy"))
        #expect(disagree.utf8.count < 300, "\(disagree.utf8.count) bytes")
    }
}
