import QuickActionsSDK

/// A change of one contact's favorite flag, requested through a perform's caller arguments:
///
/// - `favorite` (b): the new flag;
/// - `contact` (s): whose flag; when absent, the contact the item names in its user info
///   (`Name`), so performing a `FavoriteAction` with `favorite` false unfavorites that contact.
struct FavoriteChange: Hashable, Sendable {
    var contact: String
    var favorite: Bool

    /// The change the arguments ask for; nil when they carry no `favorite`.
    /// - Throws: ``ContactsError`` naming the argument at fault.
    static func requested(by action: ShortcutAction) throws(ContactsError) -> FavoriteChange? {
        guard let value = action.arguments["favorite"] else { return nil }
        guard case .bool(let favorite) = value else {
            throw .badArgument(name: "favorite", reason: "must be a boolean, not \(value)")
        }
        switch action.arguments["contact"] ?? action.item.userInfo[ContactsActionType.nameKey] {
        case .string(let contact)?:
            return FavoriteChange(contact: contact, favorite: favorite)
        case let other?:
            throw .badArgument(name: "contact", reason: "must be a string, not \(other)")
        case nil:
            throw .badArgument(
                name: "contact", reason: "is needed with 'favorite' for an item that names no contact")
        }
    }
}
