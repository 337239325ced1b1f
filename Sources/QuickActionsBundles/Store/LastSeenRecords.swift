import Locking
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import QuickActionsModel

/// When each app's bundle was last seen, by any broker that uses this state directory: the one
/// record that decides when an app's stored dynamic items may be removed.
///
/// One file per app, `<state dir>/last-seen/<app id>`, holding the time in whole seconds since
/// 1970 (UTC), in decimal, and a newline. A record is only ever moved forward: a broker writes
/// it when it sees the app's bundle (a plugin folder listed and the bundle read), and nothing
/// ever writes "absent". So a broker that reads fewer plugin folders than another, or whose
/// listing failed, never makes the other's apps look older than they are; an app's items can go
/// only when no broker has seen it for the whole retention period (`isExpired`).
///
/// Files are written whole (a temporary file renamed over the old one); they are opened
/// non-blocking, without following symbolic links, and refused unless regular. A record that is
/// unusable (corrupt, of the wrong kind) reads as `.unusable`: the caller treats the app as seen
/// now and writes a fresh record, so damage only ever postpones a removal. For the same reason
/// records are not fsynced: one lost or emptied by a power cut reads as missing or unusable,
/// which counts as "seen now". A broker's first start with 1,000 bundles writes 1,000 records,
/// and at a few milliseconds per fsync that was most of its start-up.
public final class LastSeenRecords: Sendable {
    /// `<state dir>/last-seen`.
    public let directory: URL
    public static let folderName = "last-seen"
    /// A record younger than this is not rewritten when its app is seen again, by this broker
    /// or the next, so neither a rescan nor a restart writes one file per app.
    public static let refreshInterval: Int64 = 3600
    public static let secondsPerDay: Int64 = 86_400
    /// The most bytes a record may have.
    static let maximumFileSize = 64

    /// `<state dir>/listed-directories`: one file per plugin directory some broker listed once.
    public let listedDirectories: URL
    public static let listedFolderName = "listed-directories"

    /// What this process last wrote or read per app, to skip rewrites within `refreshInterval`.
    private let written = Locked<[AppID: Int64]>([:])
    /// The plugin directories known to have been listed.
    private let listed = Locked<Set<String>>([])

    public init(stateDirectory: URL) {
        directory = stateDirectory.appendingPathComponent(Self.folderName, isDirectory: true)
        listedDirectories = stateDirectory.appendingPathComponent(Self.listedFolderName, isDirectory: true)
    }

    // MARK: Plugin directories

    /// Records that the plugin directory at `path` was listed. A directory that some broker
    /// listed once and that is missing now was moved or removed: its apps are unknown. One that
    /// no broker ever listed (a default XDG folder that never existed) holds nothing.
    /// Written once per directory: `listed-directories/<FNV-1a 64 of the path, hex>`, holding
    /// the path and a newline.
    public func markListed(_ path: String) throws(StoreError) {
        if listed.withLock({ $0.contains(path) }) { return }
        if !wasListed(path) {
            let file = listedDirectories.appendingPathComponent(Self.fileName(forDirectory: path), isDirectory: false).path
            let temporary = listedDirectories.appendingPathComponent(".tmp-\(getpid())", isDirectory: false).path
            do throws(SystemCallError) {
                try StateFileSystem.makeDirectory(listedDirectories.path)
                try StateFileSystem.writeSynced(Array((path + "\n").utf8), to: temporary)
                try StateFileSystem.renameFile(temporary, to: file)
            } catch {
                _ = try? StateFileSystem.removeFile(temporary)
                throw .system(error)
            }
        }
        listed.withLock { _ = $0.insert(path) }
    }

    /// True when some broker using this state directory listed the plugin directory at `path`.
    /// An unreadable record counts as listed (the careful answer).
    public func wasListed(_ path: String) -> Bool {
        if listed.withLock({ $0.contains(path) }) { return true }
        let file = listedDirectories.appendingPathComponent(Self.fileName(forDirectory: path), isDirectory: false).path
        switch StateFile.read(file, limit: 8192) {
        case .missing: return false
        // Another path with the same hash, or a damaged record, also counts: the careful answer.
        case .contents, .unusable: return true
        }
    }

