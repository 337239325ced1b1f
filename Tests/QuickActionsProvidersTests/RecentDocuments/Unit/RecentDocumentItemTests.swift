import QuickActionsModel
import QuickActionsProviding
import Testing

@testable import QuickActionsProviders

@Suite("Recent document items")
struct RecentDocumentItemTests {
    static let uris: [(uri: String, path: String?)] = [
        ("file:///home/u/a%20b.txt", "/home/u/a b.txt"),
        ("file://localhost/tmp/x", "/tmp/x"),
        ("FILE:///tmp/x", "/tmp/x"),
        ("file:///tmp/%C3%A9t%C3%A9.odt", "/tmp/été.odt"),
        ("file://otherhost/tmp/x", nil),
        ("https://example.org/x", nil),
        ("file:///tmp/a%00b", nil),
        ("file:///tmp/a%2Fb", nil),
        ("file:///tmp/%FF", nil),
        ("file:///tmp/%4", nil),
        ("file:///tmp/%zz", nil),
        ("file://", nil),
        ("file:///tmp/a?b", nil),
    ]

    @Test("reads local file URIs and refuses the rest", arguments: uris.indices)
    func fileURIs(_ index: Int) {
        let (uri, path) = Self.uris[index]
        #expect(FileURI.path(of: uri) == path, "\(uri)")
    }

    static let folders: [(folder: String, home: String?, shown: String)] = [
        ("/home/u/Documents", "/home/u", "~/Documents"),
        ("/home/u", "/home/u", "~"),
        ("/home/u", "/home/u/", "~"),
        ("/home/user2/x", "/home/u", "/home/user2/x"),
        ("/tmp", "/home/u", "/tmp"),
        ("/tmp", nil, "/tmp"),
        ("/tmp", "/", "/tmp"),
    ]

    @Test("shows the home folder as ~", arguments: folders.indices)
    func tilde(_ index: Int) {
        let (folder, home, shown) = Self.folders[index]
        #expect(RecentDocumentText.tildeFolder(folder, home: home) == shown)
    }

    static let iconCases: [(mime: String?, available: Set<String>, icon: String)] = [
        ("text/plain", ["text-plain", "text-x-generic"], "text-plain"),
        ("text/plain", ["text-x-generic"], "text-x-generic"),
        ("text/plain", [], "text-plain"),
        ("image/png", ["image-x-generic"], "image-x-generic"),
        ("audio/ogg", ["audio-x-generic"], "audio-x-generic"),
        ("video/mp4", ["video-x-generic"], "video-x-generic"),
        ("application/x-weird", ["application-x-generic"], "application-x-generic"),
        ("TEXT/Plain", ["text-plain"], "text-plain"),
        (nil, [], "application-octet-stream"),
        ("not a type", [], "application-octet-stream"),
        ("a/b/c", [], "application-octet-stream"),
    ]

    @Test("takes the MIME type's themed icon, else its generic one", arguments: iconCases.indices)
    func icons(_ index: Int) {
        let (mime, available, icon) = Self.iconCases[index]
        let icons = MimeIcons(dataDirectories: ["/nonexistent"], available: { available.contains($0) })
        #expect(icons.icon(for: mime) == icon, "\(mime ?? "nil") with \(available)")
    }

    @Test("follows shared-mime-info's generic-icons file for the generic icon")
    func genericIconsFile() throws {
        let folder = try QuickActionsTestSupport.TemporaryDirectory.make(prefix: "qa-mime")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("mime"), withIntermediateDirectories: true)
        try "application/pdf:x-office-document\n".write(
            to: folder.appendingPathComponent("mime/generic-icons"), atomically: true, encoding: .utf8)
        let icons = MimeIcons(dataDirectories: [folder.path], available: { $0 == "x-office-document" })
        #expect(icons.candidates(for: "application/pdf") == ["application-pdf", "x-office-document"])
        #expect(icons.icon(for: "application/pdf") == "x-office-document")
    }

    @Test("an id is the URI when it fits, else a bounded, stable one")
    func itemIDs() {
        #expect(RecentDocumentText.itemID(for: "file:///tmp/a") == "file:///tmp/a")
        let long = "file:///tmp/" + String(repeating: "é", count: 400)
        let id = RecentDocumentText.itemID(for: long)
        #expect(id.utf8.count <= ItemLimits.maximumIDBytes)
        #expect(id == RecentDocumentText.itemID(for: long))
        #expect(id != RecentDocumentText.itemID(for: long + "x"))
    }

    @Test("an Exec takes files when it has %f, %F, %u or %U", arguments: [
        ("gedit %U", true), ("gedit %f", true), ("a %F", true), ("a %u", true), ("gedit", false),
        ("gedit %%u", false), ("gedit %i %c", false), ("", false),
    ])
    func takesFiles(_ exec: String, _ expected: Bool) {
        #expect(ExecFieldCodes.takesFiles(exec) == expected)
    }
}

import Foundation
import QuickActionsTestSupport
