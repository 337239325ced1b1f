import QuickActionsDesktopEntries
import QuickActionsTestSupport
import Testing

/// `DesktopEntryParser.parse(_:keeping:)` reads lines as bytes in place; it must accept and
/// refuse exactly what the whole-file parser does, with the same errors, and give the entries
/// it keeps exactly as that parser reads them.
@Suite struct SelectiveParseTests {
    static func keys(_ group: String) -> Set<String> {
        group == "Desktop Entry" ? ["Name", "Exec", "Type", "Icon"] : group.hasPrefix("Desktop Action ") ? ["Name", "Exec"] : []
    }

    /// Groups in order, each with the kept entries' key, locale and raw value.
    struct Kept: Equatable, CustomStringConvertible {
        var groups: [[String]]
        var description: String { groups.map { $0.joined(separator: " | ") }.joined(separator: "\n") }
    }

    static func kept(_ file: DesktopEntryFile) -> Kept {
        Kept(groups: file.groups.map { group in
            let wanted = keys(group.name)
            return ["[\(group.name)]"] + group.entries.filter { wanted.contains($0.key) }.map {
                "\($0.key)[\($0.locale ?? "-")]=\($0.rawValue)"
            }
        })
    }

    static func outcome(_ read: () throws(DesktopEntryParser.ParseError) -> DesktopEntryFile) -> Result<Kept, DesktopEntryParser.ParseError> {
        do throws(DesktopEntryParser.ParseError) {
            return .success(kept(try read()))
        } catch {
            return .failure(error)
        }
    }

    static func expectSame(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
        let whole = outcome { () throws(DesktopEntryParser.ParseError) in try DesktopEntryParser.parse(bytes) }
        let selective = outcome { () throws(DesktopEntryParser.ParseError) in try DesktopEntryParser.parse(bytes, keeping: keys) }
        #expect(whole == selective, "\(String(decoding: bytes, as: UTF8.self).debugDescription)", sourceLocation: sourceLocation)
    }

    @Test(arguments: [
        DesktopEntryParserTests.original,
        "Name=x\n", "[Desktop Entry]\njust text\n", "[Desktop Entry]\n[Desktop Entry]\n", "[Desktop Entry\n",
        "[Desktop Entry]\n=value\n", "[Desktop Entry]\nName[=x\n", "[Desktop Entry]\nName[]=x\n", "[Desk[top]\n",
        "[Desktop Entry]\r\nName=x\r\n", "[Desktop Entry]\nName=a\rb\n",
        // A "#" or "[" with a combining mark after it is one Character: not a comment, not a header.
        "[Desktop Entry]\n#\u{301}Name=x\n", "[Desktop Entry]\n#\u{301}\n", "[\u{301}Desktop Entry]\n",
        "[Desktop Entry]\n  \t#comment\nName = \t spaced \t\n", "[Desktop Entry]\nName[de] =x\nName[d[e]=y\n",
        "[Desktop Entry]\nNa me=x\n", "[Desktop Entry]\nName\u{7F}=x\n", "[Desktop Entry]\nNäme=x\nName=\u{1F600}\n",
        " [Desktop Entry]\n", "[Desktop Entry] \n", "[]\n", "[a\u{1}b]\n", "[a\tb]\n", "[ab]]\n", "[ab\n", "[x]\n[Desktop Action a]\nName=A\nExec=a\n[x]\n",
        "", "\n\n", "[Desktop Entry]", "[Desktop Entry]\nName=last line without a newline",
    ])
    func agreesWithTheWholeFileParser(text: String) {
        Self.expectSame(Array(text.utf8))
    }

    @Test func refusesWhatTheWholeFileParserRefusesUnread() {
        Self.expectSame(Array("[Desktop Entry]\nName=".utf8) + [0xFF, 0x0A])
        Self.expectSame(Array("[Desktop Entry]\nName=".utf8) + Array(repeating: 0x61, count: DesktopEntryParser.maximumSize))
    }

    /// Seeded random files made of the pieces that decide a line's kind: brackets, `#`, `=`,
    /// spaces, tabs, a combining mark, a control character, "\r", keys kept and not.
    @Test func agreesOnRandomFiles() {
        let pieces = ["[", "]", "#", "=", " ", "\t", "\u{301}", "\u{1}", "\r", "\n", "\n", "\n", "Name", "Exec", "Type",
                      "Comment", "Desktop Entry", "Desktop Action a", "de", "é", "x", ";", "\\s"]
        var generator = SeededGenerator(seed: 33)
        for _ in 0..<5000 {
            var text = Bool.random(using: &generator) ? "[Desktop Entry]\n" : ""
            for _ in 0..<Int.random(in: 0..<24, using: &generator) {
                text += pieces[Int.random(in: 0..<pieces.count, using: &generator)]
            }
            Self.expectSame(Array(text.utf8))
        }
    }
}