    static func fileName(forDirectory path: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in path.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    // MARK: Apps

    /// What a record holds.
    public enum Reading: Sendable, Hashable {
        /// No record.
        case none
        /// Seen at this time (seconds since 1970).
        case seen(Int64)
        /// A record that cannot be used; the diagnostic names the file and why.
        case unusable(Diagnostic)
    }

    /// The path of `appID`'s record.
    public func fileURL(for appID: AppID) -> URL {
        directory.appendingPathComponent(appID.rawValue, isDirectory: false)
    }

    /// True when an app last seen at `lastSeen` has been unseen for more than `days` days at
    /// `now`. With `days` 0 nothing ever expires. Exactly `days` days is not yet expired.
    public static func isExpired(lastSeen: Int64, now: Int64, days: Int) -> Bool {
        guard days > 0 else { return false }
        let (period, overflow) = Int64(days).multipliedReportingOverflow(by: secondsPerDay)
        if overflow { return false }
        return now - lastSeen > period
    }

    /// Reads `appID`'s record from disk (never from memory: another broker may have moved it on).
    public func read(_ appID: AppID) -> Reading {
        let path = fileURL(for: appID).path
        let contents: RegularFile.Contents?
        do throws(RegularFile.Failure) {
            contents = try RegularFile.contents(of: path, limit: Self.maximumFileSize, followSymlinks: false)
        } catch {
            return .unusable(Diagnostic(file: path, reason: error.reason, severity: .warning))
        }
        guard let contents else { return .none }
        let text = String(decoding: contents.bytes, as: UTF8.self)
        guard text.hasSuffix("\n"), let seconds = Int64(text.dropLast()), seconds >= 0 else {
            return .unusable(Diagnostic(
                file: path, reason: "not a time in seconds: \(text.quotedForMessage)", severity: .warning))
        }
        return .seen(seconds)
    }

    /// Records that `appID` was seen at `now`, unless its record already holds a time less than
    /// `refreshInterval` before it (or a later one). A record never moves back in time.
    /// - Throws: `StoreError.system` when the record cannot be written.
    public func markSeen(_ appID: AppID, now: Int64) throws(StoreError) {
        if let last = written.withLock({ $0[appID] }), last <= now, now - last < Self.refreshInterval { return }
        if case .seen(let stored) = read(appID), stored > now - Self.refreshInterval {
            written.withLock { $0[appID] = stored }
            return
        }
        try write(now, for: appID)
    }

    /// Writes `seconds` as `appID`'s record (whole file, renamed into place). Tests use it to set
    /// a record's age.
    public func write(_ seconds: Int64, for appID: AppID) throws(StoreError) {
        let path = fileURL(for: appID).path
        let temporary = directory.appendingPathComponent(".\(appID.rawValue).tmp-\(getpid())", isDirectory: false).path
        do throws(SystemCallError) {
            try StateFileSystem.makeDirectory(directory.path)
            try StateFileSystem.writeSynced(Array("\(seconds)\n".utf8), to: temporary, sync: false)
            try StateFileSystem.renameFile(temporary, to: path)
        } catch {
            _ = try? StateFileSystem.removeFile(temporary)
            throw .system(error)
        }
        written.withLock { $0[appID] = seconds }
    }

    /// Removes `appID`'s record, if any.
    public func remove(_ appID: AppID) throws(StoreError) {
        do throws(SystemCallError) {
            try StateFileSystem.removeFile(fileURL(for: appID).path)
        } catch {
            throw .system(error)
        }
        written.withLock { _ = $0.removeValue(forKey: appID) }
    }

    /// The apps that have a record, sorted; hidden (temporary) files and names that are not app
    /// ids are left out. A missing folder holds none.
    public func recordedAppIDs() throws(StoreError) -> [AppID] {
        guard let stream = opendir(directory.path) else {
            let code = currentErrno()
            if code == ENOENT { return [] }
            throw .system(SystemCallError(call: "opendir", path: directory.path, errno: code))
        }
        defer { closedir(stream) }
        var ids: [AppID] = []
        while true {
            errno = 0
            guard let entry = readdir(stream) else {
                let code = currentErrno()
                if code != 0 { throw .system(SystemCallError(call: "readdir", path: directory.path, errno: code)) }
                break
            }
            let name = withUnsafePointer(to: entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            guard !name.hasPrefix("."), let id = try? AppID(name) else { continue }
            ids.append(id)
        }
        return ids.sorted()
    }
}
