/// Why the Favorites example could not do what was asked; each case names the value at fault.
enum FavoritesError: Error, Hashable, Sendable, CustomStringConvertible {
    case noDataDirectory
    case unreadable(path: String, reason: String)
    case unwritable(path: String, reason: String)
    case notAFavorite(String)
    case badArgument(name: String, reason: String)
    case unknownType(String)

    var description: String {
        switch self {
        case .noDataDirectory:
            return "Favorites has no data directory for its favorites file (see the broker's log)"
        case .unreadable(let path, let reason):
            return "cannot read the favorites file \(path): \(reason)"
        case .unwritable(let path, let reason):
            return "cannot write the favorites file \(path): \(reason)"
        case .notAFavorite(let name):
            return "'\(name)' is not a favorite"
        case .badArgument(let name, let reason):
            return "argument '\(name)' \(reason)"
        case .unknownType(let type):
            let known = FavoritesActionType.allCases.map(\.rawValue).joined(separator: ", ")
            return "Favorites has no quick action of type '\(type)' (it has \(known))"
        }
    }
}
