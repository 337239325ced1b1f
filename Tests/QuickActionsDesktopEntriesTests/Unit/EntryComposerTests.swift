import Foundation
import QuickActionsDesktopEntries
import QuickActionsTestSupport
import Testing

/// What the composer builds, judged by desktop-file-validate and by GLib reading the file.
@Suite struct EntryComposerTests {
    static let app = "com.example.contacts"
    // GLib reads an entry only when its main program exists.
    static let composer = EntryComposer(command: "/bin/true")

    static let hostileTitles = [
        "Line one\nline two",
        "[Desktop Action x]",
        "Exec=rm -rf ~",
        "x\n[Desktop Action evil]\nName=Evil\nExec=sh -c 'touch /tmp/pwned'",
        "\"double\" and 'single' quotes",
        "$(touch /tmp/pwned)",
        "`touch /tmp/pwned`",
        "%f %u %U %%",
        "semi;colon;",
        "back\\slash \\n not a newline",
        "  spaces around  ",
        "tab\tand\rreturn",
        "Grüße aus Köln ✓",
    ]

    static func items(_ titles: [String]) -> [ActionItem] {
        titles.enumerated().map { index, title in
            ActionItem(
                itemID: "id \(index) $(x) %f;\"'`", type: "Hostile Type;\(index)", title: title,
                localizedTitles: [("de", "DE " + title)], icon: index % 2 == 0 ? "avatar-default" : "/opt/my icons/a b.png")
        }
    }

    @Test func hostileTitlesStayTitlesAndIDsStayArguments() async throws {
        let folder = try TemporaryDirectory.make(prefix: "qa-compose")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (file, skipped) = Self.composer.generated(app: Self.app, name: "Contacts", icon: "x-office-address-book", items: Self.items(Self.hostileTitles))
        #expect(skipped.isEmpty)
        let path = folder.appendingPathComponent("\(Self.app).desktop").path
        try GeneratedMark.marked(file, app: Self.app).write(toFile: path, atomically: true, encoding: .utf8)
        try await EntryTools.expectValid(path)

        let env = EntryTools.environment(home: folder.path, dirs: [folder.path])
        let info = try await EntryTools.info(["file", path], environment: env)
        #expect(info.actions?.map(\.name) == Self.hostileTitles)
        #expect(info.actions?.map(\.id) == (1...Self.hostileTitles.count).map { "quickactions-\($0)" })
        let german = try await EntryTools.info(
            ["file", path], environment: EntryTools.environment(home: folder.path, dirs: [folder.path], language: "de"))
        #expect(german.actions?.map(\.name) == Self.hostileTitles.map { "DE " + $0 })

        // Each Exec reads back (as GLib's launcher parses it) as exactly the item's arguments.
        let reread = try DesktopEntryParser.parse(try String(contentsOfFile: path, encoding: .utf8))
        for (index, item) in Self.items(Self.hostileTitles).enumerated() {
            let group = try #require(reread.group("Desktop Action quickactions-\(index + 1)"))
            let exec = try #require(group.value("Exec"))
            #expect(try ExecCommandLine.parse(exec) == Self.composer.invocation(app: Self.app, item: item))
        }
        let argv = try await Self.glibArguments(path, action: "quickactions-1")
        #expect(argv == Self.composer.invocation(app: Self.app, item: Self.items(Self.hostileTitles)[0]))
    }

    /// The action's Exec as GLib turns it into argv: GKeyFile's string, `%%` expanded, then
    /// g_shell_parse_argv (what g_desktop_app_info_launch_action does).
    static func glibArguments(_ path: String, action: String) async throws -> [String] {
        let code = """
            import json, sys
            from gi.repository import GLib
            kf = GLib.KeyFile()
            kf.load_from_file(sys.argv[1], GLib.KeyFileFlags.NONE)
            line = kf.get_string("Desktop Action " + sys.argv[2], "Exec").replace("%%", "%")
            print(json.dumps(GLib.shell_parse_argv(line)[1]))
            """
        let result = try await Command.run("/usr/bin/python3", ["-c", code, path, action])
        guard result.status == 0 else { throw TestSupportError("GLib read failed: \(result)") }
        return try JSONDecoder().decode([String].self, from: Data(result.stdout.utf8))
    }

