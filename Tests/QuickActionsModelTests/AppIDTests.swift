import Testing
@testable import QuickActionsModel

@Suite struct AppIDTests {
    @Test(arguments: [
        "com.example.music", "org.gnome.Maps", "net.example.my_app-2", "a.b", "1.2.3",
        "com." + String(repeating: "x", count: 251),
    ])
    func acceptsValidIdentifiers(_ value: String) throws {
        #expect(try AppID(value).rawValue == value)
    }

    @Test(arguments: [
        ("", AppIDError.Reason.empty),
        ("music", .tooFewElements),
        ("com..example", .emptyElement(offset: 4)),
        (".com.example", .emptyElement(offset: 0)),
        ("com.example.", .emptyElement(offset: 12)),
        ("com.exa mple", .invalidCharacter(" ", offset: 7)),
        ("com/example.x", .invalidCharacter("/", offset: 3)),
        ("com.exämple", .invalidCharacter("ä", offset: 6)),
        ("com." + String(repeating: "x", count: 252), .tooLong(bytes: 256)),
    ])
    func refusesInvalidIdentifiers(_ value: String, _ reason: AppIDError.Reason) {
        #expect(throws: AppIDError(value: value, reason: reason)) { try AppID(value) }
    }

    @Test func errorNamesTheValueAndTheReason() {
        do {
            _ = try AppID("com..x")
            Issue.record("expected an error")
        } catch {
            #expect(error.description.contains("\"com..x\""))
            #expect(error.description.contains("empty element"))
        }
    }

    @Test func sortsByBytes() throws {
        let ids = try ["org.b.c", "com.z.a", "com.a.z"].map { try AppID($0) }
        #expect(ids.sorted().map(\.rawValue) == ["com.a.z", "com.z.a", "org.b.c"])
    }
}
