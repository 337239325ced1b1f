@testable import QuickActionsSearch
import Testing

/// The startup ids the bridges pass on with a Perform they were given a timestamp for.
@Suite struct StartupIDTests {
    @Test func anIDCarriesTheTimestampAsGLibWritesIt() throws {
        let id = try #require(StartupID.make(app: "org.gnome.TextEditor", timestamp: 123_456))
        #expect(id.hasPrefix("quickactions-"))
        #expect(id.hasSuffix("_TIME123456"))
        #expect(id.contains("-org.gnome.TextEditor-"))
        #expect(!id.contains(" "))
        #expect(StartupID.make(app: "org.gnome.TextEditor", timestamp: 123_456) != id, "each launch its own")
    }

    @Test func noTimestampNoID() {
        #expect(StartupID.make(app: "org.gnome.TextEditor", timestamp: 0) == nil)
    }

    @Test func anAppIDIsOneBoundedWord() throws {
        let id = try #require(StartupID.make(app: "a b/c\u{1F600}" + String(repeating: "x", count: 500), timestamp: 1))
        #expect(!id.contains(" ") && !id.contains("/") && id.unicodeScalars.allSatisfy(\.isASCII))
        #expect(id.utf8.count < 400)
    }
}
