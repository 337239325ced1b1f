import QuickActionsProviding
import Testing

@testable import QuickActionsProviders

@Suite("Recent document matching")
struct RecentDocumentMatchingTests {
    static let programs: [(exec: String, program: String?)] = [
        ("'gedit %u'", "gedit"),  // as GLib writes it: the whole command line quoted once
        ("gedit %u", "gedit"),
        ("/usr/bin/gedit --new-window %U", "gedit"),
        ("'/usr/bin/gedit %u'", "gedit"),
        ("\"/opt/My App/app\" %u", "app"),
        ("'\"/opt/My App/app\" %u'", "app"),
        ("'/opt/My App/app' %u", "app"),
        ("  eog  ", "eog"),
        ("'it'\\''s %u'", "it's"),
        ("", nil),
        ("'unterminated", nil),
        ("\"unterminated", nil),
    ]

    @Test("finds the program of a bookmark's exec, in either quoting", arguments: programs.indices)
    func program(_ index: Int) {
        let (exec, program) = Self.programs[index]
        #expect(RecentDocumentMatcher.program(ofBookmarkExec: exec) == program, "exec \(exec)")
    }

    static let apps: [String: InstalledApplication] = [
        "org.gnome.gedit": .make("org.gnome.gedit", name: "Text Editor", exec: "/usr/bin/gedit --new-window %U"),
        "org.gnome.eog": .make("org.gnome.eog", name: "Image Viewer", exec: "eog %U"),
        "org.gnome.Totem": .make("org.gnome.Totem", name: "Videos", exec: "totem %U"),
        "org.flatpak.One": .make("org.flatpak.One", name: "One", exec: "/usr/bin/flatpak run org.flatpak.One %U"),
        "org.flatpak.Two": .make("org.flatpak.Two", name: "Two", exec: "/usr/bin/flatpak run org.flatpak.Two %U"),
    ]

    static let rules: [(name: String, application: BookmarkApplication, expected: Set<String>)] = [
        ("exec program equals the entry's program", .init(name: "x", exec: "'gedit %u'"), ["org.gnome.gedit"]),
        ("exec program equals the desktop id", .init(name: "x", exec: "'org.gnome.Totem %u'"), ["org.gnome.Totem"]),
        ("name equals the untranslated Name", .init(name: "Image Viewer", exec: "'viewer %u'"), ["org.gnome.eog"]),
        ("both rules name the same app once", .init(name: "Text Editor", exec: "'gedit %u'"), ["org.gnome.gedit"]),
        ("name and exec of different apps", .init(name: "Videos", exec: "'eog %u'"), ["org.gnome.eog", "org.gnome.Totem"]),
        ("a wrapper program matches nobody", .init(name: "flatpak", exec: "'flatpak run x %u'"), []),
        ("a Flatpak app by its desktop id", .init(name: "z", exec: "'org.flatpak.One %u'"), ["org.flatpak.One"]),
        ("nothing in common", .init(name: "Unknown", exec: "'unknown %u'"), []),
        ("the name is compared whole", .init(name: "Text", exec: ""), []),
    ]

    @Test("matches a bookmark's application with an installed one", arguments: rules.indices)
    func matches(_ index: Int) {
        let (name, application, expected) = Self.rules[index]
        #expect(RecentDocumentMatcher(applications: Self.apps).appIDs(for: application) == expected, "\(name)")
    }

    static func bookmark(_ href: String, _ applications: [(String, Double)], isPrivate: Bool = false) -> Bookmark {
        Bookmark(
            href: href, mimeType: "text/plain",
            applications: applications.map { BookmarkApplication(name: $0.0, exec: "'\($0.0) %u'", modified: $0.1) },
            isPrivate: isPrivate)
    }

    @Test("orders each app's documents by its own application element's time, newest first, at most the limit")
    func ordersAndLimits() {
        let bookmarks = [
            Self.bookmark("file:///a", [("gedit", 10), ("eog", 50)]),
            Self.bookmark("file:///b", [("gedit", 30)]),
            Self.bookmark("file:///c", [("gedit", 20), ("eog", 5)]),
            Self.bookmark("file:///d", [("gedit", 40)]),
        ]
        let matcher = RecentDocumentMatcher(applications: Self.apps)
        let documents = matcher.documents(bookmarks, limit: 3) { _ in true }
        #expect(documents["org.gnome.gedit"]?.map(\.bookmark.href) == ["file:///d", "file:///b", "file:///c"])
        #expect(documents["org.gnome.eog"]?.map(\.bookmark.href) == ["file:///a", "file:///c"])
        #expect(documents["org.gnome.Totem"] == nil)
    }

    @Test("skips documents `keep` refuses and fills the limit from older ones")
    func skipsRefused() {
        let bookmarks = (0..<8).map { Self.bookmark("file:///\($0)", [("gedit", Double($0))]) }
        let documents = RecentDocumentMatcher(applications: Self.apps).documents(bookmarks, limit: 3) {
            $0.href != "file:///7" && $0.href != "file:///5"
        }
        #expect(documents["org.gnome.gedit"]?.map(\.bookmark.href) == ["file:///6", "file:///4", "file:///3"])
    }

    @Test("a private bookmark reaches only the apps it names, even one of the same MIME type")
    func privateBookmarks() {
        let bookmarks = [Self.bookmark("file:///secret.txt", [("gedit", 1)], isPrivate: true)]
        var apps = Self.apps
        apps["org.other.Editor"] = .make("org.other.Editor", name: "Other Editor", exec: "other-editor %F")
        let documents = RecentDocumentMatcher(applications: apps).documents(bookmarks, limit: 5) { _ in true }
        #expect(Set(documents.keys) == ["org.gnome.gedit"])
    }
}
