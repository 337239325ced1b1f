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
}
