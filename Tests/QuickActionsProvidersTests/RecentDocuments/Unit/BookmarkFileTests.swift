import Foundation
import Glibc
import QuickActionsTestSupport
import Testing

@testable import QuickActionsProviders

@Suite("Bookmark file reading")
struct BookmarkFileTests {
    @Test("reads what GLib's GBookmarkFile writes: MIME type, groups, applications, private flag")
    func readsGLibFile() async throws {
        let folder = try TemporaryDirectory.make(prefix: "qa-xbel")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("recently-used.xbel").path
        try await GLibBookmarkFile.write([
            .init(
                uri: "file:///tmp/a%20b.txt", mime: "text/plain",
                applications: [
                    .init(name: "gedit", exec: "gedit %u", modified: 1_700_000_000, count: 2),
                    .init(name: "Text Editor", exec: "\"/opt/My App/te\" %u", modified: 1_600_000_000),
                ],
                isPrivate: true, title: "T<&>'", groups: ["g1", "g&2"]),
            .init(uri: "file:///tmp/c.png", mime: "image/png", applications: [.init(name: "eog", exec: "eog %U", modified: 1_650_000_000)]),
        ], to: path)
        let bookmarks = try #require(try BookmarkFile.read(path: path))
        #expect(bookmarks.count == 2)
        let first = try #require(bookmarks.first { $0.href == "file:///tmp/a%20b.txt" })
        #expect(first.mimeType == "text/plain")
        #expect(first.isPrivate)
        #expect(first.title == "T<&>'")
        #expect(first.groups == ["g1", "g&2"])
        #expect(first.applications.map(\.name) == ["gedit", "Text Editor"])
        #expect(first.applications.map(\.exec) == ["'gedit %u'", "'\"/opt/My App/te\" %u'"])
        #expect(first.applications.map(\.modified) == [1_700_000_000, 1_600_000_000])
        #expect(first.applications.first?.count == 2)
        #expect(first.added != nil && first.modified != nil)
        let second = try #require(bookmarks.first { $0.href == "file:///tmp/c.png" })
        #expect(!second.isPrivate)
        #expect(second.mimeType == "image/png")
    }

    @Test("a missing file is no bookmarks, not an error")
    func missingFile() throws {
        #expect(try BookmarkFile.read(path: "/nonexistent/qa/recently-used.xbel") == nil)
    }

    @Test("reads references, CDATA, comments, other metadata owners and the older timestamp attribute")
    func readsVariants() throws {
        let xml = """
            <?xml version="1.0"?>
            <!-- a comment -->
            <xbel version="1.0" xmlns:b="http://www.freedesktop.org/standards/desktop-bookmarks"
                  xmlns:m="http://www.freedesktop.org/standards/shared-mime-info">
              <bookmark href="file:///tmp/x&#x20;&#233;.txt" modified="2020-01-02T03:04:05+01:00">
                <title><![CDATA[a <b> & c]]></title>
                <info>
                  <metadata owner="http://example.org"><b:private/></metadata>
                  <metadata owner="http://freedesktop.org">
                    <m:mime-type type="text/x-csrc"/>
                    <b:applications><b:application name="kate" exec="kate %u" timestamp="1234567890" count="4"/></b:applications>
                  </metadata>
                </info>
              </bookmark>
            </xbel>
            """
        let bookmarks = try BookmarkFile.parse(Array(xml.utf8))
        let bookmark = try #require(bookmarks.first)
        #expect(bookmark.href == "file:///tmp/x é.txt")
        #expect(bookmark.title == "a <b> & c")
        #expect(bookmark.mimeType == "text/x-csrc")
        #expect(!bookmark.isPrivate, "only the freedesktop owner's metadata counts")
        #expect(bookmark.applications == [BookmarkApplication(name: "kate", exec: "kate %u", modified: 1_234_567_890, count: 4)])
        #expect(bookmark.modified == 1_577_930_645)
    }

    static let billionLaughs = """
        <?xml version="1.0"?>
        <!DOCTYPE xbel [
          <!ENTITY lol "lol">
          <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
          <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
          <!ENTITY lol9 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
        ]>
        <xbel version="1.0"><bookmark href="file:///tmp/&lol9;"/></xbel>
        """

