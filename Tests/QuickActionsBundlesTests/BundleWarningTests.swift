import Foundation
import Testing
@testable import QuickActionsBundles
@testable import QuickActionsModel

/// Bundle checks say what is wrong: a misspelt key names the likely one, and
/// an icon file that is missing or leads out of the bundle is a warning.
@Suite struct BundleWarningTests {
    static var item: [String: Any] {
        ["UIApplicationShortcutItemType": "play", "UIApplicationShortcutItemTitle": "Play"]
    }

    @Test("a misspelt top-level key is a warning naming the likely key", arguments: [
        ("UIApplicationShortcutItmes", "UIApplicationShortcutItems"),
        ("CFBundleIdentifer", "CFBundleIdentifier"),
        ("cfbundledisplayname", "CFBundleDisplayName"),
        ("CFBundleExecutible", "CFBundleExecutable"),
    ])
    func misspeltTopLevelKey(_ key: String, _ likely: String) throws {
        var plist = BundleFixtures.minimal()
        plist[key] = key == "UIApplicationShortcutItmes" ? [Self.item] as [Any] : "x"
        let (_, diagnostics) = try BundleManifest.parse(infoPlist: try BundleFixtures.data(plist))
        #expect(diagnostics.map(\.reason) == ["unknown key \"\(key)\" is ignored; did you mean \(likely)?"])
        #expect(diagnostics.allSatisfy { $0.severity == .warning })
    }

    @Test("a misspelt item key is a warning naming the item and the likely key", arguments: [
        ("UIApplicationShortcutItemSubTitle", "UIApplicationShortcutItemSubtitle"),
        ("UIApplicationShortcutItemIconTyp", "UIApplicationShortcutItemIconType"),
        ("UIApplicationShortcutItemUserinfo", "UIApplicationShortcutItemUserInfo"),
    ])
    func misspeltItemKey(_ key: String, _ likely: String) throws {
        var item = Self.item
        item[key] = "x"
        let (manifest, diagnostics) = try BundleManifest.parse(
            infoPlist: try BundleFixtures.data(BundleFixtures.minimal(items: [item])))
        #expect(diagnostics.map(\.reason) == [
            "com.example.app: UIApplicationShortcutItems[0]: unknown key \"\(key)\" is ignored; did you mean \(likely)?",
        ])
        #expect(manifest.items.map(\.type) == ["play"], "the item is kept")
    }

    @Test("keys far from every known one, and known keys, are not remarked on")
    func unrelatedKeys() throws {
        var plist = BundleFixtures.minimal(items: [Self.item])
        plist["CFBundleVersion"] = "7"
        plist["NSHumanReadableCopyright"] = "© me"
        plist["LSMinimumSystemVersion"] = "10"
        plist[String(repeating: "CFBundleIdentifier", count: 1000)] = "long"
        let (_, diagnostics) = try BundleManifest.parse(infoPlist: try BundleFixtures.data(plist))
        #expect(diagnostics.isEmpty, "\(diagnostics)")
    }

    @Test func editDistanceCountsInsertionsDeletionsAndSubstitutions() {
        func distance(_ a: String, _ b: String) -> Int {
            KeySuggestion.editDistance(Array(a.utf8), Array(b.utf8), bound: 5)
        }
        #expect(distance("Items", "Itmes") == 2)
        #expect(distance("Identifier", "Identifer") == 1)
        #expect(distance("abc", "abc") == 0)
        #expect(distance("", "abc") == 3)
        #expect(distance("kitten", "sitting") == 3)
        #expect(KeySuggestion.editDistance(Array("abcdefgh".utf8), Array("zyxwvuts".utf8), bound: 2) == 3)
    }

    @Test("a static icon file that is missing or leads out of the bundle is a warning; the item stays", arguments: [
        ("icons/missing.png", "No such file or directory"),
        ("../outside.png", "has a '..' component"),
        ("escape.png", "outside the bundle"),
    ])
    func badStaticIconFile(_ file: String, _ reason: String) throws {
        let directory = try TemporaryDirectory()
        var item = Self.item
        item["UIApplicationShortcutItemIconFile"] = file
        let url = try BundleFixtures.writeBundle("App", in: directory, plist: BundleFixtures.minimal(items: [item]))
        try FileManager.default.createSymbolicLink(
            at: url.appendingPathComponent("escape.png"), withDestinationURL: URL(fileURLWithPath: "/etc/hostname"))
        let outcome = BundleReader.read(bundleAt: url)
        let bundle = try #require(outcome.bundle)
        #expect(bundle.staticItems.map(\.type) == ["play"])
        #expect(outcome.diagnostics.count == 1, "\(outcome.diagnostics)")
        let warning = try #require(outcome.diagnostics.first)
        #expect(warning.severity == .warning)
        #expect(warning.reason.hasPrefix("com.example.app: UIApplicationShortcutItems[0] (type \"play\"): icon file"))
        #expect(warning.reason.contains(reason), "\(warning)")
    }

    @Test func aPresentIconFileGivesNoWarning() throws {
        let directory = try TemporaryDirectory()
        var item = Self.item
        item["UIApplicationShortcutItemIconFile"] = "icons/play.png"
        var plist = BundleFixtures.minimal(items: [item])
        plist["CFBundleIconFile"] = "AppIcon"
        let url = try BundleFixtures.writeBundle("App", in: directory, plist: plist)
        try directory.write(Data(), to: "App/icons/play.png")
        try directory.write(Data(), to: "App/AppIcon.svg")
        let outcome = BundleReader.read(bundleAt: url)
        #expect(outcome.diagnostics.isEmpty, "\(outcome.diagnostics)")
    }
}
