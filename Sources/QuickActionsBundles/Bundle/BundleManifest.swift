import Foundation
import QuickActionsModel

/// What a bundle's `Info.plist` declares. Parsing it runs no plugin code.
///
/// Keys: `CFBundleIdentifier` (required, an `AppID`), `CFBundleExecutable` (required, a file
/// name in the bundle), `CFBundleDisplayName`, `CFBundleName`, `CFBundleShortVersionString`,
/// `CFBundleIconName`, `CFBundleIconFile`, `CFBundleDevelopmentRegion`,
/// `QuickActionsDesktopEntry` and `UIApplicationShortcutItems` (see `ShortcutItemManifest`).
/// Unknown keys are ignored, but one that looks like a misspelt known key
/// (`CFBundleIdentifer`) is a warning naming the likely key.
public struct BundleManifest: Sendable, Hashable {
    /// The most bytes an `Info.plist` may have; larger files are refused unread.
    public static let maximumInfoPlistSize = 4 << 20

    /// `CFBundleIdentifier`.
    public var appID: AppID
    /// `CFBundleExecutable`: the shared library's file name inside the bundle.
    public var executable: String
    /// `CFBundleDisplayName`, else `CFBundleName`, else the app id; not localised.
    public var displayName: String
    /// The key whose value `displayName` is (`CFBundleDisplayName` or `CFBundleName`); nil when
    /// the app id stands in. `InfoPlist.strings` tables localise the display name under this key.
    public var displayNameKey: String?
    /// `CFBundleShortVersionString`.
    public var version: String?
    /// `CFBundleIconName` as `.symbol` (an icon name, mapped through `IconTable`), else
    /// `CFBundleIconFile` as `.file`.
    public var icon: ShortcutIcon?
    /// `CFBundleDevelopmentRegion`.
    public var developmentRegion: String?
    /// `UIApplicationShortcutItems`, in manifest order, without the items that were skipped.
    public var items: [ShortcutItem]
    /// `QuickActionsRunsInProcess` (Boolean): the plugin asks to run inside the broker instead
    /// of a host process of its own; honoured only when the broker allows it.
    public var runsInProcess = false
    /// `QuickActionsDesktopEntry`: the desktop file id of the app the bundle belongs to
    /// (`org.gnome.Contacts.desktop`; written with or without `.desktop`, kept with it), whose
    /// entry gets the items as actions. Nil when absent or not a valid desktop file id.
    public var desktopEntry: String?

    public init(
        appID: AppID, executable: String, displayName: String, displayNameKey: String? = nil,
        version: String? = nil, icon: ShortcutIcon? = nil, developmentRegion: String? = nil,
        items: [ShortcutItem] = [], desktopEntry: String? = nil
    ) {
        self.appID = appID
        self.executable = executable
        self.displayName = displayName
        self.displayNameKey = displayNameKey
        self.version = version
        self.icon = icon
        self.developmentRegion = developmentRegion
        self.items = items
        self.desktopEntry = desktopEntry
    }

    /// `QuickActionsDesktopEntry`'s value with `.desktop` added when missing, or nil when it is
    /// no desktop file id: a file name of ASCII letters, digits, `.`, `-` and `_`, not starting
    /// with a dot, at most 255 bytes with the suffix.
    public static func desktopFileID(_ value: String) -> String? {
        let id = value.hasSuffix(".desktop") ? value : value + ".desktop"
        guard id.utf8.count <= 255, id.count > ".desktop".count, !id.hasPrefix("."),
              id.unicodeScalars.allSatisfy({ scalar in
                  switch scalar {
                  case "A"..."Z", "a"..."z", "0"..."9", ".", "-", "_": return true
                  default: return false
                  }
              })
        else { return nil }
        return id
    }

    /// Parses the contents of an `Info.plist`: a binary (`bplist00`) or XML property list.
    ///
    /// Pure: reads no file and runs no plugin code; any input gives a manifest or an error,
    /// never a crash or a hang (see `PropertyListReader`).
    /// - Parameter path: the file's path, used in errors and diagnostics only.
    /// - Returns: the manifest and warnings about skipped items or ignored keys.
    /// - Throws: `BundleError` when the property list is broken or a required key is missing
    ///   or invalid; the bundle cannot be used.
    public static func parse(
        infoPlist data: Data, path: String = "Info.plist"
    ) throws(BundleError) -> (manifest: BundleManifest, diagnostics: [Diagnostic]) {
        if data.count > maximumInfoPlistSize {
            throw .tooLarge(path: path, bytes: data.count)
        }
        let object: Any
        do {
            object = try PropertyListReader.read(data)
        } catch {
            throw .notAPropertyList(path: path, reason: error.description)
        }
        guard let plist = object as? [String: Any] else {
            throw .notADictionary(path: path, found: PropertyListUserInfo.typeName(object))
        }
        var keys = ManifestKeys(plist: plist, path: path)
        let manifest = try keys.manifest()
        return (manifest, keys.diagnostics)
    }
}

/// Reads the keys of one `Info.plist` dictionary, collecting warnings as it goes.
private struct ManifestKeys {
    let plist: [String: Any]
    let path: String
    var diagnostics: [Diagnostic] = []

    init(plist: [String: Any], path: String) {
        self.plist = plist
        self.path = path
    }

    /// The top-level keys this manifest reads.
    static let knownKeys = [
        "CFBundleIdentifier", "CFBundleExecutable", "CFBundleDisplayName", "CFBundleName",
        "CFBundleShortVersionString", "CFBundleIconName", "CFBundleIconFile", "CFBundleDevelopmentRegion",
        "UIApplicationShortcutItems",
    ]

