import QuickActionsDesktopEntries
import Testing

@Suite struct ValueEscapingTests {
    @Test(arguments: [
        ("plain", "plain"),
        ("two words", "two words"),
        (" leading", "\\sleading"),
        ("trailing  ", "trailing\\s\\s"),
        ("line\nbreak", "line\\nbreak"),
        ("tab\there", "tab\\there"),
        ("cr\rhere", "cr\\rhere"),
        ("back\\slash", "back\\\\slash"),
        ("\\n literally", "\\\\n literally"),
        ("[Desktop Action x]", "[Desktop Action x]"),
        ("a\nExec=rm -rf ~", "a\\nExec=rm -rf ~"),
        ("semi;colon", "semi;colon"),
        ("Grüße ✓", "Grüße ✓"),
        ("", ""),
    ])
    func escapesAString(value: String, written: String) throws {
        #expect(try ValueEscaping.escape(value) == written)
        #expect(ValueEscaping.unescape(written) == value)
    }

    @Test(arguments: ["\u{0}", "bell\u{7}", "esc\u{1B}[31m", "del\u{7F}"])
    func refusesControlCharacters(value: String) {
        #expect(throws: ValueEscaping.UnrepresentableValue.self) { try ValueEscaping.escape(value) }
    }

    @Test(arguments: [
        (["a", "b"], "a;b;"),
        (["semi;colon", "x"], "semi\\;colon;x;"),
        (["new\nline"], "new\\nline;"),
        ([], ""),
    ] as [([String], String)])
    func escapesAList(elements: [String], written: String) throws {
        #expect(try ValueEscaping.escapeList(elements) == written)
        #expect(ValueEscaping.unescapeList(written) == elements)
    }

    @Test func readsAListWithoutTheTrailingSemicolon() {
        #expect(ValueEscaping.unescapeList("new-window;new-private-window") == ["new-window", "new-private-window"])
    }

    @Test func keepsAnUnknownEscape() {
        #expect(ValueEscaping.unescape("a\\qb\\") == "a\\qb\\")
    }
}

@Suite struct ExecCommandLineTests {
    @Test(arguments: [
        (["/usr/bin/quickactions", "invoke"], "/usr/bin/quickactions invoke"),
        (["qa", "two words"], "qa \"two words\""),
        (["qa", ""], "qa \"\""),
        (["qa", "100%"], "qa 100%%"),
        (["qa", "%f"], "qa %%f"),
        (["qa", "$(rm -rf ~)"], "qa \"\\$(rm -rf ~)\""),
        (["qa", "`id`"], "qa \"\\`id\\`\""),
        (["qa", "say \"hi\""], "qa \"say \\\"hi\\\"\""),
        (["qa", "it's"], "qa \"it's\""),
        (["qa", "a;b"], "qa \"a;b\""),
        (["qa", "back\\slash"], "qa \"back\\\\slash\""),
        (["qa", "new\nline"], "qa \"new\nline\""),
        (["qa", "~", "#", "*?", "<>|&"], "qa \"~\" \"#\" \"*?\" \"<>|&\""),
        (["qa", "--id=x y"], "qa \"--id=x y\""),
        (["/opt/Quick Actions/bin/quickactions", "pick"], "\"/opt/Quick Actions/bin/quickactions\" pick"),
    ])
    func quotesByTheSpec(arguments: [String], value: String) throws {
        let line = try ExecCommandLine(arguments)
        #expect(line.value == value)
        #expect(try ExecCommandLine.parse(line.value) == arguments)
    }

    @Test(arguments: [
        ["qa", "[Desktop Action x]\nExec=sh -c 'rm -rf ~'"],
        ["qa", "\"\\\"\\\\\"", "$HOME", "%%%", "%u %U %f %F %i %c %k"],
        ["qa", "\t\r\n", " ", "  two  "],
        ["qa", "ünïcødé ✓", "日本語"],
    ])
    func roundTripsHostileArguments(arguments: [String]) throws {
        let line = try ExecCommandLine(arguments)
        #expect(try ExecCommandLine.parse(line.value) == arguments)
        // No field code survives: every % is doubled.
        #expect(!line.value.replacingOccurrences(of: "%%", with: "").contains("%"))
        // And the string escapes keep it on one line.
        #expect(!(try ValueEscaping.escape(line.value)).contains("\n"))
    }

    @Test func refusesAProgramWithEquals() {
        #expect(throws: ExecCommandLine.Problem.equalsInProgram("/opt/a=b/qa")) { try ExecCommandLine(["/opt/a=b/qa"]) }
    }

    @Test func refusesControlCharacters() {
        #expect(throws: ExecCommandLine.Problem.controlCharacter(argument: "a\u{1}", character: "U+0001")) {
            try ExecCommandLine(["qa", "a\u{1}"])
        }
    }

    @Test(arguments: ["qa %f", "qa \"unclosed", "qa $HOME", "qa a;b"])
    func parseRefusesWhatWeNeverWrite(value: String) {
        #expect(throws: ExecCommandLine.ParseError.self) { try ExecCommandLine.parse(value) }
    }

    @Test func keepsAnUnknownEscapeOfALongerScalarAndNeverSplitsAfterIt() {
        #expect(ValueEscaping.unescape("\\é\\;x\\s") == "\\é\\;x ")
        #expect(ValueEscaping.unescapeList("\\é;a\\;b;\\\\;😀\\t;") == ["\\é", "a;b", "\\", "😀\t"])
    }
}
