import Foundation
import QuickActionsTestSupport
import Testing
@testable import QuickActionsBundles
@testable import QuickActionsModel

@Suite struct BundleManifestTests {
    @Test(arguments: [PropertyListSerialization.PropertyListFormat.xml, .binary])
    func readsEveryKey(_ format: PropertyListSerialization.PropertyListFormat) throws {
        let data = try BundleFixtures.data(BundleFixtures.fullInfoPlist(), format: format)
        let (manifest, diagnostics) = try BundleManifest.parse(infoPlist: data, path: "/b/Info.plist")
        #expect(diagnostics.isEmpty)
        #expect(manifest.appID.rawValue == "com.example.music")
        #expect(manifest.executable == "libMusic.so")
        #expect(manifest.displayName == "Music")
        #expect(manifest.displayNameKey == "CFBundleDisplayName")
        #expect(manifest.version == "2.1")
        #expect(manifest.icon == .symbol("multimedia-player"))
        #expect(manifest.developmentRegion == "en")
        #expect(manifest.items.map(\.type) == ["com.example.music.play", "com.example.music.search", "com.example.music.cover"])
        let play = try #require(manifest.items.first)
        #expect(play.title == "Play")
        #expect(play.subtitle == "Resume playback")
        #expect(play.icon == .type(.play))
        #expect(manifest.items[1].icon == .symbol("magnifyingglass"))
        #expect(manifest.items[2].icon == .file("icons/cover.png"))
    }

    @Test(arguments: [PropertyListSerialization.PropertyListFormat.xml, .binary])
    func userInfoKeepsEveryType(_ format: PropertyListSerialization.PropertyListFormat) throws {
        let data = try BundleFixtures.data(BundleFixtures.fullInfoPlist(), format: format)
        let userInfo = try #require(try BundleManifest.parse(infoPlist: data).manifest.items.first).userInfo
        let expected: UserInfo = [
            "string": .string("text"),
            "yes": .bool(true),
            "no": .bool(false),
            "int": .int(42),
            "negative": .int(-7),
            "big": .int(.max),
            "double": .double(2.5),
            "whole double": .double(2.0),
            "bytes": .bytes([0, 1, 255]),
            "date": .string("2023-11-14T22:13:20Z"),
            "array": .array([.int(1), .string("two"), .array([.double(3.5)])]),
            "dict": .dictionary(["nested": .dictionary(["deeper": .bool(true)])]),
        ]
        #expect(userInfo == expected)
    }

