import QuickActionsModel

/// How items get their ids, the identity Perform's `item-id` selects by.
///
/// - A static item's id is its type (the manifest keeps the first item of each type).
/// - A dynamic item keeps the id its plugin gives. Without one it gets a derived id,
///   `<type>#<16 hex digits>`: the 64-bit FNV-1a hash of the item's type and user info in the
///   store's canonical encoding (``DynamicItemCoder``: keys sorted, types exact). So the same
///   item gets the same id in every listing, after every republish and every restart, and two
///   favorites that differ only in their user info get different ids.
/// - Derived ids never clash: where a derived id is already taken in the app (by a static
///   item, a given id, or an earlier item with equal type and user info), `~2`, `~3`, … is
///   appended in list order. Given ids may not clash: two equal ones in one list, or one equal
///   to a static item's id, refuse the list.
public enum ItemIdentity {
    /// The id an item without one gets before any clash is resolved.
    public static func derivedID(type: String, userInfo: UserInfo) -> String {
        var writer = Writer()
        writer.string(type)
        writer.value(.dictionary(userInfo))
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in writer.bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return "\(type)#\(String(repeating: "0", count: 16 - hex.count))\(hex)"
    }

    /// A dynamic list with every item's id set: given ids kept, the others derived.
    /// Call it on lists within ``ItemLimits``.
    /// - Parameter staticIDs: the ids of the app's static items, which no dynamic item may take.
    /// - Throws: ``ItemIdentityError`` naming the indices of two items with one given id, or
    ///   the index of an item whose given id is a static item's.
    public static func assign(_ items: [ShortcutItem], staticIDs: Set<String>) throws(ItemIdentityError) -> [ShortcutItem] {
        let result = assigning(items, staticIDs: staticIDs)
        if let first = result.refused.first { throw first }
        return result.items
    }

    /// The same, leaving out the items whose given id clashes (each reported) instead of
    /// refusing the list: for a stored list read back under a bundle that has since gained a
    /// static item of that id. The stored list itself is left as it is.
    public static func assigning(
        _ items: [ShortcutItem], staticIDs: Set<String>
    ) -> (items: [ShortcutItem], refused: [ItemIdentityError]) {
        var taken = staticIDs
        var givenAt: [String: Int] = [:]
        var refused: [ItemIdentityError] = []
        var kept: [ShortcutItem] = []
        kept.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            if let id = item.id {
                if staticIDs.contains(id) {
                    refused.append(.takenByStaticItem(index: index, id: id))
                    continue
                }
                if let first = givenAt[id] {
                    refused.append(.duplicate(first: first, second: index, id: id))
                    continue
                }
                givenAt[id] = index
                taken.insert(id)
            }
            kept.append(item)
        }
        for index in kept.indices where kept[index].id == nil {
            let base = derivedID(type: kept[index].type, userInfo: kept[index].userInfo)
            var id = base
            var ordinal = 2
            while taken.contains(id) {
                id = "\(base)~\(ordinal)"
                ordinal += 1
            }
            taken.insert(id)
            kept[index].id = id
        }
        return (kept, refused)
    }
}

/// Why a dynamic list's ids were refused.
public enum ItemIdentityError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Items `first` and `second` were given the same id.
    case duplicate(first: Int, second: Int, id: String)
    /// Item `index` was given the id of a static item.
    case takenByStaticItem(index: Int, id: String)

    public var description: String {
        switch self {
        case .duplicate(let first, let second, let id):
            "items \(first) and \(second) have the same id \(id.quotedForMessage); ids must be unique within an app"
        case .takenByStaticItem(let index, let id):
            "item \(index): id \(id.quotedForMessage) is the id of a static item (a static item's id is its type)"
        }
    }
}
