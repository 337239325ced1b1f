import Foundation
import QuickActionsDesktopEntries
import Testing

/// Reading `Exec` strictly and expanding its field codes (the comparison with GLib is in
/// ExecLineGLibTests).
@Suite struct ExecLineTests {
    struct Bad: Sendable, CustomStringConvertible {
        let exec: String
        let mentions: String
        var description: String { exec }
    }

    static let malformed: [Bad] = [
        Bad(exec: "app $(rm -rf ~)", mentions: "'$'"),
        Bad(exec: "app `id`", mentions: "'`'"),
        Bad(exec: "app 'single quoted'", mentions: "'''"),
        Bad(exec: "app a;b", mentions: "';'"),
        Bad(exec: "app a|b", mentions: "'|'"),
        Bad(exec: "app > out", mentions: "'>'"),
        Bad(exec: "app ~/file", mentions: "'~'"),
        Bad(exec: "app *.txt", mentions: "'*'"),
        Bad(exec: "app back\\slash", mentions: "'\\'"),
        Bad(exec: "app\ttab", mentions: "U+0009"),
        Bad(exec: "app \"unclosed", mentions: "unclosed quote"),
        Bad(exec: "app %z", mentions: "%z"),
        Bad(exec: "app 100%", mentions: "lone %"),
        Bad(exec: "", mentions: "no program"),
        Bad(exec: "   ", mentions: "no program"),
    ]

    @Test(arguments: malformed)
    func aMalformedLineIsAnErrorNamingTheEntryAndTheText(_ bad: Bad) {
        #expect {
            try ExecLine(bad.exec, entry: "/usr/share/applications/app.desktop")
        } throws: { error in
            let text = "\(error)"
            return text.contains("/usr/share/applications/app.desktop") && text.contains(bad.mentions)
                && text.contains("\"\(bad.exec)\"")
        }
    }

    @Test func aHugeLineIsNamedByABoundedPrefix() {
        let line = "app " + String(repeating: "x", count: 100_000) + " $"
        #expect {
            try ExecLine(line, entry: "/e.desktop")
        } throws: { error in
            "\(error)".count < 400
        }
    }

    struct Expansion: Sendable, CustomStringConvertible {
        let exec: String
        let uris: [String]
        let expected: [[String]]
        var description: String { "\(exec) with \(uris.count) files" }
    }

    static let fields = ExecLine.Fields(icon: "org.example.App", name: "Example App", entryPath: "/apps/org.example.App.desktop")

    static let expansions: [Expansion] = [
        Expansion(exec: "app", uris: [], expected: [["app"]]),
        Expansion(exec: "app \"\\$(rm -rf ~)\" \"\\`id\\`\"", uris: [], expected: [["app", "$(rm -rf ~)", "`id`"]]),
        Expansion(exec: "app \"$(rm -rf ~)\"", uris: [], expected: [["app", "$(rm -rf ~)"]]),
        Expansion(exec: "app %i %c %k %%", uris: [], expected: [["app", "--icon", "org.example.App", "Example App", "/apps/org.example.App.desktop", "%"]]),
        Expansion(exec: "app --name=%c", uris: [], expected: [["app", "--name=Example App"]]),
        Expansion(exec: "app %f %F %u %U", uris: [], expected: [["app"]]),
        Expansion(exec: "app %d %D %n %N %v %m x", uris: [], expected: [["app", "x"]]),
        Expansion(exec: "app %F", uris: ["file:///a%20b", "file:///c"], expected: [["app", "/a b", "/c"]]),
        Expansion(exec: "app %U", uris: ["file:///a%20b", "https://example.com/x"], expected: [["app", "file:///a%20b", "https://example.com/x"]]),
        Expansion(exec: "app %f", uris: ["file:///a", "file:///b"], expected: [["app", "/a"], ["app", "/b"]]),
        Expansion(exec: "app", uris: ["file:///a", "file:///b"], expected: [["app", "/a"], ["app", "/b"]]),
        Expansion(exec: "app %F", uris: ["https://example.com/x"], expected: [["app"]]),
        Expansion(exec: "app \"%c\"", uris: [], expected: [["app", "'Example App'"]]),
        Expansion(exec: "app  a   \"\"", uris: [], expected: [["app", "a", ""]]),
    ]

    @Test(arguments: expansions)
    func fieldCodesExpandAsGLibDoes(_ expansion: Expansion) throws {
        var fields = Self.fields
        fields.uris = expansion.uris
        let line = try ExecLine(expansion.exec, entry: "test")
        #expect(try line.expand(fields, entry: "test") == expansion.expected)
    }

    @Test func aLineOfFieldCodesAloneThatExpandToNothingHasNoProgram() throws {
        let line = try ExecLine("%f", entry: "/e.desktop")
        #expect(throws: ExecLine.Malformed.self) { try line.expand(ExecLine.Fields(), entry: "/e.desktop") }
    }

    @Test func fileURIsBecomePathsOnlyWhenTheyAreLocal() {
        #expect(FileURI.path(of: "file:///home/me/a%20b.txt") == "/home/me/a b.txt")
        #expect(FileURI.path(of: "file://localhost/etc/hosts") == "/etc/hosts")
        #expect(FileURI.path(of: "file://elsewhere/etc/hosts") == nil)
        #expect(FileURI.path(of: "https://example.com/") == nil)
        #expect(FileURI.path(of: "file:///a%2Fb") == nil)
        #expect(FileURI.path(of: "file:///a%00b") == nil)
        #expect(FileURI.path(of: "file:///%C3%A9t%C3%A9") == "/été")
        #expect(FileURI.uri(ofPath: "/home/me/a b/été.txt") == "file:///home/me/a%20b/%C3%A9t%C3%A9.txt")
    }
}
