import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import QuickActionsBundles
import QuickActionsModel
import QuickActionsTestSupport
import Testing

/// The assembled bundles as the broker reads them: static items, localisation and icons.
@Suite struct BundleContentsTests {
    /// One static item as a client sees it in English: type, title, subtitle, resolved icon
    /// (a freedesktop name, or a file relative to the bundle).
    struct Listed: Hashable, CustomStringConvertible {
        var type: String
        var title: String
        var subtitle: String?
        var icon: String

        var description: String { "\(type) \"\(title)\" \"\(subtitle ?? "-")\" \(icon)" }
    }

    static let stacks = "com.example.stacks"

    static let expected: [(example: String, appID: String, name: String, icon: String, items: [Listed])] = [
        ("Contacts", "com.example.contacts", "Contacts", "x-office-address-book", [
            Listed(type: "SearchAction", title: "Search", subtitle: "Search for an item", icon: "system-search"),
            Listed(type: "ShareAction", title: "Share", subtitle: "Share an item", icon: "document-send"),
        ]),
        ("Favorites", "com.example.favorites", "Favorites", "emblem-favorite", [
            Listed(type: "browseAction", title: "Browse", subtitle: "Find something to like", icon: "system-search"),
        ]),
        ("Music", "com.example.music", "Music", "audio-x-generic", [
            Listed(type: "PlayMusic", title: "Play", subtitle: "Start playback", icon: "media-playback-start"),
        ]),
        ("Stacks", stacks, "Stacks", "file:Icons/stacks.svg", [
            Listed(type: "\(stacks).OpenFavorites", title: "Favorites", subtitle: "What you like",
                   icon: "file:Icons/favorites.svg"),
            Listed(type: "\(stacks).OpenFeatured", title: "Featured", subtitle: "Our picks for you",
                   icon: "file:Icons/featured.svg"),
            Listed(type: "\(stacks).OpenTopRated", title: "Top Rated", subtitle: "What others like most",
                   icon: "file:Icons/toprated.svg"),
        ]),
    ]

    @Test(arguments: expected)
    func staticItemsReadAsDeclared(
        _ example: String, _ appID: String, _ name: String, _ appIcon: String, _ items: [Listed]
    ) async throws {
        let examples = try await AssembledExamples([example])
        defer { examples.remove() }
        let bundle = try examples.bundle(example)
        #expect(bundle.appID.rawValue == appID)
        #expect(bundle.displayName(locale: "en_US.UTF-8") == name)
        let listed = try bundle.localizedStaticItems(locale: "en_US.UTF-8").map { item in
            Listed(type: item.type, title: item.title, subtitle: item.subtitle,
                   icon: try item.icon.map { try relative(bundle.resolvedIcon($0), to: bundle) } ?? "none")
        }
        #expect(listed == items)
        #expect(try bundle.manifest.icon.map { try relative(bundle.resolvedIcon($0), to: bundle) } == appIcon)
    }

    static let localized: [(example: String, locale: String, name: String, titles: [String], subtitles: [String])] = [
        ("Stacks", "de_DE.UTF-8", "Stapel", ["Favoriten", "Empfohlen", "Am besten bewertet"],
         ["Was dir gefällt", "Unsere Auswahl für dich", "Was anderen am besten gefällt"]),
        ("Stacks", "de_AT", "Stapel", ["Favoriten", "Empfohlen", "Am besten bewertet"],
         ["Was dir gefällt", "Unsere Auswahl für dich", "Was anderen am besten gefällt"]),
        ("Stacks", "fr_FR.UTF-8", "Stacks", ["Favorites", "Featured", "Top Rated"],
         ["What you like", "Our picks for you", "What others like most"]),
        ("Contacts", "de_CH.UTF-8", "Kontakte", ["Suchen", "Teilen"], ["Nach einem Eintrag suchen", "Einen Eintrag teilen"]),
        ("Music", "de", "Musik", ["Abspielen"], ["Wiedergabe starten"]),
        ("Favorites", "de_DE", "Favoriten", ["Stöbern"], ["Etwas finden, das dir gefällt"]),
        ("Favorites", "C", "Favorites", ["Browse"], ["Find something to like"]),
    ]

    @Test(arguments: localized)
    func titlesAreLocalised(
        _ example: String, _ locale: String, _ name: String, _ titles: [String], _ subtitles: [String]
    ) async throws {
        let examples = try await AssembledExamples([example])
        defer { examples.remove() }
        let bundle = try examples.bundle(example)
        let items = bundle.localizedStaticItems(locale: locale)
        #expect(bundle.displayName(locale: locale) == name)
        #expect(items.map(\.title) == titles)
        #expect(items.map(\.subtitle) == subtitles)
    }

    @Test func stacksCarriesItsVersionInEveryItem() async throws {
        let examples = try await AssembledExamples(["Stacks"])
        defer { examples.remove() }
        let bundle = try examples.bundle("Stacks")
        let version = try #require(bundle.manifest.version)
        #expect(!version.isEmpty)
        for item in bundle.staticItems {
            #expect(item.userInfo["version"] == .string(version), "\(item.type): \(item.userInfo)")
        }
    }

    @Test func musicDeclaresItsPlaylistInUserInfo() async throws {
        let examples = try await AssembledExamples(["Music"])
        defer { examples.remove() }
        let play = try #require(try examples.bundle("Music").staticItems.first)
        #expect(play.userInfo == ["playlist": .string("Recently Added"), "shuffle": .bool(true)])
    }

    @Test func stacksIconsAreSVGFilesInsideTheBundle() async throws {
        let examples = try await AssembledExamples(["Stacks"])
        defer { examples.remove() }
        let bundle = try examples.bundle("Stacks")
        let icons = bundle.staticItems.compactMap(\.icon) + [bundle.manifest.icon].compactMap { $0 }
        #expect(icons.count == 4)
        for icon in icons {
            let path = try bundle.resolvedIcon(icon)
            #expect(path.hasPrefix(realPath(bundle.url) + "/"), "\(path) is outside the bundle")
            let root = try SVGRoot(URL(fileURLWithPath: path))
            #expect(root.name == "svg", "\(path): root element \(root.name ?? "none")")
            #expect(root.attributes["xmlns"] == "http://www.w3.org/2000/svg", "\(path)")
        }
    }

    /// "file:<path relative to the bundle>" for a resolved file, else the icon name.
    private func relative(_ resolved: String, to bundle: PluginBundle) -> String {
        let root = realPath(bundle.url) + "/"
        return resolved.hasPrefix(root) ? "file:" + resolved.dropFirst(root.count) : resolved
    }

    private func realPath(_ url: URL) -> String {
        url.resolvingSymlinksInPath().path
    }
}

/// The root element of an XML file, parsed with Foundation's XMLParser.
private final class SVGRoot: NSObject, XMLParserDelegate {
    var name: String?
    var attributes: [String: String] = [:]

    init(_ url: URL) throws {
        super.init()
        let parser = XMLParser(data: try Data(contentsOf: url))
        parser.delegate = self
        guard parser.parse() else {
            throw TestSupportError("\(url.path) is not well-formed XML: \(parser.parserError.map { "\($0)" } ?? "?")")
        }
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String]
    ) {
        guard name == nil else { return }
        name = elementName
        self.attributes = attributes
    }
}
