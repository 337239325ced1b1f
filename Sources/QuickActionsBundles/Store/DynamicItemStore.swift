import Locking
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import QuickActionsModel

/// The dynamic items of every app, one file per app in a state directory, so they are listed
/// after a restart without loading the plugin.
///
/// Files are named `<app id>.items` and hold `DynamicItemCoder`'s format. A save writes a
/// temporary file (`.<app id>.items.tmp-<pid>`) in the same folder, fsyncs it, renames it over
/// the old file and fsyncs the folder: after a crash the file holds the complete old or the
/// complete new list, and a temporary file left behind is never read as a list. The folder is
/// created with mode 0700, files with 0600.
///
/// A file that is empty, corrupt or of a future format version is moved aside to
/// `<app id>.items.corrupt-<UTC time>` and the app starts with no dynamic items; `load` returns
/// the diagnostic for the caller to log.
///
/// Thread-safe: calls for one app are serialised by that app's lock; calls for different apps
/// run in parallel. Lists are cached after the first load or save, so a listing never rereads a
/// file. One store instance is meant to own its directory: files changed behind its back after
/// they were cached are not noticed.
public final class DynamicItemStore: Sendable {
    /// The state directory.
    public let directory: URL

    /// The most bytes a state file may have: far more than 64 items at their limits need.
    static let maximumFileSize = 16 << 20
    static let fileExtension = ".items"

    private let cache = Locked<[AppID: [ShortcutItem]]>([:])
    private let appLocks = Locked<[AppID: NSLock]>([:])
    private let directoryReady = Locked(false)

    /// A store in `directory` (see `StateDirectory.resolve`); nothing is created until a save.
    public init(directory: URL) {
        self.directory = directory
    }

    /// The outcome of `load`.
    public struct Loaded: Sendable {
        /// The app's dynamic items, in the order the plugin set them; empty when there are none
        /// or the file was unusable.
        public var items: [ShortcutItem]
        /// What went wrong, for the caller to log: a file moved aside, an unreadable file.
        public var diagnostics: [Diagnostic]

        public init(items: [ShortcutItem], diagnostics: [Diagnostic] = []) {
            self.items = items
            self.diagnostics = diagnostics
        }
    }

    /// The path of `appID`'s file.
    public func fileURL(for appID: AppID) -> URL {
        directory.appendingPathComponent(appID.rawValue + Self.fileExtension, isDirectory: false)
    }

    /// The app's stored dynamic items. Never throws: a missing file means no items; an empty,
    /// corrupt or future-version file is moved aside (reported in `diagnostics`); an unreadable
    /// file is reported and left in place, and tried again next time.
    public func load(_ appID: AppID) -> Loaded {
        if let cached = cache.withLock({ $0[appID] }) { return Loaded(items: cached) }
        return withAppLock(appID) {
            if let cached = cache.withLock({ $0[appID] }) { return Loaded(items: cached) }
            let path = fileURL(for: appID).path
            var loaded = Loaded(items: [])
            do throws(RegularFile.Failure) {
                if let contents = try RegularFile.contents(of: path, limit: Self.maximumFileSize, followSymlinks: false) {
                    do {
                        loaded.items = try DynamicItemCoder.decode(contents.bytes)
                    } catch {
                        loaded.diagnostics.append(moveAside(path, appID: appID, reason: "\(error)"))
                    }
                }
            } catch {
                switch error {
                case .system:
                    // Unreadable is not corrupt: leave the file for the next attempt.
                    return Loaded(items: [], diagnostics: [
                        Diagnostic(file: path, reason: "\(error.reason); \(appID) starts with no dynamic items", severity: .error),
                    ])
                case .notRegular, .tooLarge:
                    loaded.diagnostics.append(moveAside(path, appID: appID, reason: error.reason))
                }
            }
            cache.withLock { $0[appID] = loaded.items }
            return loaded
        }
    }

    /// Replaces the app's dynamic list; an empty list removes the file.
    ///
    /// The list is checked against `ItemLimits` before anything is touched: a list over a
    /// limit leaves the stored list as it was.
    /// - Throws: `StoreError.limits` naming the item, field and size; `StoreError.system` when
    ///   a write fails (the old list is then intact), or when the final fsync of the folder fails
    ///   (the new list is in place, but may not survive a power cut).
    public func save(_ items: [ShortcutItem], for appID: AppID) throws(StoreError) {
        if items.isEmpty {
            try remove(appID)
            return
        }
        let bytes: [UInt8]
        do {
            bytes = try DynamicItemCoder.encode(items)
        } catch {
            throw .limits(appID: appID, error)
        }
        try withAppLock(appID) { () throws(StoreError) in
            let temporary = temporaryPath(for: appID)
            do throws(SystemCallError) {
                try writeTemporaryFile(bytes, for: appID)
                try StateFileSystem.renameFile(temporary, to: fileURL(for: appID).path)
            } catch {
                // The old file was not touched; leave no half-written debris either.
                _ = try? StateFileSystem.removeFile(temporary)
                throw .system(error)
            }
            // From here the new list is the file's content, even if making the rename durable fails.
            cache.withLock { $0[appID] = items }
            do throws(SystemCallError) {
                try StateFileSystem.syncDirectory(directory.path)
            } catch {
                throw .system(error)
            }
        }
    }