    /// Integers 0 and 1 must not turn into booleans, nor booleans into integers, in a plist
    /// written by hand (as plugin authors do).
    @Test func zeroAndOneStayIntegersAndRealsStayReals() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            <key>CFBundleIdentifier</key><string>com.example.x</string>
            <key>CFBundleExecutable</key><string>libx.so</string>
            <key>UIApplicationShortcutItems</key><array><dict>
              <key>UIApplicationShortcutItemType</key><string>t</string>
              <key>UIApplicationShortcutItemTitle</key><string>T</string>
              <key>UIApplicationShortcutItemUserInfo</key><dict>
                <key>zero</key><integer>0</integer>
                <key>one</key><integer>1</integer>
                <key>true</key><true/>
                <key>false</key><false/>
                <key>real one</key><real>1</real>
                <key>real zero</key><real>0.0</real>
                <key>min</key><integer>-9223372036854775808</integer>
              </dict>
            </dict></array>
            </dict></plist>
            """
        let items = try BundleManifest.parse(infoPlist: Data(xml.utf8)).manifest.items
        #expect(items.first?.userInfo == [
            "zero": .int(0), "one": .int(1), "true": .bool(true), "false": .bool(false),
            "real one": .double(1), "real zero": .double(0), "min": .int(.min),
        ])
    }

    @Test func displayNameFallsBackToNameThenIdentifier() throws {
        var plist = BundleFixtures.minimal()
        plist["CFBundleName"] = "Short"
        var manifest = try BundleManifest.parse(infoPlist: BundleFixtures.data(plist)).manifest
        #expect(manifest.displayName == "Short")
        #expect(manifest.displayNameKey == "CFBundleName")
        manifest = try BundleManifest.parse(infoPlist: BundleFixtures.data(BundleFixtures.minimal())).manifest
        #expect(manifest.displayName == "com.example.app")
        #expect(manifest.displayNameKey == nil)
    }

    @Test(arguments: [
        ("org.gnome.Contacts", "org.gnome.Contacts.desktop"),
        ("org.gnome.Contacts.desktop", "org.gnome.Contacts.desktop"),
        ("firefox-esr", "firefox-esr.desktop"),
    ])
    func desktopEntryIsADesktopFileIDWithItsSuffix(value: String, id: String) throws {
        var plist = BundleFixtures.minimal()
        plist["QuickActionsDesktopEntry"] = value
        let (manifest, diagnostics) = try BundleManifest.parse(infoPlist: BundleFixtures.data(plist))
        #expect(manifest.desktopEntry == id)
        #expect(diagnostics.isEmpty)
    }

    @Test(arguments: ["", "../x.desktop", "a/b", ".hidden", "with space", ".desktop"])
    func aBadDesktopEntryIsIgnoredWithAWarningNamingIt(value: String) throws {
        var plist = BundleFixtures.minimal()
        plist["QuickActionsDesktopEntry"] = value
        let (manifest, diagnostics) = try BundleManifest.parse(infoPlist: BundleFixtures.data(plist))
        #expect(manifest.desktopEntry == nil)
        #expect(diagnostics.map(\.reason) == ["QuickActionsDesktopEntry \"\(value)\" is not a desktop file id (such as org.example.App.desktop); ignored"])
    }

    @Test func iconFileIsUsedWithoutIconName() throws {
        var plist = BundleFixtures.minimal()
        plist["CFBundleIconFile"] = "Icon"
        #expect(try BundleManifest.parse(infoPlist: BundleFixtures.data(plist)).manifest.icon == .file("Icon"))
    }

    @Test(arguments: [
        ("not a plist at all <<<", "is not a property list"),
        ("", "is not a property list"),
    ])
    func brokenPlistFailsWithPathAndReason(_ text: String, _ reason: String) {
        do {
            _ = try BundleManifest.parse(infoPlist: Data(text.utf8), path: "/plugins/x/Info.plist")
            Issue.record("expected an error")
        } catch {
            #expect(error.path == "/plugins/x/Info.plist")
            #expect(error.reason.contains(reason), "reason: \(error.reason)")
            #expect(error.diagnostic.severity == .error)
        }
    }

    @Test func requiredKeysAreChecked() throws {
        let missingID: [String: Any] = ["CFBundleExecutable": "libx.so"]
        #expect(throws: BundleError.missingKey(path: "p", key: "CFBundleIdentifier")) {
            try BundleManifest.parse(infoPlist: BundleFixtures.data(missingID), path: "p")
        }
        let missingExecutable: [String: Any] = ["CFBundleIdentifier": "com.example.x"]
        #expect(throws: BundleError.missingKey(path: "p", key: "CFBundleExecutable")) {
            try BundleManifest.parse(infoPlist: BundleFixtures.data(missingExecutable), path: "p")
        }
        let numberID: [String: Any] = ["CFBundleIdentifier": 3, "CFBundleExecutable": "libx.so"]
        #expect(throws: BundleError.self) { try BundleManifest.parse(infoPlist: BundleFixtures.data(numberID)) }
        let badID = BundleFixtures.minimal(id: "no-dots")
        #expect(throws: BundleError.invalidAppID(path: "p", AppIDError(value: "no-dots", reason: .tooFewElements))) {
            try BundleManifest.parse(infoPlist: BundleFixtures.data(badID), path: "p")
        }
        for executable in ["../libx.so", "lib/x.so", "", ".."] {
            var plist = BundleFixtures.minimal()
            plist["CFBundleExecutable"] = executable
            #expect(throws: BundleError.self, "executable \(executable)") {
                try BundleManifest.parse(infoPlist: BundleFixtures.data(plist))
            }
        }
    }

    @Test func topLevelArrayIsRefused() throws {
        let data = try PropertyListSerialization.data(fromPropertyList: ["a"], format: .xml, options: 0)
        #expect(throws: BundleError.notADictionary(path: "p", found: "an array")) {
            try BundleManifest.parse(infoPlist: data, path: "p")
        }
    }

    @Test func brokenItemsAreSkippedAndSiblingsKept() throws {
        let items: [[String: Any]] = [
            ["UIApplicationShortcutItemType": "first", "UIApplicationShortcutItemTitle": "First"],
            ["UIApplicationShortcutItemTitle": "No type"],
            ["UIApplicationShortcutItemType": "no-title"],
            ["UIApplicationShortcutItemType": "bad-icon", "UIApplicationShortcutItemTitle": "Bad icon",
             "UIApplicationShortcutItemIconType": "UIApplicationShortcutIconTypeRocket"],
            ["UIApplicationShortcutItemType": "empty-title", "UIApplicationShortcutItemTitle": ""],
            ["UIApplicationShortcutItemType": "number-subtitle", "UIApplicationShortcutItemTitle": "S",
             "UIApplicationShortcutItemSubtitle": 5],
            ["UIApplicationShortcutItemType": "bad-user-info", "UIApplicationShortcutItemTitle": "U",
             "UIApplicationShortcutItemUserInfo": "not a dictionary"],
            ["UIApplicationShortcutItemType": String(repeating: "t", count: 256), "UIApplicationShortcutItemTitle": "Long"],
            ["UIApplicationShortcutItemType": "last", "UIApplicationShortcutItemTitle": "Last"],
        ]
        let data = try BundleFixtures.data(BundleFixtures.minimal(items: items))
        let (manifest, diagnostics) = try BundleManifest.parse(infoPlist: data, path: "/p/app/Info.plist")
        #expect(manifest.items.map(\.type) == ["first", "last"])
        #expect(diagnostics.count == 7)
        #expect(diagnostics.allSatisfy { $0.severity == .warning && $0.file == "/p/app/Info.plist" })
        let expectations = [
            (1, "no UIApplicationShortcutItemType"),
            (2, "no UIApplicationShortcutItemTitle"),
            (3, "UIApplicationShortcutIconTypeRocket"),
            (4, "no UIApplicationShortcutItemTitle"),
            (5, "UIApplicationShortcutItemSubtitle is an integer"),
            (6, "UIApplicationShortcutItemUserInfo is a string"),
            (7, "type is 256 bytes, more than 255"),
        ]
        for ((index, reason), diagnostic) in zip(expectations, diagnostics) {
            #expect(diagnostic.reason.contains("com.example.app"))
            #expect(diagnostic.reason.contains("UIApplicationShortcutItems[\(index)]"), "\(diagnostic.reason)")
            #expect(diagnostic.reason.contains(reason), "\(diagnostic.reason)")
        }
    }

    @Test func userInfoDeeperThanTheLimitSkipsTheItem() throws {
        var nested: Any = "leaf"
        for _ in 0..<(ItemLimits.maximumUserInfoDepth) { nested = [nested] }
        let items: [[String: Any]] = [
            ["UIApplicationShortcutItemType": "deep", "UIApplicationShortcutItemTitle": "Deep",
             "UIApplicationShortcutItemUserInfo": ["k": nested]],
            ["UIApplicationShortcutItemType": "ok", "UIApplicationShortcutItemTitle": "OK"],
        ]
        let (manifest, diagnostics) = try BundleManifest.parse(infoPlist: BundleFixtures.data(BundleFixtures.minimal(items: items)))
        #expect(manifest.items.map(\.type) == ["ok"])
        #expect(diagnostics.first?.reason.contains("nested deeper than \(ItemLimits.maximumUserInfoDepth)") == true)
    }

    @Test func iconKeyPrecedenceIsSymbolThenFileThenType() throws {
        let items: [[String: Any]] = [[
            "UIApplicationShortcutItemType": "t", "UIApplicationShortcutItemTitle": "T",
            "UIApplicationShortcutItemIconType": "UIApplicationShortcutIconTypeHome",
            "UIApplicationShortcutItemIconFile": "f.png",
            "UIApplicationShortcutItemIconSymbolName": "house",
        ]]
        let manifest = try BundleManifest.parse(infoPlist: BundleFixtures.data(BundleFixtures.minimal(items: items))).manifest
        #expect(manifest.items.first?.icon == .symbol("house"))
    }

    @Test func survivesMutatedPlists() throws {
        var generator = SeededGenerator(seed: 42)
        let seeds = [
            try BundleFixtures.data(BundleFixtures.fullInfoPlist(), format: .xml),
            try BundleFixtures.data(BundleFixtures.fullInfoPlist(), format: .binary),
        ]
        for round in 0..<1_000 {
            var bytes = [UInt8](seeds[round % 2])
            for _ in 0..<Int.random(in: 1...8, using: &generator) {
                let index = Int.random(in: 0..<bytes.count, using: &generator)
                bytes[index] = UInt8.random(in: 0...255, using: &generator)
            }
            _ = try? BundleManifest.parse(infoPlist: Data(bytes))
        }
    }
}

extension BundleManifestTests {
    @Test func integerAboveInt64MaxSkipsTheItemRatherThanRounding() throws {
        let items: [[String: Any]] = [
            ["UIApplicationShortcutItemType": "huge", "UIApplicationShortcutItemTitle": "Huge",
             "UIApplicationShortcutItemUserInfo": ["n": UInt64.max]],
            ["UIApplicationShortcutItemType": "fine", "UIApplicationShortcutItemTitle": "Fine",
             "UIApplicationShortcutItemUserInfo": ["n": UInt64(Int64.max)]],
        ]
        let (manifest, diagnostics) = try BundleManifest.parse(infoPlist: BundleFixtures.data(BundleFixtures.minimal(items: items), format: .binary))
        #expect(manifest.items.map(\.type) == ["fine"])
        #expect(manifest.items.first?.userInfo["n"] == .int(.max))
        #expect(diagnostics.first?.reason.contains("UIApplicationShortcutItemUserInfo.n is the integer 18446744073709551615") == true,
                "\(diagnostics)")
    }
}
