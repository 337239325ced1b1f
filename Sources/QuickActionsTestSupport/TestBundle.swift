import Foundation

/// Writes plugin bundles for tests: an Info.plist from plain values, the
/// plugin library copied from the build products, optional .lproj tables.
public struct TestBundle: Sendable {
    public var appID: String
    /// The built library's product name, e.g. "QATestSwiftPlugin" (→ libQATestSwiftPlugin.so).
    public var library: String
    public var name: String?
    public var version: String?
    /// Static items as UIApplicationShortcutItems dictionaries.
    public var items: [[String: any Sendable]]
    /// lproj name → InfoPlist.strings text.
    public var strings: [String: String]
    public var extraInfo: [String: any Sendable]
    /// Further files inside the bundle (icons), by path relative to it.
    public var files: [String: String] = [:]

    public init(
        appID: String, library: String = "QATestSwiftPlugin", name: String? = nil, version: String? = "1.0",
        items: [[String: any Sendable]] = [], strings: [String: String] = [:], extraInfo: [String: any Sendable] = [:]
    ) {
        self.appID = appID
        self.library = library
        self.name = name
        self.version = version
        self.items = items
        self.strings = strings
        self.extraInfo = extraInfo
    }

    /// A static item dictionary with the iOS keys.
    public static func item(
        _ type: String, _ title: String, subtitle: String? = nil, iconType: String? = nil,
        userInfo: [String: any Sendable]? = nil
    ) -> [String: any Sendable] {
        var item: [String: any Sendable] = ["UIApplicationShortcutItemType": type, "UIApplicationShortcutItemTitle": title]
        if let subtitle { item["UIApplicationShortcutItemSubtitle"] = subtitle }
        if let iconType { item["UIApplicationShortcutItemIconType"] = iconType }
        if let userInfo { item["UIApplicationShortcutItemUserInfo"] = userInfo }
        return item
    }

    /// The library's file name inside the bundle.
    public var executable: String { "lib\(library).so" }

    /// Writes the bundle as `<directory>/<appID>.bundle` and returns its URL.
    @discardableResult
    public func write(into directory: URL) throws -> URL {
        let bundle = directory.appendingPathComponent("\(appID).bundle")
        let files = FileManager.default
        try files.createDirectory(at: bundle, withIntermediateDirectories: true)
        var info: [String: Any] = [
            "CFBundleIdentifier": appID,
            "CFBundleExecutable": executable,
            "UIApplicationShortcutItems": items,
        ]
        if let name { info["CFBundleDisplayName"] = name }
        if let version { info["CFBundleShortVersionString"] = version }
        for (key, value) in extraInfo { info[key] = value }
        let data = try PropertyListSerialization.data(fromPropertyList: info, format: .xml, options: 0)
        try data.write(to: bundle.appendingPathComponent("Info.plist"))
        let library = bundle.appendingPathComponent(executable)
        try? files.removeItem(at: library)
        try files.copyItem(at: PackagePaths.products.appendingPathComponent(executable), to: library)
        try files.setAttributes([.posixPermissions: 0o755], ofItemAtPath: library.path)
        for (lproj, text) in strings {
            let folder = bundle.appendingPathComponent("\(lproj).lproj")
            try files.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: folder.appendingPathComponent("InfoPlist.strings"))
        }
        for (path, text) in self.files {
            let file = bundle.appendingPathComponent(path)
            try files.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
        }
        try files.setAttributes([.posixPermissions: 0o755], ofItemAtPath: bundle.path)
        return bundle
    }
}
