import Foundation
import QuickActionsModel

/// Plugins that crashed the broker, counted per library file. After
/// `limit` crashes of the same file the plugin is refused (PluginFailed)
/// until its library changes on disk.
///
/// Kept in `<state dir>/crashes`, one line per app:
/// `<app id> <count> <device>:<inode>:<size>:<mtime s>.<mtime ns>`.
struct Quarantine: Sendable {
    static let limit = 3
    static let fileName = "crashes"

    struct Record: Sendable, Hashable {
        var count: Int
        var library: String
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
            guard fields.count == 3, let count = Int(fields[1]), count > 0 else {
                let shown = line.prefix(80)
                problems.append("\(path):\(number + 1): not \"<app id> <count> <library>\": \(String(shown).debugDescription); line ignored")
                continue
            }
            quarantine.records[String(fields[0])] = Record(count: count, library: String(fields[2]))
        }
        return (quarantine, problems)
    }

    /// Counts one crash of `appID` whose library is `library`; a different
    /// file starts the count again.
    mutating func recordCrash(of appID: String, library: String) -> Int {
        var record = records[appID] ?? Record(count: 0, library: library)
        if record.library != library { record = Record(count: 0, library: library) }
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
            records[id].map { "\(id) \($0.count) \($0.library)\n" }
        }.joined()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        try Data(text.utf8).write(to: directory.appendingPathComponent(Self.fileName), options: .atomic)
    }
}