    static let original = """
        # Installed by a package.
        [Desktop Entry]
        Type=Application
        Name=Contacts
        Name[de]=Kontakte
        Comment=Keep your contacts
        Exec=sh -c true
        Icon=x-office-address-book
        Categories=Office;ContactManagement;
        X-Vendor-Key=kept
        Actions=new-contact;

        [Desktop Action new-contact]
        Name=New Contact
        Exec=sh -c true

        """

    @Test func aCopyKeepsTheOriginalAndAddsTheItemsAfterItsOwnActions() async throws {
        let folder = try TemporaryDirectory.make(prefix: "qa-compose")
        defer { try? FileManager.default.removeItem(at: folder) }
        let items = [
            ActionItem(itemID: "SearchAction", type: "SearchAction", title: "Search", localizedTitles: [("de", "Suchen")], icon: "system-search"),
            ActionItem(itemID: "f-2", type: "FavoriteAction", title: "Emma Wagner", localizedTitles: [("de", "Emma Wagner")]),
        ]
        let (copy, skipped) = Self.composer.copy(of: try DesktopEntryParser.parse(Self.original), app: Self.app, items: items)
        #expect(skipped.isEmpty)
        let text = try GeneratedMark.marked(copy, app: Self.app)
        // Every line of the original is there, in order; only Actions= changed.
        let originalLines = Self.original.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0 == "Actions=new-contact;" ? "Actions=new-contact;quickactions-1;quickactions-2;" : String($0) }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(originalLines.filter { !$0.isEmpty }.allSatisfy(lines.contains))
        let path = folder.appendingPathComponent("contacts.desktop").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        try await EntryTools.expectValid(path)
        let info = try await EntryTools.info(["file", path], environment: EntryTools.environment(home: folder.path, dirs: [folder.path], language: "de"))
        #expect(info.name == "Kontakte")
        #expect(info.actions == [.init(id: "new-contact", name: "New Contact"), .init(id: "quickactions-1", name: "Suchen"), .init(id: "quickactions-2", name: "Emma Wagner")])
    }

    @Test func anItemADesktopEntryCannotCarryIsLeftOut() {
        let items = [
            ActionItem(itemID: "bell\u{7}", type: "t", title: "Bell"),
            ActionItem(itemID: "ok", type: "t", title: "Ok\u{1B}[31m"),
        ]
        let (file, skipped) = Self.composer.generated(app: Self.app, name: "Contacts", icon: nil, items: items)
        #expect(skipped.map(\.itemID) == ["bell\u{7}"])
        #expect(file.groups.map(\.name) == ["Desktop Entry", "Desktop Action quickactions-1"])
        // A control character in a title shows as U+FFFD.
        #expect(file.group("Desktop Action quickactions-1")?.value("Name") == "Ok\u{FFFD}[31m")
    }

    @Test func ourActionIDsStepAroundTheOriginals() throws {
        let original = try DesktopEntryParser.parse("""
            [Desktop Entry]
            Type=Application
            Name=A
            Exec=a
            Actions=quickactions-1;

            [Desktop Action quickactions-1]
            Name=Theirs
            Exec=a --x

            """)
        let (copy, _) = Self.composer.copy(of: original, app: Self.app, items: [ActionItem(itemID: "i", type: "t", title: "Ours")])
        #expect(copy.main?.value("Actions") == "quickactions-1;quickactions-2;")
        #expect(copy.group("Desktop Action quickactions-1")?.value("Name") == "Theirs")
        #expect(copy.group("Desktop Action quickactions-2")?.value("Name") == "Ours")
    }
}
