import Foundation
import QuickActionsBundles
import QuickActionsModel

/// Plugins that crashed, counted per library file: deaths of an app's plugin host, or (for
/// a plugin run in process) the broker dying while it ran plugin code. After `limit` crashes
/// of the same file within `window` the plugin is refused (PluginFailed) until its library
/// changes on disk. A crash after a quiet `window` starts the count again.
///
/// Kept in `<state dir>/crashes`, one line per app:
/// `<app id> <count> <device>:<inode>:<size>:<mtime s>.<mtime ns> <first crash, s since 1970>`
/// (lines without the last field, as brokers before the window wrote them, count as recent).
struct Quarantine: Sendable {
    static let limit = 3
    /// The window in which `limit` crashes quarantine: ten minutes.
    static let window: Int64 = 600
    static let windowDescription = "10 minutes"
    static let fileName = "crashes"

    struct Record: Sendable, Hashable {
        var count: Int
        var library: String
        /// When the first crash counted now happened; 0 when unknown.
        var since: Int64 = 0
    }

    private(set) var records: [String: Record] = [:]

    /// The fingerprint of a library file: a replaced or rebuilt file differs.
    static func fingerprint(_ identity: FileIdentity?) -> String {
        guard let identity else { return "missing" }
        return "\(identity.device):\(identity.inode):\(identity.size):"
            + "\(identity.modificationSeconds).\(identity.modificationNanoseconds)"
    }

    /// The most bytes the file may have: far more than one line per app of
    /// thousands of apps.
    static let maximumFileSize = 1 << 20

    /// Reads the crash counts. Never fails: a file that is not a regular
    /// file (folder, FIFO, symlink), too large or not UTF-8 is moved aside;
    /// a line that does not parse is skipped. Each is returned in
    /// `problems`, naming the file and why, for the broker to log.
    static func load(from directory: URL) -> (quarantine: Quarantine, problems: [String]) {
        var quarantine = Quarantine()
        let path = directory.appendingPathComponent(fileName).path
        func moveAside(_ reason: String) -> String {
            do {
                return "\(path): \(reason); moved aside to \(try StateFile.moveAside(path)); crash counts start again"
            } catch {
                return "\(path): \(reason); moving it aside failed (\(error)); crash counts start again"
            }
        }
        let text: String
        switch StateFile.read(path, limit: maximumFileSize) {
        case .missing:
            return (quarantine, [])
        case .unusable(let reason, let movable):
            return (quarantine, [movable ? moveAside(reason) : "\(path): \(reason); crash counts start again"])
        case .contents(let bytes):
            guard let decoded = String(validating: bytes, as: UTF8.self) else {
                return (quarantine, [moveAside("not UTF-8 text")])
            }
            text = decoded
        }
        var problems: [String] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where !line.isEmpty {
            let fields = line.split(separator: " ")
            guard fields.count == 3 || fields.count == 4, let count = Int(fields[1]), count > 0,
                  fields.count == 3 || Int64(fields[3]) != nil else {
                let shown = line.prefix(80)
                problems.append("\(path):\(number + 1): not \"<app id> <count> <library>\": \(String(shown).debugDescription); line ignored")
                continue
            }
            quarantine.records[String(fields[0])] = Record(
                count: count, library: String(fields[2]), since: fields.count == 4 ? Int64(fields[3]) ?? 0 : 0)
        }
        return (quarantine, problems)
    }

    /// Counts one crash of `appID` whose library is `library` at `now`; a different file, or
    /// a count whose first crash is more than `window` ago and not yet a quarantine, starts
    /// the count again.
    mutating func recordCrash(of appID: String, library: String, at now: Int64 = Int64(time(nil))) -> Int {
        var record = records[appID] ?? Record(count: 0, library: library, since: now)
        let expired = record.since != 0 && now - record.since > Self.window && record.count < Self.limit
        if record.library != library || expired { record = Record(count: 0, library: library, since: now) }
        if record.since == 0 { record.since = now }
        record.count += 1
        records[appID] = record
        return record.count
    }

    /// The crash count when `appID` is quarantined for this library, else nil.
    func quarantined(_ appID: String, library: String) -> Int? {
        guard let record = records[appID], record.library == library, record.count >= Self.limit else { return nil }
        return record.count
    }

    /// Writes the records atomically (temporary file, rename).
    func save(to directory: URL) throws {
        let text = records.keys.sorted().compactMap { id in
            records[id].map { "\(id) \($0.count) \($0.library) \($0.since)\n" }
        }.joined()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        try Data(text.utf8).write(to: directory.appendingPathComponent(Self.fileName), options: .atomic)
    }
}