    /// Hostile or broken files, each refused with the reason and where.
    static let refused: [(name: String, xml: String, reason: String)] = [
        ("entity bomb", billionLaughs, "document type or entity declaration"),
        ("undeclared entity", #"<xbel><bookmark href="file:///tmp/&lol;"/></xbel>"#, "unknown entity &lol;"),
        ("unclosed element", "<xbel><bookmark href=\"file:///a\">", "ends inside <bookmark>"),
        ("mismatched end tag", "<xbel><bookmark href=\"file:///a\"></info></xbel>", "</info> closes <bookmark>"),
        ("unquoted attribute", "<xbel><bookmark href=file:///a/></xbel>", "not quoted"),
        ("'<' in a value", "<xbel><bookmark href=\"a<b\"/></xbel>", "'<' in attribute href"),
        ("bare ampersand", "<xbel><bookmark href=\"a&b\"/></xbel>", "'&' that starts no reference"),
        ("NUL character reference", "<xbel><bookmark href=\"a&#0;\"/></xbel>", "not a valid character"),
        ("surrogate reference", "<xbel><bookmark href=\"a&#xD800;\"/></xbel>", "not a valid character"),
        ("huge character reference", "<xbel><bookmark href=\"a&#99999999999;\"/></xbel>", "not a valid character"),
        ("two roots", "<xbel></xbel><xbel></xbel>", "a second root element"),
        ("text after the root", "<xbel></xbel>junk", "text outside the root element"),
        ("empty file", "", "no root element"),
        ("not xbel", "<html></html>", "root element is not <xbel>"),
        ("bookmark without href", "<xbel><bookmark/></xbel>", "without href"),
        ("deep nesting", "<xbel>" + String(repeating: "<a>", count: 100) + String(repeating: "</a>", count: 100) + "</xbel>", "nested more than"),
    ]

    @Test("refuses hostile and malformed files with the reason and the position", arguments: refused.indices)
    func refusesMalformed(_ index: Int) {
        let (name, xml, reason) = Self.refused[index]
        do {
            let bookmarks = try BookmarkFile.parse(Array(xml.utf8))
            Issue.record("\(name): expected a refusal naming \(reason), got \(bookmarks.count) bookmarks")
        } catch {
            #expect(error.reason.contains(reason), "\(name): \(error.reason)")
            #expect(error.reason.contains("line "), "\(name): the position is named: \(error.reason)")
        }
    }

    @Test("refuses an attribute past the field cap, naming it")
    func refusesHugeAttribute() {
        let xml = "<xbel><bookmark href=\"file:///" + String(repeating: "a", count: 70_000) + "\"/></xbel>"
        #expect {
            try BookmarkFile.parse(Array(xml.utf8))
        } throws: { error in
            (error as? BookmarkFile.Failure)?.reason.contains("attribute href of 70008 bytes, more than 65536") == true
        }
    }

    @Test("refuses more bookmarks than the cap")
    func refusesTooManyBookmarks() {
        let bytes = BookmarkFileSample.xbel(count: 11)
        #expect(throws: BookmarkFile.Failure.self) {
            try BookmarkFile.parse(bytes, limits: BookmarkFile.Limits(maximumBookmarks: 10))
        }
        #expect((try? BookmarkFile.parse(bytes, limits: BookmarkFile.Limits(maximumBookmarks: 11)))?.count == 11)
    }

    @Test("refuses a 1 GiB sparse file by its size, without reading it")
    func refusesSparseFile() throws {
        let folder = try TemporaryDirectory.make(prefix: "qa-xbel")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("recently-used.xbel").path
        let fd = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0o600)
        try #require(fd >= 0)
        #expect(ftruncate(fd, 1 << 30) == 0)
        close(fd)
        #expect {
            try BookmarkFile.read(path: path)
        } throws: { error in
            let failure = error as? BookmarkFile.Failure
            return failure?.path == path && failure?.reason.contains("1073741824 bytes, more than") == true
        }
    }

    @Test("the failure names the file")
    func failureNamesFile() throws {
        let folder = try TemporaryDirectory.make(prefix: "qa-xbel")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("recently-used.xbel").path
        try Self.billionLaughs.write(toFile: path, atomically: true, encoding: .utf8)
        #expect {
            try BookmarkFile.read(path: path)
        } throws: { error in
            "\(error)".hasPrefix(path + ": line 2, column 1")
        }
    }

    @Test("parses the benchmark's 20,000-bookmark sample")
    func parsesSample() throws {
        let bookmarks = try BookmarkFile.parse(BookmarkFileSample.xbel(count: 20_000))
        #expect(bookmarks.count == 20_000)
        #expect(bookmarks.filter(\.isPrivate).count == 2_000)
        #expect(bookmarks[3].applications.first?.exec == "'gedit %u'")
    }

    static let times: [(String, Double?)] = [
        ("1970-01-01T00:00:00Z", 0),
        ("2023-11-14T22:13:20Z", 1_700_000_000),
        ("2023-11-14T22:13:20.5Z", 1_700_000_000.5),
        ("2023-11-14T23:13:20+01:00", 1_700_000_000),
        ("2023-11-14T21:13:20-0100", 1_700_000_000),
        ("2024-02-29T00:00:00Z", 1_709_164_800),
        ("2023-13-01T00:00:00Z", nil),
        ("2023-11-14", nil),
        ("2023-11-14T22:13:20Q", nil),
        ("garbage garbage garbage", nil),
    ]

    @Test("reads ISO 8601 times", arguments: times.indices)
    func readsTimes(_ index: Int) {
        let (text, expected) = Self.times[index]
        #expect(ISO8601Time.seconds(text) == expected, "\(text)")
    }

    @Test("formats times back", arguments: [0, 1_700_000_000, 951_782_400, -86_400])
    func formatsTimes(_ seconds: Int) {
        #expect(ISO8601Time.seconds(ISO8601Time.format(seconds)) == Double(seconds))
    }
}
