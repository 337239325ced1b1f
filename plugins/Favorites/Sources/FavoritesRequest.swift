import QuickActionsSDK

/// The item types the Favorites example performs.
enum FavoritesActionType: String, CaseIterable, Sendable {
    /// Static: "Browse", "Find something to like"; the way in while there are no favorites.
    case browse = "browseAction"
    /// Dynamic: "Favorites", symbol "heart"; present only while there are favorites.
    case favorites = "favoritesAction"

    /// The one dynamic item, as the SwiftUI article builds it.
    static let favoritesItem = ShortcutItem(type: favorites.rawValue, title: "Favorites", icon: .symbol("heart"))
}

/// The changes a perform's caller arguments ask for, applied in this order:
///
/// - `clear` (b): true removes every favorite;
/// - `remove` (s): removes that favorite (it must be one);
/// - `add` (s): adds it (adding a favorite twice keeps one).
struct FavoritesRequest: Hashable, Sendable {
    var clear = false
    var remove: String?
    var add: String?

    /// Reads the arguments; unknown ones are ignored.
    /// - Throws: ``FavoritesError/badArgument(name:reason:)`` for a value of the wrong type.
    init(arguments: UserInfo) throws(FavoritesError) {
        switch arguments["clear"] {
        case nil: break
        case .bool(let value)?: clear = value
        case let other?: throw .badArgument(name: "clear", reason: "must be a boolean, not \(other)")
        }
        remove = try Self.name("remove", in: arguments)
        add = try Self.name("add", in: arguments)
    }

    private static func name(_ key: String, in arguments: UserInfo) throws(FavoritesError) -> String? {
        switch arguments[key] {
        case nil: return nil
        case .string(let name)? where !name.isEmpty: return name
        case let other?: throw .badArgument(name: key, reason: "must be a non-empty string, not \(other)")
        }
    }
}