    mutating func manifest() throws(BundleError) -> BundleManifest {
        warnAboutMisspeltKeys()
        guard let identifier = try requiredString("CFBundleIdentifier") else {
            throw .missingKey(path: path, key: "CFBundleIdentifier")
        }
        let appID: AppID
        do {
            appID = try AppID(identifier)
        } catch {
            throw .invalidAppID(path: path, error)
        }
        guard let executable = try requiredString("CFBundleExecutable") else {
            throw .missingKey(path: path, key: "CFBundleExecutable")
        }
        if let problem = Self.executableProblem(executable) {
            throw .invalidExecutable(path: path, name: executable, reason: problem)
        }
        var displayName = appID.rawValue
        var displayNameKey: String?
        for key in ["CFBundleDisplayName", "CFBundleName"] {
            if let name = optionalString(key), !name.isEmpty {
                displayName = name
                displayNameKey = key
                break
            }
        }
        let icon: ShortcutIcon?
        if let name = optionalString("CFBundleIconName"), !name.isEmpty {
            icon = .symbol(name)
        } else if let file = optionalString("CFBundleIconFile"), !file.isEmpty {
            icon = .file(file)
        } else {
            icon = nil
        }
        var manifest = BundleManifest(
            appID: appID, executable: executable, displayName: displayName, displayNameKey: displayNameKey,
            version: optionalString("CFBundleShortVersionString"), icon: icon,
            developmentRegion: optionalString("CFBundleDevelopmentRegion").flatMap { $0.isEmpty ? nil : $0 },
            items: shortcutItems(appID: appID), desktopEntry: desktopEntry()
        )
        if let value = plist["QuickActionsRunsInProcess"] {
            if let flag = value as? Bool {
                manifest.runsInProcess = flag
            } else {
                warn("QuickActionsRunsInProcess is \(PropertyListUserInfo.typeName(value)), not a Boolean; ignored")
            }
        }
        return manifest
    }

    /// A required string key: nil when absent, an error when it is not a string.
    private func requiredString(_ key: String) throws(BundleError) -> String? {
        guard let value = plist[key] else { return nil }
        guard let string = value as? String else {
            throw .wrongType(path: path, key: key, expected: "a string", found: PropertyListUserInfo.typeName(value))
        }
        return string
    }

    /// An optional string key: a value of another type is ignored with a warning.
    private mutating func optionalString(_ key: String) -> String? {
        guard let value = plist[key] else { return nil }
        guard let string = value as? String else {
            warn("\(key) is \(PropertyListUserInfo.typeName(value)), not a string; ignored")
            return nil
        }
        return string
    }

    private mutating func desktopEntry() -> String? {
        guard let value = optionalString("QuickActionsDesktopEntry") else { return nil }
        guard let id = BundleManifest.desktopFileID(value) else {
            warn("QuickActionsDesktopEntry \"\(value.prefix(80))\" is not a desktop file id (such as org.example.App.desktop); ignored")
            return nil
        }
        return id
    }

    private mutating func shortcutItems(appID: AppID) -> [ShortcutItem] {
        guard let value = plist["UIApplicationShortcutItems"] else { return [] }
        guard let array = value as? [Any] else {
            warn("UIApplicationShortcutItems is \(PropertyListUserInfo.typeName(value)), not an array; no static items")
            return []
        }
        var items: [ShortcutItem] = []
        // A static item's id is its type, so the type must be unique: the first one wins.
        var indexOfType: [String: Int] = [:]
        for (index, element) in array.enumerated() {
            for (key, likely) in ShortcutItemManifest.misspeltKeys(in: element) {
                warn("\(appID): UIApplicationShortcutItems[\(index)]: unknown key \(key.quotedForMessage) is ignored; "
                    + "did you mean \(likely)?")
            }
            switch ShortcutItemManifest.item(from: element) {
            case .success(var item):
                if let first = indexOfType[item.type] {
                    warn("\(appID): UIApplicationShortcutItems[\(index)] skipped: its type \(item.type.quotedForMessage) "
                        + "is already that of UIApplicationShortcutItems[\(first)], and a static item's id is its type")
                    continue
                }
                indexOfType[item.type] = index
                item.id = item.type
                items.append(item)
            case .failure(let skipped):
                warn("\(appID): UIApplicationShortcutItems[\(index)] skipped: \(skipped.reason)")
            }
        }
        return items
    }

    /// A warning for each unknown key that is probably a known one misspelt.
    private mutating func warnAboutMisspeltKeys() {
        for key in plist.keys.sorted() {
            if let likely = KeySuggestion.likelyKey(for: key, among: Self.knownKeys) {
                warn("unknown key \(key.quotedForMessage) is ignored; did you mean \(likely)?")
            }
        }
    }

    private mutating func warn(_ reason: String) {
        diagnostics.append(Diagnostic(file: path, reason: reason, severity: .warning))
    }

    /// Why `name` is not a plain file name, or nil when it is one.
    static func executableProblem(_ name: String) -> String? {
        if name.isEmpty { return "is empty" }
        if name == "." || name == ".." { return "is not a file name" }
        if name.contains("/") { return "must be a file name in the bundle, without '/'" }
        if name.unicodeScalars.contains(where: { $0.value == 0 }) { return "contains a NUL character" }
        return nil
    }
}
