import Foundation
import Glibc
import QuickActionsHost
import QuickActionsModel
import QuickActionsTestSupport
import Testing

/// The Contacts example loaded as the broker loads it (no bus).
@Suite struct ContactsPluginTests {
    static func favorite(_ name: String, _ email: String) -> ShortcutItem {
        ShortcutItem(type: "FavoriteAction", title: name, subtitle: email, icon: .type(.contact), userInfo: ["Name": .string(name)])
    }

    static let mia = favorite("Mia Schneider", "mia@example.org")
    static let noah = favorite("Noah Becker", "noah@example.org")
    static let emma = favorite("Emma Wagner", "emma@example.org")
    static let liam = favorite("Liam Fischer", "liam@example.org")

    /// Runs `body` with Contacts loaded on a fresh data directory.
    func withContacts(_ body: (PluginSession) async throws -> Void) async throws {
        let examples = try await AssembledExamples(["Contacts"])
        defer { examples.remove() }
        let session = try PluginSession("Contacts", from: examples)
        defer { session.remove() }
        try await body(session)
    }

    @Test func aFirstRunWritesSampleContactsAndPublishesTheFavorites() async throws {
        try await withContacts { session in
            let file = session.dataDirectory.appendingPathComponent("contacts.json")
            let json = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any]
            let contacts = try #require(json?["contacts"] as? [[String: Any]])
            #expect(contacts.compactMap { $0["name"] as? String }
                    == ["Mia Schneider", "Noah Becker", "Emma Wagner", "Liam Fischer"])
            #expect(session.recorder.lists == [[Self.mia, Self.emma]])
        }
    }

    @Test(arguments: [
        ("SearchAction", false, "SearchAction triggered"),
        ("ShareAction", false, "ShareAction triggered"),
        ("SearchAction", true, "SearchAction triggered"),
    ])
    func aStaticItemReportsItsType(_ type: String, _ launching: Bool, _ message: String) async throws {
        try await withContacts { session in
            let result = await session.outcome(try session.staticItem(type), launching: launching)
            #expect(result == PerformOutcome(success: true, message: message))
            await session.drain()
            #expect(session.recorder.repeatedCompletions.isEmpty, "the launch item was processed twice")
        }
    }

    @Test(arguments: [false, true])
    func aFavoriteReportsTheContactsName(_ launching: Bool) async throws {
        try await withContacts { session in
            let item = try session.dynamicItem("FavoriteAction", title: "Emma Wagner")
            let result = await session.outcome(item, launching: launching)
            #expect(result == PerformOutcome(success: true, message: "FavoriteAction triggered for Emma Wagner"))
            await session.drain()
            #expect(session.recorder.repeatedCompletions.isEmpty)
        }
    }

    @Test func callerArgumentsChangeFavoritesAndTheDynamicItemsFollow() async throws {
        try await withContacts { session in
            let added = await session.outcome(
                try session.staticItem("SearchAction"),
                arguments: ["contact": .string("Noah Becker"), "favorite": .bool(true)])
            #expect(added == PerformOutcome(success: true, message: "SearchAction triggered"))
            #expect(session.recorder.lists.last == [Self.mia, Self.noah, Self.emma])
            // Unfavoriting through the favorite's own item: the contact comes from its user info.
            let mia = try session.dynamicItem("FavoriteAction", title: "Mia Schneider")
            let removed = await session.outcome(mia, arguments: ["favorite": .bool(false)])
            #expect(removed == PerformOutcome(success: true, message: "FavoriteAction triggered for Mia Schneider"))
            #expect(session.recorder.lists.last == [Self.noah, Self.emma])
            #expect(try favoritesOnDisk(session) == ["Noah Becker", "Emma Wagner"])
        }
    }

    /// The names marked favorite in the plugin's contacts file.
    func favoritesOnDisk(_ session: PluginSession) throws -> [String] {
        let file = session.dataDirectory.appendingPathComponent("contacts.json")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any]
        let contacts = json?["contacts"] as? [[String: Any]] ?? []
        return contacts.filter { $0["favorite"] as? Bool == true }.compactMap { $0["name"] as? String }
    }

    @Test(arguments: [
        (["contact": UserInfoValue.string("Nobody"), "favorite": .bool(true)], "no contact is named 'Nobody'"),
        (["favorite": .string("yes")], "argument 'favorite' must be a boolean"),
        (["favorite": .bool(true)], "argument 'contact' is needed"),
        (["contact": .int(3), "favorite": .bool(true)], "argument 'contact' must be a string"),
    ])
    func aBadChangeFailsAndChangesNothing(_ arguments: UserInfo, _ message: String) async throws {
        try await withContacts { session in
            let result = await session.outcome(try session.staticItem("ShareAction"), arguments: arguments)
            #expect(result?.success == false)
            #expect(result?.message?.contains(message) == true, "\(String(describing: result))")
            #expect(session.recorder.lists == [[Self.mia, Self.emma]])
            #expect(try favoritesOnDisk(session) == ["Mia Schneider", "Emma Wagner"])
        }
    }

    @Test func anUnknownTypeFailsNamingIt() async throws {
        try await withContacts { session in
            let result = await session.outcome(ShortcutItem(type: "CallAction", title: "Call"))
            #expect(result?.success == false)
            #expect(result?.message?.contains("no quick action of type 'CallAction'") == true)
        }
    }

    @Test func anEditOfTheContactsFileRepublishesTheFavorites() async throws {
        try await withContacts { session in
            let edited = """
                {"version": 1, "contacts": [
                  {"name": "Liam Fischer", "email": "liam@example.org", "favorite": true},
                  {"name": "Mia Schneider", "email": "mia@example.org", "favorite": false}
                ]}
                """
            // Written the way an editor saves: a new file renamed over the old one.
            try Data(edited.utf8).write(to: session.dataDirectory.appendingPathComponent("contacts.json"), options: .atomic)
            let seen = await eventually { session.recorder.lists.last == [Self.liam] }
            #expect(seen, "lists: \(session.recorder.lists)")
            let result = await session.outcome(try session.dynamicItem("FavoriteAction"))
            #expect(result?.message == "FavoriteAction triggered for Liam Fischer")
        }
    }

    /// Issue 13: the file watcher's reading never replaces what a perform changed. Every perform
    /// writes the file (the watcher then reloads it while the next perform runs), and a thread
    /// keeps provoking more reloads (open for writing, close, no byte changed). A reading that
    /// lands after a perform's write would undo that change in memory, so a later perform would
    /// write it away and the favorites on disk would end wrong. No timing: the check is the end
    /// state, which a correct plugin always reaches.
    @Test func aReloadRacingPerformsNeverUndoesTheirChanges() async throws {
        try await withContacts { session in
            let file = session.dataDirectory.appendingPathComponent("contacts.json")
            let stop = Locked(false)
            let provoker = Thread {
                while !stop.withLock({ $0 }) {
                    let fd = open(file.path, O_WRONLY | O_CLOEXEC)
                    if fd >= 0 { close(fd) }
                }
            }
            provoker.start()
            defer { stop.withLock { $0 = true } }
            var favorite = ["Mia Schneider": true, "Noah Becker": false, "Emma Wagner": true, "Liam Fischer": false]
            let order = ["Mia Schneider", "Noah Becker", "Emma Wagner", "Liam Fischer"]
            let search = try session.staticItem("SearchAction")
            for round in 0..<600 {
                let name = order[round % order.count]
                let value = !(favorite[name] ?? false)
                let result = await session.outcome(search, arguments: ["contact": .string(name), "favorite": .bool(value)])
                #expect(result?.success == true, "round \(round): \(String(describing: result))")
                favorite[name] = value
            }
            stop.withLock { $0 = true }
            let expected = order.filter { favorite[$0] == true }
            #expect(try favoritesOnDisk(session) == expected)
            let published = await eventually { session.recorder.lists.last?.map(\.title) == expected }
            #expect(published, "last list \(String(describing: session.recorder.lists.last?.map(\.title))), expected \(expected)")
        }
    }

    @Test func willResignPublishesTheFavoritesAgain() async throws {
        try await withContacts { session in
            await session.willResign()
            #expect(session.recorder.lists == [[Self.mia, Self.emma], [Self.mia, Self.emma]])
        }
    }

    @Test func aContactsFileItCannotReadFailsTheLoadNamingTheFile() async throws {
        let examples = try await AssembledExamples(["Contacts"])
        defer { examples.remove() }
        let data = try TemporaryDirectory.make(prefix: "qa-example-data")
        defer { try? FileManager.default.removeItem(at: data) }
        let file = data.appendingPathComponent("contacts.json")
        try Data("not json".utf8).write(to: file)
        #expect {
            _ = try PluginSession("Contacts", from: examples, dataDirectory: data)
        } throws: { error in
            guard let error = error as? PluginLoadError, case .initFailed(_, let message) = error else { return false }
            return message.contains("cannot read the contacts file \(file.path)")
        }
    }
}
