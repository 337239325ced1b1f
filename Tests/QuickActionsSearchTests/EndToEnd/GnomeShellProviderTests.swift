import Foundation
import QuickActionsTestSupport
import Testing

/// org.gnome.Shell.SearchProvider2 on a private bus, driven by gdbus and python3's dbus as
/// gnome-shell drives it, against gnome-shell's own interface file.
@Suite struct GnomeShellProviderTests {
    static let interface = "org.gnome.Shell.SearchProvider2"

    @Test func introspectionHasGnomeShellsInterfaceExactly() async throws {
        let broker = try await SearchBroker()
        defer { broker.stop() }
        try await broker.waitForSearch()
        let live = try await Command.run("gdbus", ["introspect", "--address", broker.harness.bus.address, "--dest",
                                                   SearchBroker.search, "--object-path", SearchBroker.gnomeShellPath, "--xml"])
        #expect(live.status == 0, "\(live)")
        let official = try String(contentsOf: try await OfficialInterfaces.gnomeShellSearchProvider2, encoding: .utf8)
        let expected = try InterfaceMembers.of(Self.interface, inXML: official)
        #expect(expected.count == 5)
        #expect(try InterfaceMembers.of(Self.interface, inXML: live.stdout) == expected)
    }

    @Test func gdbusFindsAndActivatesTheSecondFavorite() async throws {
        let broker = try await SearchBroker()
        defer { broker.stop() }
        try await broker.loadContacts()
        try await broker.waitForSearch()
        let emma = try await broker.resultID(ofTitle: "Emma Wagner")
        let method = "\(Self.interface)."
        let found = try await broker.gdbus(["--object-path", SearchBroker.gnomeShellPath,
                                            "--method", method + "GetInitialResultSet", "['wag']"])
        #expect(found.stdout == "(['\(emma)'],)\n", "\(found)")
        let metas = try await broker.gdbus(["--object-path", SearchBroker.gnomeShellPath,
                                            "--method", method + "GetResultMetas", "['\(emma)']"])
        #expect(metas.stdout.contains("'name': <'Emma Wagner'>") && metas.stdout.contains("'description': <'Contacts — emma@example.org'>"),
                "\(metas)")
        #expect(metas.stdout.contains("'icon': <('themed', <['avatar-default']>)>"), "\(metas)")
        #expect(try await broker.usedTitles() == ["Search"], "only the load's SearchAction was used so far")
        let activated = try await broker.gdbus(["--object-path", SearchBroker.gnomeShellPath,
                                                "--method", method + "ActivateResult", emma, "['wag']", "0"])
        #expect(activated.status == 0 && activated.stdout == "()\n", "\(activated)")
        // The broker counted a successful Perform of exactly that item (by its id), nothing else.
        #expect(try await broker.usedTitles() == ["Emma Wagner", "Search"])

        let unknown = try await broker.gdbus(["--object-path", SearchBroker.gnomeShellPath,
                                              "--method", method + "ActivateResult", "com.example.contacts/nobody", "[]", "0"])
        #expect(unknown.status != 0 && unknown.stderr.contains("UnknownItem") && unknown.stderr.contains("nobody"), "\(unknown)")
        let junk = try await broker.gdbus(["--object-path", SearchBroker.gnomeShellPath,
                                           "--method", method + "ActivateResult", "no-slash", "[]", "0"])
        #expect(junk.status != 0 && junk.stderr.contains("InvalidArgs") && junk.stderr.contains("no-slash"), "\(junk)")
    }

    @Test func pythonDbusSearchesMetasDeserialiseAndActivate() async throws {
        let broker = try await SearchBroker()
        defer { broker.stop() }
        try await broker.loadContacts()
        try await broker.waitForSearch()
        let result = try await broker.python("gnome_shell_client.py", ["example.org"])
        #expect(result.status == 0, "\(result)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let mia = try await broker.resultID(ofTitle: "Mia Schneider")
        let emma = try await broker.resultID(ofTitle: "Emma Wagner")
        #expect(json["initial"] as? [String] == [mia, emma], "both favorites' subtitles match, in display order: \(json)")
        #expect(json["subsearch_none"] as? [String] == [])
        #expect(json["subsearch"] as? [String] == [mia, emma])
        let metas = (json["metas"] as? [[String: Any]]) ?? []
        #expect(metas.map { $0["id"] as? String } == [mia, emma], "unknown ids get no meta: \(metas)")
        #expect(metas.allSatisfy { $0["icon"] as? String == "avatar-default" }, "Gio.Icon.deserialize read every icon: \(metas)")

        let activated = try await broker.python("gnome_shell_client.py", ["--activate", emma])
        #expect(activated.status == 0, "\(activated)")
        #expect(try await broker.usedTitles() == ["Emma Wagner", "Search"])
        // Once used, Emma ranks first for a query both match equally.
        let again = try await broker.python("gnome_shell_client.py", ["example.org"])
        let ranked = try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any]
        #expect(ranked?["initial"] as? [String] == [emma, mia], "\(again)")
    }

    @Test func fileIconsAndAppIconsDeserialiseToo() async throws {
        // The favorites example lists items with file icons from its bundle and icon names.
        let broker = try await SearchBroker(examples: ["Favorites", "Stacks", "Music"])
        defer { broker.stop() }
        try await broker.waitForSearch()
        let result = try await broker.python("gnome_shell_client.py", ["a"])
        #expect(result.status == 0, "\(result)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let metas = (json["metas"] as? [[String: Any]]) ?? []
        #expect(!metas.isEmpty)
        #expect(metas.contains { ($0["icon"] as? String)?.hasSuffix(".svg") == true }, "a file icon from a bundle: \(metas)")
        for meta in metas where meta.keys.contains("icon") {
            #expect(meta["icon"] is String, "Gio.Icon.deserialize failed on the icon of \(meta)")
        }
    }
}
