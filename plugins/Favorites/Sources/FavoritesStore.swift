import Foundation

/// The user's favorites: names, in the order they were added, kept as a JSON array in
/// `favorites.json` in the plugin's data directory (no file: no favorites).
///
/// Used only from the plugin's callbacks, which run one at a time on the plugin's queue.
struct FavoritesStore {
    /// The file's name in the data directory.
    static let fileName = "favorites.json"

    let file: URL
    private(set) var favorites: [String]

    /// Reads the favorites in `folder`.
    /// - Throws: ``FavoritesError/unreadable(path:reason:)`` when the file exists but is not a
    ///   JSON array of strings.
    init(folder: URL) throws(FavoritesError) {
        file = folder.appendingPathComponent(Self.fileName)
        guard FileManager.default.fileExists(atPath: file.path) else {
            favorites = []
            return
        }
        do {
            favorites = try JSONDecoder().decode([String].self, from: Data(contentsOf: file))
        } catch {
            throw .unreadable(path: file.path, reason: "\(error)")
        }
    }

    /// Adds `name` at the end; returns false when it already was a favorite.
    mutating func add(_ name: String) throws(FavoritesError) -> Bool {
        guard !favorites.contains(name) else { return false }
        try save(favorites + [name])
        return true
    }

    /// Removes `name`.
    /// - Throws: ``FavoritesError/notAFavorite(_:)`` when it is not one.
    mutating func remove(_ name: String) throws(FavoritesError) {
        guard favorites.contains(name) else { throw .notAFavorite(name) }
        try save(favorites.filter { $0 != name })
    }

    /// Removes every favorite; returns how many there were.
    mutating func removeAll() throws(FavoritesError) -> Int {
        let count = favorites.count
        try save([])
        return count
    }

    /// Writes `list` atomically, then adopts it; on failure nothing changes.
    private mutating func save(_ list: [String]) throws(FavoritesError) {
        do {
            try JSONEncoder().encode(list).write(to: file, options: .atomic)
        } catch {
            throw .unwritable(path: file.path, reason: "\(error)")
        }
        favorites = list
    }
}
