import Foundation

/// Writes plugin bundles for the benchmark: a folder per app with an Info.plist and its library.
///
/// Listing bundles hold 8 static items each, with the keys real apps use (a
/// title on all, a subtitle on half, an icon type or symbol, a small user info),
/// and an empty library file: listing never loads a plugin. Perform bundles
/// get their own copy of the benchmark plugin, so each first Perform really
/// maps a new library.
enum BundleGenerator {
    /// The app the Perform comparison calls, and its one item: the C plugin
    /// completing without a message.
    static let performAppID = "org.quickactions.bench.app"
    static let performType = "bench.perform"
    /// The C plugin again, completing with a message (item type "bench.message").
    static let cMessageAppID = "org.quickactions.bench.cmessage"
    /// The Swift SDK plugin, completing with a message.
    static let swiftMessageAppID = "org.quickactions.bench.swift"
    static let messageType = "bench.message"
    /// What both benchmark plugins complete `messageType` with (Tests/Plugins/BenchPlugin,
    /// BenchSwiftPlugin); the floor answering with it gives the broker's reply bytes.
    static let message = "Performed at once"
    /// The same three apps again, run in plugin host processes (issue 14); the three
    /// above are pinned in the broker's process (`--in-process`, issue 17).
    static let hostPerformAppID = "org.quickactions.bench.hostapp"
    static let hostCMessageAppID = "org.quickactions.bench.hostcmessage"
    static let hostSwiftMessageAppID = "org.quickactions.bench.hostswift"
    /// The apps pinned in process.
    static let inProcessAppIDs = [performAppID, cMessageAppID, swiftMessageAppID]
    static let itemsPerApp = 8

    /// The app id of listing bundle `index`.
    static func listingAppID(_ index: Int) -> String {
        "org.quickactions.bench.list\(String(format: "%04d", index))"
    }

    /// The app id of launch bundle `index`.
    static func launchAppID(_ index: Int) -> String {
        "org.quickactions.bench.launch\(String(format: "%03d", index))"
    }

    /// The app id of Swift SDK launch bundle `index`.
    static func swiftLaunchAppID(_ index: Int) -> String {
        "org.quickactions.bench.swiftlaunch\(String(format: "%03d", index))"
    }

    /// Writes `count` listing bundles into `directory` (created if needed).
    static func writeListingBundles(count: Int, into directory: URL) throws(BenchError) {
        for index in 0..<count {
            let appID = listingAppID(index)
            try writeBundle(appID: appID, displayName: "Bench App \(index)",
                            items: (0..<itemsPerApp).map { listingItem(appID: appID, index: $0) },
                            library: nil, into: directory)
        }
    }

    /// Writes a Perform bundle (one item, `type`) with a copy of `plugin`.
    static func writePerformBundle(
        appID: String = performAppID, type: String = performType, plugin: URL, into directory: URL
    ) throws(BenchError) {
        let item: [String: Any] = [
            "UIApplicationShortcutItemType": type,
            "UIApplicationShortcutItemTitle": "Perform at once",
        ]
        try writeBundle(appID: appID, displayName: "Bench", items: [item], library: plugin, into: directory)
    }

    private static func listingItem(appID: String, index: Int) -> [String: Any] {
        var item: [String: Any] = [
            "UIApplicationShortcutItemType": "\(appID).action\(index)",
            "UIApplicationShortcutItemTitle": "Action \(index)",
            "UIApplicationShortcutItemUserInfo": ["index": index, "mode": "fast"] as [String: Any],
        ]
        if index % 2 == 0 { item["UIApplicationShortcutItemSubtitle"] = "Does thing \(index)" }
        if index % 2 == 0 {
            item["UIApplicationShortcutItemIconType"] = "UIApplicationShortcutIconTypePlay"
        } else {
            item["UIApplicationShortcutItemIconSymbolName"] = "system-search"
        }
        return item
    }

    private static func writeBundle(
        appID: String, displayName: String, items: [[String: Any]], library: URL?, into directory: URL
    ) throws(BenchError) {
        let folder = directory.appendingPathComponent("\(appID).bundle", isDirectory: true)
        let executable = "lib\(appID.replacingOccurrences(of: ".", with: "_")).so"
        let plist: [String: Any] = [
            "CFBundleIdentifier": appID,
            "CFBundleExecutable": executable,
            "CFBundleDisplayName": displayName,
            "CFBundleShortVersionString": "1.0",
            "UIApplicationShortcutItems": items,
        ]
        let manager = FileManager.default
        let libraryURL = folder.appendingPathComponent(executable)
        do {
            try manager.createDirectory(at: folder, withIntermediateDirectories: true,
                                        attributes: [.posixPermissions: 0o755])
            let data = try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0)
            try data.write(to: folder.appendingPathComponent("Info.plist"))
            if let library {
                try manager.copyItem(at: library, to: libraryURL)
            } else {
                try Data().write(to: libraryURL)
            }
            // The loader refuses group- or world-writable bundles and libraries.
            try manager.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
            try manager.setAttributes([.posixPermissions: 0o644], ofItemAtPath: libraryURL.path)
        } catch {
            throw .file(path: folder.path, reason: "cannot write the bundle: \(error)")
        }
    }
}
