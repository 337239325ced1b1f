/// The limits on items a plugin may store, enforced before anything is written.
///
/// Sizes are UTF-8 bytes. The user info's size is its size in the store's encoding
/// (`UserInfoValue.encodedSize`); its depth counts the user-info dictionary itself as
/// level 1 (`UserInfoValue.depth`), so `["a": 1]` is 2 levels deep.
public enum ItemLimits {
    /// Dynamic items per app.
    public static let maximumItems = 64
    /// `type`: non-empty and at most this many bytes.
    public static let maximumTypeBytes = 255
    /// `title`: non-empty and at most this many bytes.
    public static let maximumTitleBytes = 1024
    /// `subtitle`: at most this many bytes.
    public static let maximumSubtitleBytes = 1024
    /// `id`, when a plugin gives one: non-empty and at most this many bytes.
    public static let maximumIDBytes = 255
    /// A symbol name or icon file path: at most this many bytes.
    public static let maximumIconBytes = 1024
    /// The user info's encoded size.
    public static let maximumUserInfoBytes = 64 * 1024
    /// The user info's nesting depth: 18, not the 32 first planned, because the
    /// broker must be able to send every item it keeps. On D-Bus each level of
    /// user info costs three containers (an `a{sv}` or `av` array, its dict
    /// entry, the variant), every container counts towards the message's
    /// nesting limit of 64, and the deepest reply that carries items,
    /// GetManagedObjects (`a{oa{sa{sv}}}` → `Items` `aa{sv}` → `user-info`),
    /// starts 11 containers down: 3 × (18 − 1) + 11 = 62 ≤ 64, while 19 levels
    /// would need 65. The broker's tests list items at exactly this depth
    /// through every method and property.
    public static let maximumUserInfoDepth = 18

    /// Checks a whole dynamic list: its length and every item.
    /// - Throws: the first limit broken, naming the item's index, the field and the size.
    public static func validate(_ items: [ShortcutItem]) throws(ItemLimitError) {
        if items.count > maximumItems {
            throw .tooManyItems(count: items.count)
        }
        for (index, item) in items.enumerated() {
            try validate(item, index: index)
        }
    }

    /// Checks one item; `index` is only used in the error.
    ///
    /// The depth is checked before the size, without recursion, and stops counting past the
    /// limit, so a hostile nesting depth costs no more than the limit.
    public static func validate(_ item: ShortcutItem, index: Int) throws(ItemLimitError) {
        try checkText(item.type, field: .type, limit: maximumTypeBytes, index: index, required: true)
        try checkText(item.title, field: .title, limit: maximumTitleBytes, index: index, required: true)
        if let id = item.id {
            try checkText(id, field: .id, limit: maximumIDBytes, index: index, required: true)
        }
        if let subtitle = item.subtitle {
            try checkText(subtitle, field: .subtitle, limit: maximumSubtitleBytes, index: index, required: false)
        }
        switch item.icon {
        case .symbol(let name), .file(let name):
            try checkText(name, field: .icon, limit: maximumIconBytes, index: index, required: true)
        case .type, nil:
            break
        }
        let userInfo = UserInfoValue.dictionary(item.userInfo)
        let depth = userInfo.depth(stoppingAfter: maximumUserInfoDepth)
        if depth > maximumUserInfoDepth {
            throw .tooDeep(index: index, depth: depth)
        }
        let size = userInfo.encodedSize
        if size > maximumUserInfoBytes {
            throw .tooLarge(index: index, field: .userInfo, bytes: size)
        }
    }

    private static func checkText(
        _ text: String, field: ItemLimitError.Field, limit: Int, index: Int, required: Bool
    ) throws(ItemLimitError) {
        let bytes = text.utf8.count
        if required && bytes == 0 {
            throw .empty(index: index, field: field)
        }
        if bytes > limit {
            throw .tooLarge(index: index, field: field, bytes: bytes)
        }
    }
}

/// A broken item limit: which item, which field, how big.
public enum ItemLimitError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A field of an item.
    public enum Field: String, Sendable, Hashable {
        case type, id, title, subtitle, icon
        case userInfo = "user-info"

        /// The limit on this field, in bytes.
        public var limit: Int {
            switch self {
            case .type: return ItemLimits.maximumTypeBytes
            case .id: return ItemLimits.maximumIDBytes
            case .title: return ItemLimits.maximumTitleBytes
            case .subtitle: return ItemLimits.maximumSubtitleBytes
            case .icon: return ItemLimits.maximumIconBytes
            case .userInfo: return ItemLimits.maximumUserInfoBytes
            }
        }
    }

    /// More than `ItemLimits.maximumItems` items.
    case tooManyItems(count: Int)
    /// A required field is empty.
    case empty(index: Int, field: Field)
    /// A field is `bytes` long, more than `field.limit`.
    case tooLarge(index: Int, field: Field, bytes: Int)
    /// The user info is nested more than `ItemLimits.maximumUserInfoDepth` levels; `depth` is
    /// where counting stopped (the limit plus one).
    case tooDeep(index: Int, depth: Int)

    /// The index of the item at fault; nil for `tooManyItems`.
    public var index: Int? {
        switch self {
        case .tooManyItems: return nil
        case .empty(let index, _), .tooLarge(let index, _, _), .tooDeep(let index, _): return index
        }
    }

    public var description: String {
        guard let index else { return reasonWithoutIndex }
        return "item \(index): \(reasonWithoutIndex)"
    }

    /// The reason alone, for messages that name the item another way.
    package var reasonWithoutIndex: String {
        switch self {
        case .tooManyItems(let count):
            return "\(count) items, more than the \(ItemLimits.maximumItems) an app may have"
        case .empty(_, let field):
            return "\(field.rawValue) is empty"
        case .tooLarge(_, let field, let bytes):
            return "\(field.rawValue) is \(bytes) bytes, more than \(field.limit)"
        case .tooDeep(_, let depth):
            return "user-info is nested at least \(depth) levels deep, more than \(ItemLimits.maximumUserInfoDepth)"
        }
    }
}