    /// Removes the app's dynamic items (its file, when there is one).
    public func remove(_ appID: AppID) throws(StoreError) {
        try withAppLock(appID) { () throws(StoreError) in
            do throws(SystemCallError) {
                if try StateFileSystem.removeFile(fileURL(for: appID).path) {
                    try StateFileSystem.syncDirectory(directory.path)
                }
            } catch {
                throw .system(error)
            }
            cache.withLock { $0[appID] = [] }
        }
    }

    /// The apps that have a file in the store, sorted. Temporary and moved-aside files, and
    /// names that are not app ids, are left out; a missing directory holds no apps.
    public func storedAppIDs() throws(StoreError) -> [AppID] {
        try fileNames().compactMap { name in
            guard name.hasSuffix(Self.fileExtension), !name.hasPrefix(".") else { return nil }
            return try? AppID(String(name.dropLast(Self.fileExtension.count)))
        }.sorted()
    }

    /// Removes the temporary files left by writers that are no longer running. Stored lists are
    /// never touched: an app's list goes only through `remove` (see `LastSeenRecords` for the
    /// rule that decides when).
    public func removeStaleTemporaryFiles() throws(StoreError) {
        for name in try fileNames() {
            guard let pid = Self.writerPID(ofTemporaryFile: name), pid != getpid(), kill(pid, 0) == -1,
                currentErrno() == ESRCH
            else { continue }
            _ = try? StateFileSystem.removeFile(directory.appendingPathComponent(name).path)
        }
    }

    /// Writes `bytes` to the app's temporary file, fsynced, without renaming it: the first
    /// half of a save (tests use it to leave a crash's debris behind).
    @discardableResult
    func writeTemporaryFile(_ bytes: [UInt8], for appID: AppID) throws(SystemCallError) -> String {
        try ensureDirectory()
        let path = temporaryPath(for: appID)
        do {
            try StateFileSystem.writeSynced(bytes, to: path)
        } catch where [ENXIO, EINVAL, ELOOP].contains(error.errno) {
            // Something other than a file where only this process writes (a FIFO, a symlink):
            // remove it, once, and write a file.
            try StateFileSystem.removeFile(path)
            try StateFileSystem.writeSynced(bytes, to: path)
        } catch where error.errno == ENOENT {
            // The directory vanished since it was made: make it again, once.
            directoryReady.withLock { $0 = false }
            try ensureDirectory()
            try StateFileSystem.writeSynced(bytes, to: path)
        }
        return path
    }

    /// `.<app id>.items.tmp-<pid>`: hidden, so never listed, and one per app per process (the
    /// app's lock serialises its writers).
    private func temporaryPath(for appID: AppID) -> String {
        directory.appendingPathComponent(".\(appID.rawValue)\(Self.fileExtension).tmp-\(getpid())", isDirectory: false).path
    }

    /// The pid in a temporary file's name (`.<app>.items.tmp-<pid>`), or nil for other names.
    static func writerPID(ofTemporaryFile name: String) -> pid_t? {
        let marker = fileExtension + ".tmp-"
        guard name.hasPrefix("."), let range = name.range(of: marker, options: .backwards) else { return nil }
        return pid_t(name[range.upperBound...])
    }

    private func ensureDirectory() throws(SystemCallError) {
        if directoryReady.withLock({ $0 }) { return }
        try StateFileSystem.makeDirectory(directory.path)
        directoryReady.withLock { $0 = true }
    }

    private func fileNames() throws(StoreError) -> [String] {
        do {
            return try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            let code = ((error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError)?.code
            if code == Int(ENOENT) || (error as NSError).code == NSFileReadNoSuchFileError { return [] }
            throw .system(SystemCallError(call: "opendir", path: directory.path, errno: Int32(code ?? Int(EIO))))
        }
    }

    /// Moves an unusable file to `<name>.corrupt-<time>` (never over an earlier one).
    private func moveAside(_ path: String, appID: AppID, reason: String) -> Diagnostic {
        let target: String
        do {
            target = try StateFile.moveAside(path)
        } catch {
            return Diagnostic(
                file: path, reason: "\(reason); moving it aside failed (\(error)); \(appID) starts with no dynamic items",
                severity: .error
            )
        }
        return Diagnostic(
            file: path, reason: "\(reason); moved aside to \(target); \(appID) starts with no dynamic items",
            severity: .error
        )
    }

    private func withAppLock<Result, Failure: Error>(
        _ appID: AppID, _ body: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let lock = appLocks.withLock { locks in
            if let lock = locks[appID] { return lock }
            let lock = NSLock()
            locks[appID] = lock
            return lock
        }
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
