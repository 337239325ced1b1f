import QuickActionsModel

/// One entry of `UIApplicationShortcutItems`, with the iOS keys:
///
/// | key                                      | value                                   |
/// |------------------------------------------|-----------------------------------------|
/// | `UIApplicationShortcutItemType`          | string, required, non-empty             |
/// | `UIApplicationShortcutItemTitle`         | string, required, non-empty             |
/// | `UIApplicationShortcutItemSubtitle`      | string                                  |
/// | `UIApplicationShortcutItemIconType`      | one of the 29 `ShortcutIconType` names  |
/// | `UIApplicationShortcutItemIconSymbolName`| string: an icon or symbol name          |
/// | `UIApplicationShortcutItemIconFile`      | string: a file in the bundle            |
/// | `UIApplicationShortcutItemUserInfo`      | dictionary                              |
///
/// When several icon keys are present, the symbol name wins over the file, and the file over
/// the type (as on iOS, where a symbol or a file replaces the system type); an unknown icon
/// type skips the item even so. An item that breaks a rule, or `ItemLimits`' per-item limits,
/// is skipped with the reason; its siblings are kept.
enum ShortcutItemManifest {
    struct Skipped: Error {
        var reason: String
    }

    /// The keys an item dictionary may have.
    static let knownKeys = [
        "UIApplicationShortcutItemType", "UIApplicationShortcutItemTitle", "UIApplicationShortcutItemSubtitle",
        "UIApplicationShortcutItemIconType", "UIApplicationShortcutItemIconSymbolName",
        "UIApplicationShortcutItemIconFile", "UIApplicationShortcutItemUserInfo",
    ]

    /// The unknown keys of an item dictionary that look like misspelt known ones, each with
    /// the key it probably means, sorted by key.
    static func misspeltKeys(in element: Any) -> [(key: String, likely: String)] {
        guard let entry = element as? [String: Any] else { return [] }
        return entry.keys.sorted().compactMap { key in
            KeySuggestion.likelyKey(for: key, among: knownKeys).map { (key, $0) }
        }
    }

    static func item(from element: Any) -> Result<ShortcutItem, Skipped> {
        guard let entry = element as? [String: Any] else {
            return .failure(Skipped(reason: "is \(PropertyListUserInfo.typeName(element)), not a dictionary"))
        }
        do {
            return .success(try item(from: entry))
        } catch {
            return .failure(error)
        }
    }

    private static func item(from entry: [String: Any]) throws(Skipped) -> ShortcutItem {
        guard let type = try string("UIApplicationShortcutItemType", in: entry), !type.isEmpty else {
            throw Skipped(reason: "no UIApplicationShortcutItemType")
        }
        guard let title = try string("UIApplicationShortcutItemTitle", in: entry), !title.isEmpty else {
            throw Skipped(reason: "no UIApplicationShortcutItemTitle (type \(type.quotedForMessage))")
        }
        let subtitle = try string("UIApplicationShortcutItemSubtitle", in: entry)
        var icon: ShortcutIcon?
        if let name = try string("UIApplicationShortcutItemIconType", in: entry) {
            guard let iconType = ShortcutIconType(rawValue: name) else {
                throw Skipped(reason: "unknown UIApplicationShortcutItemIconType \(name.quotedForMessage) (type \(type.quotedForMessage))")
            }
            icon = .type(iconType)
        }
        if let file = try string("UIApplicationShortcutItemIconFile", in: entry) {
            icon = .file(file)
        }
        if let symbol = try string("UIApplicationShortcutItemIconSymbolName", in: entry) {
            icon = .symbol(symbol)
        }
        var userInfo: UserInfo = [:]
        if let object = entry["UIApplicationShortcutItemUserInfo"] {
            do {
                userInfo = try PropertyListUserInfo.userInfo(from: object)
            } catch {
                throw Skipped(reason: "UIApplicationShortcutItemUserInfo\(error.path) \(error.reason) (type \(type.quotedForMessage))")
            }
        }
        let item = ShortcutItem(type: type, title: title, subtitle: subtitle, icon: icon, userInfo: userInfo)
        do {
            try ItemLimits.validate(item, index: 0)
        } catch {
            throw Skipped(reason: "\(error.reasonWithoutIndex) (type \(type.quotedForMessage))")
        }
        return item
    }

    private static func string(_ key: String, in entry: [String: Any]) throws(Skipped) -> String? {
        guard let value = entry[key] else { return nil }
        guard let string = value as? String else {
            throw Skipped(reason: "\(key) is \(PropertyListUserInfo.typeName(value)), not a string")
        }
        return string
    }
}
