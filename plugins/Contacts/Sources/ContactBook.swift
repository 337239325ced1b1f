import Foundation

/// The address book, kept as JSON in `contacts.json` in the plugin's data directory and created
/// with ``Contact/samples`` on first run.
///
/// The plugin's callbacks and the file watcher use it from different queues. Every read of the
/// file and every write happens under one lock, and each change of the contacts in memory gets
/// the next `generation`: so a reading that started before a perform's write can never replace
/// what that perform wrote, and ``FavoriteShortcuts`` can tell an older state from a newer one.
final class ContactBook: @unchecked Sendable {
    // @unchecked: `contacts` and `generation` are only read or written while holding `lock`.

    /// The file's name in the data directory.
    static let fileName = "contacts.json"
    /// The newest file format this code reads and the one it writes.
    static let formatVersion = 1

    /// The contacts file.
    let file: URL
    private let lock = NSLock()
    private var contacts: [Contact]
    private var generation: UInt64 = 0

    /// The contacts at one moment, numbered: a higher generation is a later state.
    struct Snapshot {
        var generation: UInt64
        var favorites: [Contact]
    }

    /// Opens the book in `folder`, writing the sample contacts first if there is no file yet.
    /// - Throws: ``ContactsError`` when the file exists but cannot be read, or cannot be created.
    init(folder: URL) throws(ContactsError) {
        file = folder.appendingPathComponent(Self.fileName)
        if FileManager.default.fileExists(atPath: file.path) {
            contacts = try Self.read(file)
        } else {
            contacts = Contact.samples
            try Self.write(contacts, to: file)
        }
    }

    /// Every contact, in file order.
    var all: [Contact] {
        lock.withLock { contacts }
    }

    /// The contacts marked as favorite, in file order.
    var favorites: [Contact] {
        all.filter(\.favorite)
    }

    /// The favorites now, with their generation.
    var snapshot: Snapshot {
        lock.withLock { Snapshot(generation: generation, favorites: contacts.filter(\.favorite)) }
    }

    /// Reads the file again (after it changed on disk). The read holds the lock, so it sees the
    /// file either before or after a perform's write, never a write landing between the read
    /// and the update of the contacts in memory.
    /// - Throws: ``ContactsError/unreadable(path:reason:)``; the contacts in memory then stay.
    func reload() throws(ContactsError) {
        lock.lock()
        defer { lock.unlock() }
        contacts = try Self.read(file)
        generation += 1
    }

    /// Sets the favorite flag of the contact `change` names and saves the file.
    /// - Throws: ``ContactsError`` when no contact has that name or the file cannot be written;
    ///   nothing changes then.
    func apply(_ change: FavoriteChange) throws(ContactsError) {
        lock.lock()
        defer { lock.unlock() }
        guard let index = contacts.firstIndex(where: { $0.name == change.contact }) else {
            throw .unknownContact(change.contact)
        }
        var updated = contacts
        updated[index].favorite = change.favorite
        try Self.write(updated, to: file)
        contacts = updated
        generation += 1
    }

    /// The file's layout: a format version and the contacts.
    private struct FileContents: Codable {
        var version: Int
        var contacts: [Contact]
    }

    private static func read(_ file: URL) throws(ContactsError) -> [Contact] {
        let decoded: FileContents
        do {
            decoded = try JSONDecoder().decode(FileContents.self, from: Data(contentsOf: file))
        } catch {
            throw .unreadable(path: file.path, reason: "\(error)")
        }
        guard decoded.version <= formatVersion else {
            throw .unreadable(
                path: file.path, reason: "format version \(decoded.version) is newer than \(formatVersion)")
        }
        return decoded.contacts
    }

    /// Writes atomically (a temporary file renamed over the old one), so a reader never sees half a file.
    private static func write(_ contacts: [Contact], to file: URL) throws(ContactsError) {
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            let data = try encoder.encode(FileContents(version: formatVersion, contacts: contacts))
            try data.write(to: file, options: .atomic)
        } catch {
            throw .unwritable(path: file.path, reason: "\(error)")
        }
    }
}
