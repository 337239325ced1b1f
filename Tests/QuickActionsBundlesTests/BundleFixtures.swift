import Foundation
@testable import QuickActionsBundles
@testable import QuickActionsModel

/// Info.plist dictionaries and bundle folders for tests.
enum BundleFixtures {
    /// A manifest using every key issue 3 lists.
    static func fullInfoPlist() -> [String: Any] {
        [
            "CFBundleIdentifier": "com.example.music",
            "CFBundleExecutable": "libMusic.so",
            "CFBundleDisplayName": "Music",
            "CFBundleName": "MusicApp",
            "CFBundleShortVersionString": "2.1",
            "CFBundleIconName": "multimedia-player",
            "CFBundleIconFile": "Icon.png",
            "CFBundleDevelopmentRegion": "en",
            "UIApplicationShortcutItems": [
                [
                    "UIApplicationShortcutItemType": "com.example.music.play",
                    "UIApplicationShortcutItemTitle": "Play",
                    "UIApplicationShortcutItemSubtitle": "Resume playback",
                    "UIApplicationShortcutItemIconType": "UIApplicationShortcutIconTypePlay",
                    "UIApplicationShortcutItemUserInfo": [
                        "string": "text", "yes": true, "no": false, "int": 42, "negative": -7,
                        "big": Int64.max, "double": 2.5, "whole double": 2.0, "bytes": Data([0, 1, 255]),
                        "date": Date(timeIntervalSince1970: 1_700_000_000),
                        "array": [1, "two", [3.5]] as [Any], "dict": ["nested": ["deeper": true]],
                    ] as [String: Any],
                ],
                [
                    "UIApplicationShortcutItemType": "com.example.music.search",
                    "UIApplicationShortcutItemTitle": "Search",
                    "UIApplicationShortcutItemIconSymbolName": "magnifyingglass",
                ],
                [
                    "UIApplicationShortcutItemType": "com.example.music.cover",
                    "UIApplicationShortcutItemTitle": "Cover",
                    "UIApplicationShortcutItemIconFile": "icons/cover.png",
                ],
            ],
        ]
    }

    static func data(_ plist: [String: Any], format: PropertyListSerialization.PropertyListFormat = .xml) throws -> Data {
        try PropertyListSerialization.data(fromPropertyList: plist, format: format, options: 0)
    }

    static func minimal(id: String = "com.example.app", items: [[String: Any]] = []) -> [String: Any] {
        var plist: [String: Any] = ["CFBundleIdentifier": id, "CFBundleExecutable": "libapp.so"]
        if !items.isEmpty { plist["UIApplicationShortcutItems"] = items }
        return plist
    }

    /// Writes a bundle folder `name` under `directory` with `plist` and an empty executable.
    @discardableResult
    static func writeBundle(
        _ name: String, in directory: TemporaryDirectory, plist: [String: Any], under parent: String = ""
    ) throws -> URL {
        let folder = parent.isEmpty ? name : parent + "/" + name
        try directory.write(try data(plist), to: folder + "/Info.plist")
        if let executable = plist["CFBundleExecutable"] as? String {
            try directory.write(Data(), to: folder + "/" + executable)
        }
        return directory.url.appendingPathComponent(folder, isDirectory: true)
    }
}
