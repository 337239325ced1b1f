import QuickActionsDesktopEntries
import Testing

@Suite struct DesktopEntryParserTests {
    static let original = """
        # A package's entry, with everything a real one has.

        [Desktop Entry]
        Type=Application
        Name=Contacts
        Name[de]=Kontakte
        Name[sr@latin]=Kontakti
        Comment = Keep your contacts
        Exec=gnome-contacts %U
        Icon=org.gnome.Contacts
        X-Custom_Key=kept;as;is
        Actions=new-contact;
        # a comment inside a group

        [Desktop Action new-contact]
        Name=New Contact
        Exec=gnome-contacts --new

        """

    @Test func keepsEveryLineByteForByte() throws {
        let file = try DesktopEntryParser.parse(Self.original)
        #expect(file.text == Self.original)
        #expect(file.groups.map(\.name) == ["Desktop Entry", "Desktop Action new-contact"])
        #expect(file.preamble == ["# A package's entry, with everything a real one has.", ""])
    }

    @Test func readsKeysLocalesAndValues() throws {
        let file = try DesktopEntryParser.parse(Self.original)
        let main = try #require(file.main)
        #expect(main.value("Name") == "Contacts")
        #expect(main.value("Comment") == "Keep your contacts")
        #expect(main.value("X-Custom_Key") == "kept;as;is")
        #expect(main.entries.filter { $0.key == "Name" }.map(\.locale) == [nil, "de", "sr@latin"])
        #expect(main.flag("DBusActivatable") == false)
    }

    @Test func aChangedKeyIsTheOnlyLineThatChanges() throws {
        var file = try DesktopEntryParser.parse(Self.original)
        file.modifyGroup("Desktop Entry") { $0.set("Actions", rawValue: "new-contact;quickactions-1;") }
        let expected = Self.original.replacingOccurrences(of: "Actions=new-contact;", with: "Actions=new-contact;quickactions-1;")
        #expect(file.text == expected)
    }

    @Test func addsAMissingLastNewline() throws {
        #expect(try DesktopEntryParser.parse("[Desktop Entry]\nName=x").text == "[Desktop Entry]\nName=x\n")
    }

    @Test(arguments: [
        ("Name=x\n", 1, "comes before the first group"),
        ("[Desktop Entry]\njust text\n", 2, "not a key=value pair"),
        ("[Desktop Entry]\n[Desktop Entry]\n", 2, "appears twice"),
        ("[Desktop Entry\n", 1, "not a group header"),
        ("[Desktop Entry]\n=value\n", 2, "the key"),
        ("[Desktop Entry]\nName[=x\n", 2, "the key"),
        ("[Desktop Entry]\nName[]=x\n", 2, "bad locale"),
        ("[Desk[top]\n", 1, "bracket"),
    ])
    func refusesBrokenFilesNamingTheLine(text: String, line: Int, reason: String) {
        do {
            _ = try DesktopEntryParser.parse(text)
            Issue.record("\(text.debugDescription) parsed")
        } catch {
            #expect(error.line == line)
            #expect(error.reason.contains(reason), "\(error)")
        }
    }

    @Test func refusesBytesThatAreNotUTF8() {
        #expect(throws: DesktopEntryParser.ParseError(line: 0, reason: "not UTF-8")) {
            try DesktopEntryParser.parse(Array("[Desktop Entry]\nName=".utf8) + [0xFF, 0x0A])
        }
    }

    @Test(arguments: [
        ("de", "de"), ("pt-BR", "pt_BR"), ("pt_BR", "pt_BR"), ("zh-Hans", "zh_CN"), ("zh-Hant", "zh_TW"),
        ("zh-Hant-HK", "zh_HK"), ("sr-Latn", "sr@latin"), ("es-419", "es"), ("fil", "fil"),
    ])
    func mapsLprojNamesToKeyLocales(lproj: String, key: String) {
        #expect(DesktopLocale.key(forLanguage: lproj) == key)
    }

    @Test(arguments: ["Base", "English", "", "x", "de-Xxxx", "DE", "de-1"])
    func skipsNamesNoDesktopMatches(lproj: String) {
        #expect(DesktopLocale.key(forLanguage: lproj) == nil)
    }
}
