import Foundation
import Testing
@testable import QuickActionsModel

@Suite struct IconTableTests {
    static let adwaita = "/usr/share/icons/Adwaita"

    @Test func everyIconTypeHasARow() {
        let keys = Set(IconTable.rows.map(\.ios))
        for type in ShortcutIconType.allCases {
            #expect(keys.contains(type.rawValue), "no row for \(type.rawValue)")
        }
        #expect(ShortcutIconType.allCases.count == 29)
    }

    @Test func noKeyRepeats() {
        var seen: Set<String> = []
        for row in IconTable.rows {
            #expect(seen.insert(row.ios).inserted, "\(row.ios) appears twice")
        }
    }

    @Test(arguments: [
        "heart", "heart.fill", "star", "star.fill", "magnifyingglass", "square.and.arrow.up", "play.fill",
        "pause.fill", "plus", "person.crop.circle", "house", "envelope", "message", "calendar", "clock",
        "camera", "bookmark", "shuffle", "music.note", "arrow.clockwise", "location", "trash", "gear",
        "square.and.pencil",
    ])
    func commonSymbolsAreMapped(_ symbol: String) {
        #expect(IconTable.entries[symbol] != nil)
        #expect(IconTable.name(forSymbol: symbol) != symbol)
    }

    @Test(.enabled(
        if: FileManager.default.fileExists(atPath: IconTableTests.adwaita),
        "/usr/share/icons/Adwaita is missing: install adwaita-icon-theme to check the icon table against it"
    ))
    func everyNameExistsInTheInstalledAdwaitaTheme() throws {
        let present = try Self.iconNames(in: Self.adwaita)
        for row in IconTable.rows {
            let found = present.contains(row.freedesktop) || present.contains(row.freedesktop + "-symbolic")
            #expect(found, "\(row.freedesktop) (for \(row.ios)) is not in \(Self.adwaita)")
        }
    }

    /// Every icon name in a theme: file names without their extensions (`x.svg`, `x.symbolic.png`).
    static func iconNames(in theme: String) throws -> Set<String> {
        var names: Set<String> = []
        guard let walker = FileManager.default.enumerator(atPath: theme) else { return names }
        for case let path as String in walker {
            var name = (path as NSString).lastPathComponent
            for suffix in [".symbolic.png", ".png", ".svg", ".xpm"] where name.hasSuffix(suffix) {
                name.removeLast(suffix.count)
                names.insert(name)
                break
            }
        }
        return names
    }

    @Test func typesAndSymbolsResolveThroughTheTable() throws {
        let bundle = URL(fileURLWithPath: "/nonexistent")
        #expect(try IconTable.resolve(.type(.search), bundle: bundle) == "system-search")
        #expect(try IconTable.resolve(.type(.play), bundle: bundle) == "media-playback-start")
        #expect(try IconTable.resolve(.symbol("heart.fill"), bundle: bundle) == "emblem-favorite")
        #expect(try IconTable.resolve(.symbol("org.example.custom-icon"), bundle: bundle) == "org.example.custom-icon")
        #expect(try IconTable.resolve(.symbol("UIApplicationShortcutIconTypeHome"), bundle: bundle) == "go-home")
    }

    @Test(arguments: [
        (ShortcutIcon.symbol(""), IconError.emptyName),
        (.symbol("/etc/passwd"), .invalidName("/etc/passwd", reason: "contains '/'")),
        (.symbol("a\nb"), .invalidName("a\nb", reason: "contains a control character")),
        (.file(""), .emptyName),
        (.file("/etc/passwd"), .absolutePath("/etc/passwd")),
        (.file("../outside.png"), .parentReference("../outside.png")),
        (.file("icons/../../outside.png"), .parentReference("icons/../../outside.png")),
    ])
    func refusesInvalidNamesAndPaths(_ icon: ShortcutIcon, _ expected: IconError) throws {
        let directory = try TemporaryDirectory()
        #expect(throws: expected) { try IconTable.resolve(icon, bundle: directory.url) }
    }

    @Test func fileInsideTheBundleResolvesToItsAbsolutePath() throws {
        let directory = try TemporaryDirectory()
        let bundle = try directory.makeFolder("App")
        try directory.write("png", to: "App/icons/cover.png")
        try directory.write("svg", to: "App/Icon.svg")
        let real = try #require(realpath(bundle.path, nil).map { pointer in
            defer { free(pointer) }
            return String(cString: pointer)
        })
        #expect(try IconTable.resolve(.file("icons/cover.png"), bundle: bundle) == real + "/icons/cover.png")
        #expect(try IconTable.resolve(.file("./icons/cover.png"), bundle: bundle) == real + "/icons/cover.png")
        #expect(try IconTable.resolve(.file("Icon"), bundle: bundle) == real + "/Icon.svg")
        #expect(throws: IconError.self) { try IconTable.resolve(.file("missing.png"), bundle: bundle) }
        #expect(throws: IconError.notARegularFile(path: real + "/icons")) {
            try IconTable.resolve(.file("icons"), bundle: bundle)
        }
    }

    @Test func symlinkPointingOutsideTheBundleIsRefused() throws {
        let directory = try TemporaryDirectory()
        let bundle = try directory.makeFolder("App")
        let secret = try directory.write("secret", to: "secret.png")
        #expect(symlink(secret.path, bundle.path + "/escape.png") == 0)
        #expect(symlink(directory.path, bundle.path + "/up") == 0)
        do {
            _ = try IconTable.resolve(.file("escape.png"), bundle: bundle)
            Issue.record("expected the symlink to be refused")
        } catch {
            guard case .escapesBundle(let path, let resolved) = error else {
                Issue.record("expected escapesBundle, got \(error)")
                return
            }
            #expect(path == "escape.png")
            #expect(resolved.hasSuffix("/secret.png"))
            #expect(error.description.contains("escape.png"))
        }
        #expect(throws: IconError.self) { try IconTable.resolve(.file("up/secret.png"), bundle: bundle) }
    }

    @Test func symlinkInsideTheBundleIsAllowed() throws {
        let directory = try TemporaryDirectory()
        let bundle = try directory.makeFolder("App")
        try directory.write("png", to: "App/real.png")
        #expect(symlink("real.png", bundle.path + "/alias.png") == 0)
        let resolved = try IconTable.resolve(.file("alias.png"), bundle: bundle)
        #expect(resolved.hasSuffix("/App/real.png"))
    }
}
