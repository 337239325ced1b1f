import QuickActionsProviders
import Testing

/// quickactionsd.conf read by `ProviderSettings.applying(_:path:)` (issue 33): every known key,
/// comments and blank lines, and each kind of bad line an error naming the file, the line and
/// a bounded prefix of its text.
@Suite("Provider settings file")
struct ProviderSettingsTests {
    static let path = "/home/u/.config/quickactions/quickactionsd.conf"

    @Test("a good file with comments, blank lines and spaces sets every key")
    func goodFile() throws {
        let text = """
            # QuickActions providers
            [Providers]
              desktop-actions = false
            recent-documents=true
            \tmedia-players=false\t

            # fewer documents
            [Recent Documents]
            limit=12
            """
        let settings = try ProviderSettings().applying(text, path: Self.path)
        var expected = ProviderSettings()
        expected.desktopActions = false
        expected.mediaPlayers = false
        expected.recentDocumentsLimit = 12
        #expect(settings == expected)
    }

    @Test("an empty file, or one of comments alone, changes nothing")
    func emptyFile() throws {
        #expect(try ProviderSettings().applying("", path: Self.path) == ProviderSettings())
        #expect(try ProviderSettings().applying("# nothing\n\n   \n#[Providers]\n", path: Self.path) == ProviderSettings())
    }

    @Test("the file applies over the settings given: keys it does not name stay")
    func appliesOver() throws {
        var start = ProviderSettings()
        start.mediaPlayers = false
        let settings = try start.applying("[Providers]\ndesktop-actions=false\n", path: Self.path)
        #expect(settings.mediaPlayers == false && settings.desktopActions == false && settings.recentDocuments)
    }

    @Test("the limit's bounds are accepted", arguments: [0, 5, 64])
    func limitBounds(limit: Int) throws {
        #expect(try ProviderSettings().applying("[Recent Documents]\nlimit=\(limit)", path: Self.path).recentDocumentsLimit == limit)
    }

    @Test("a file with CRLF line ends reads as its LF twin")
    func crlf() throws {
        let settings = try ProviderSettings().applying("[Providers]\r\nmedia-players=false\r\n[Recent Documents]\r\nlimit=3\r\n",
                                                       path: Self.path)
        #expect(settings.mediaPlayers == false && settings.recentDocumentsLimit == 3, "\(settings)")
    }

    static let badLines: [(String, text: String, line: Int, reason: String)] = [
        ("unknown group", "[Providers]\ndesktop-actions=true\n[Players]\n", 3, "unknown group; known: [Providers], [Recent Documents]"),
        ("group without its bracket", "[Providers\n", 1, "a group header must be [Name]"),
        ("empty group", "# x\n[]\n", 2, "a group header must be [Name]"),
        ("unknown key", "[Providers]\nweather=true\n", 2, "unknown key in [Providers]"),
        ("a key of another group", "[Recent Documents]\nmedia-players=false\n", 2, "unknown key in [Recent Documents]"),
        ("key before any group", "# first\nmedia-players=false\n[Providers]\n", 2, "a key before any [Group]"),
        ("bad bool", "[Providers]\nmedia-players=no\n", 2, "the value must be true or false"),
        ("bool in capitals", "[Providers]\nmedia-players=False\n", 2, "the value must be true or false"),
        ("empty bool", "[Providers]\nmedia-players=\n", 2, "the value must be true or false"),
        ("limit not a number", "[Recent Documents]\nlimit=five\n", 2, "limit must be a whole number from 0 to 64"),
        ("limit too high", "[Recent Documents]\nlimit=65\n", 2, "limit must be a whole number from 0 to 64"),
        ("limit negative", "[Recent Documents]\nlimit=-1\n", 2, "limit must be a whole number from 0 to 64"),
        ("limit overflowing", "[Recent Documents]\nlimit=99999999999999999999999\n", 2, "limit must be a whole number from 0 to 64"),
        ("no equals sign", "[Providers]\nmedia-players\n", 2, "expected key=value, a [Group] or a # comment"),
    ]

    @Test("each kind of bad line is an error naming the file, the line and its text", arguments: badLines)
    func badLine(_ name: String, text: String, line: Int, reason: String) {
        #expect {
            _ = try ProviderSettings().applying(text, path: Self.path)
        } throws: { error in
            guard let error = error as? ProviderSettingsError else { return false }
            let lineText = String(text.split(separator: "\n", omittingEmptySubsequences: false)[line - 1])
            return error.path == Self.path && error.line == line && error.reason == reason && error.text == lineText
                && error.description == "\(Self.path):\(line): \(reason): \(lineText.debugDescription)"
        }
    }

    @Test("a 10 KiB garbage line is named with a bounded prefix of its text")
    func hugeLine() throws {
        let garbage = String(repeating: "x<&>\u{7f}é", count: 10 * 1024 / 6)
        do {
            _ = try ProviderSettings().applying("[Providers]\n\(garbage)\n", path: Self.path)
            Issue.record("a 10 KiB garbage line was accepted")
        } catch {
            #expect(error.line == 2)
            #expect(error.text == String(garbage.prefix(80)) + "…")
            #expect(error.description.hasPrefix("\(Self.path):2: expected key=value"), "\(error)")
            #expect(error.description.utf8.count < 400, "\(error.description.utf8.count) bytes")
        }
    }

    @Test("the file is in XDG_CONFIG_HOME, else ~/.config; relative folders are ignored")
    func path() {
        #expect(ProviderSettings.path(environment: ["XDG_CONFIG_HOME": "/c", "HOME": "/h"]) == "/c/quickactions/quickactionsd.conf")
        #expect(ProviderSettings.path(environment: ["XDG_CONFIG_HOME": "rel", "HOME": "/h"]) == "/h/.config/quickactions/quickactionsd.conf")
        #expect(ProviderSettings.path(environment: ["HOME": "/h"]) == "/h/.config/quickactions/quickactionsd.conf")
        #expect(ProviderSettings.path(environment: ["HOME": "h"]) == nil)
        #expect(ProviderSettings.path(environment: [:]) == nil)
    }
}
