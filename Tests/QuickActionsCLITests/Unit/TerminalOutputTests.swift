import QuickActionsCLI
import Testing

@Suite("Terminal width, colour and text fitting")
struct TerminalOutputTests {
    @Test("display width counts wide characters twice and combining marks not at all", arguments: [
        ("abc", 3), ("", 0), ("日本語", 6), ("e\u{301}", 1), ("🎵x", 3), ("Ｆ", 2), ("a\u{200B}b", 2),
    ])
    func displayWidth(_ text: String, _ width: Int) {
        #expect(DisplayWidth.of(text) == width)
    }

    @Test("truncation cuts to the width and ends in an ellipsis", arguments: [
        ("Play music", 20, "Play music"),
        ("Play music", 10, "Play music"),
        ("Play music", 9, "Play mus…"),
        ("Play music", 1, "…"),
        ("Play music", 0, ""),
        ("日本語テキスト", 7, "日本語…"),
        ("日本語テキスト", 8, "日本語…"),
    ])
    func truncate(_ text: String, _ width: Int, _ expected: String) {
        let cut = DisplayWidth.truncate(text, to: width)
        #expect(cut == expected)
        #expect(DisplayWidth.of(cut) <= width)
    }

    @Test("plugin text loses control characters, so it cannot move the cursor or break lines")
    func sanitize() {
        #expect(DisplayWidth.sanitize("a\nb\tc\u{1B}[31md") == "a b c [31md")
    }

    @Test("width: the terminal's, else $COLUMNS, else 80; in a pipe $COLUMNS or no limit", arguments: [
        (true, 120, nil, 120), (true, nil, "60", 60), (true, nil, nil, 80), (true, nil, "x", 80),
        (false, nil, "50", 50), (false, nil, nil, nil), (false, nil, "0", nil),
    ] as [(Bool, Int?, String?, Int?)])
    func width(_ terminal: Bool, _ window: Int?, _ columns: String?, _ expected: Int?) {
        var environment: [String: String] = [:]
        if let columns { environment["COLUMNS"] = columns }
        #expect(Terminal.width(stdoutIsTerminal: terminal, windowColumns: window, environment: environment) == expected)
    }

    @Test("colour only on a terminal, never with NO_COLOR or TERM=dumb", arguments: [
        (true, [:], true), (false, [:], false), (true, ["NO_COLOR": "1"], false),
        (true, ["NO_COLOR": ""], true), (true, ["TERM": "dumb"], false), (false, ["TERM": "xterm"], false),
    ] as [(Bool, [String: String], Bool)])
    func colour(_ terminal: Bool, _ environment: [String: String], _ expected: Bool) {
        #expect(Terminal.colour(stdoutIsTerminal: terminal, environment: environment) == expected)
    }

    @Test("UTF-8 is read from LC_ALL, LC_CTYPE, LANG in that order", arguments: [
        (["LANG": "en_US.UTF-8"], true), (["LANG": "C"], false), ([:], false),
        (["LC_ALL": "C", "LANG": "en_US.UTF-8"], false), (["LC_CTYPE": "de_DE.utf8"], true),
    ] as [([String: String], Bool)])
    func unicode(_ environment: [String: String], _ expected: Bool) {
        #expect(Terminal.unicode(environment: environment) == expected)
    }
}

@Suite("Tables")
struct TableTests {
    func sample() -> Table {
        var table = Table(columns: [Table.Column("TITLE", flexible: true), Table.Column("TYPE"), Table.Column("ORIGIN")])
        table.add(["Play the last album you listened to", "play", "static"])
        table.add(["Pause", "pause", "dynamic"])
        return table
    }

    @Test("columns are aligned, two spaces apart, without trailing spaces")
    func aligned() {
        let lines = sample().render(width: nil, style: Style(enabled: false))
        #expect(lines == [
            "TITLE                                TYPE   ORIGIN",
            "Play the last album you listened to  play   static",
            "Pause                                pause  dynamic",
        ])
    }

    @Test("rows are fitted to the width by cutting the flexible column first", arguments: [30, 40, 52])
    func fitted(_ width: Int) {
        let lines = sample().render(width: width, style: Style(enabled: false))
        for line in lines {
            #expect(DisplayWidth.of(line) <= width, "\(line) is wider than \(width)")
        }
        #expect(lines[1].contains("play   static"), "fixed columns stay whole: \(lines[1])")
        if width < 51 { #expect(lines[1].contains("…")) }
    }

    @Test("a very narrow width cuts fixed columns too, never overflowing")
    func narrow() {
        for line in sample().render(width: 12, style: Style(enabled: false)) {
            #expect(DisplayWidth.of(line) <= 12, "\(line)")
        }
    }

    @Test("colour adds ANSI codes without changing the alignment")
    func colour() {
        let plain = sample().render(width: nil, style: Style(enabled: false))
        let coloured = sample().render(width: nil, style: Style(enabled: true))
        #expect(coloured[0].contains("\u{1B}[1m"))
        let stripped = coloured.map { $0.replacing(/\x1B\[[0-9;]*m/, with: "") }
        #expect(stripped == plain)
        #expect(!plain.joined().contains("\u{1B}"))
    }

    @Test("a column that keeps its cells whole is never cut; droppable columns go first, highest rank first")
    func keepsWholeAndDrops() {
        var table = Table(columns: [
            Table.Column("TITLE", flexible: true),
            Table.Column("ID", keepsWhole: true),
            Table.Column("ICON", dropRank: 1),
            Table.Column("ORIGIN", dropRank: 2),
        ])
        table.add(["A title that is long", "com.example.a.rather.long.id", "media-playback-start", "dynamic"])
        let style = Style(enabled: false)
        // Room for everything but ORIGIN (the first to go); the title keeps 8 columns or more.
        let fits = table.render(width: 66, style: style)
        #expect(fits[1].contains("com.example.a.rather.long.id  media-playback-start"), "\(fits)")
        #expect(!fits.joined().contains("ORIGIN") && !fits[1].contains("dynamic"), "\(fits)")
        #expect(fits.allSatisfy { DisplayWidth.of($0) <= 66 }, "\(fits)")
        // Narrower: ICON goes too, and the id stays whole even past the width.
        let narrow = table.render(width: 20, style: style)
        #expect(narrow[1].contains("com.example.a.rather.long.id"), "\(narrow)")
        #expect(!narrow.joined().contains("ICON"), "\(narrow)")
        // Wide enough: nothing is left out or cut.
        #expect(table.render(width: nil, style: style)[1]
            == "A title that is long  com.example.a.rather.long.id  media-playback-start  dynamic")
    }

    @Test("headings sit unindented between indented rows")
    func headings() {
        var table = Table(columns: [Table.Column("TITLE"), Table.Column("TYPE")], indent: 2)
        table.addHeading("Music (org.example.Music)")
        table.add(["Play", "play"])
        let lines = table.render(width: nil, style: Style(enabled: false))
        #expect(lines == ["  TITLE  TYPE", "Music (org.example.Music)", "  Play   play"])
    }
}
