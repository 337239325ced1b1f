import FolderWatching
import Glibc
import Locking
import QuickActionsProviding

/// The installed applications, found as the Desktop Entry Specification says and kept
/// current: every desktop entry in `$XDG_DATA_HOME/applications`, then in each
/// `$XDG_DATA_DIRS` folder's `applications`, in that order (subfolders included, their names
/// joined to the desktop file id by `-`), the first file of an id shadowing every later one,
/// even when it is not shown itself (as GLib's index does). Entries the desktop-entry bridge
/// generated (``GeneratedMark``) are passed over as if absent.
///
/// Live: every `applications` folder, its subfolders and the data folders themselves (so an
/// `applications` folder made later is seen) are watched with inotify; a burst of changes is
/// coalesced (100 ms), and only the files it named are read again (a folder made, removed or
/// renamed has its tree listed again, and only entries whose size, times or inode changed are
/// read). Observers then get the whole set once, when it changed. No polling: without inotify
/// the index stays as first read, and says so in the log.
public final class InstalledApplicationIndex: InstalledApplications, Sendable {
    /// The `applications` folders, in precedence order.
    public let folders: [String]
    /// The data folders they are in, in the same order.
    let dataFolders: [String]
    private let reader: ApplicationEntryReader
    private let log: @Sendable (String) -> Void
    private let state: Locked<State>
    private let published = Locked<Published>(Published())
    private let watcher = Locked<FolderWatcher?>(nil)
    /// Where the index keeps what it read, for the next start; nil for none.
    private let cachePath: String?
    private let cacheKey: String

    /// What is known of one file.
    struct Known: Sendable {
        var signature: FileSignature
        var desktopID: String
        /// Its depth below the `applications` folder: of two files with one id in the same
        /// folder tree (`a-b.desktop`, `a/b.desktop`), the shallower wins.
        var depth: Int
        var reading: ApplicationEntryReader.Reading
        /// Whether the reading may be kept in the cache (``ApplicationIndexCache``).
        var cacheable: Bool
    }

    /// What tells a changed file from an unchanged one without reading it.
    struct FileSignature: Sendable, Equatable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modified: Int64
        var changed: Int64
    }

    private struct State: Sendable {
        /// Per `applications` folder, by path relative to it.
        var files: [[String: Known]]
        var filesRead = 0
        /// Whether `files` changed since the cache was read or written.
        var unsaved = false
    }

    private struct Published: Sendable {
        var applications: [String: InstalledApplication] = [:]
        var observers: [UInt64: @Sendable ([String: InstalledApplication]) -> Void] = [:]
        var nextObserver: UInt64 = 0
    }

    /// Reads every entry now and starts watching.
    /// - Parameters:
    ///   - environment: `XDG_DATA_HOME`, `XDG_DATA_DIRS`, `HOME` (the folders),
    ///     `XDG_CURRENT_DESKTOP` (`OnlyShowIn` / `NotShowIn`) and `PATH` (`TryExec`).
    ///   - log: hears about files refused (each named, with why) and folders left out.
    ///   - watching: false reads once and never again (for one-shot tools).
    public init(environment: [String: String], log: @escaping @Sendable (String) -> Void, watching: Bool = true) {
        let dataFolders = Self.dataFolders(for: environment)
        self.dataFolders = dataFolders
        folders = dataFolders.map { $0 == "/" ? "/applications" : $0 + "/applications" }
        reader = ApplicationEntryReader(environment: environment)
        self.log = log
        cachePath = ApplicationIndexCache.path(environment: environment)
        cacheKey = ApplicationIndexCache.key(reader: reader, folders: folders)
        state = Locked(State(files: Array(repeating: [:], count: dataFolders.count)))
        // Watching starts first, so nothing changed during the first read is missed; the
        // watcher's first burst waits for the state's lock, and the first set is published
        // under it, so it never overwrites what that burst found.
        if watching { startWatching() }
        let unsaved = state.withLock { state in
            loadCache(into: &state)
            for index in folders.indices { relist(index, in: &state) }
            let applications = visible(in: state)
            published.withLock { $0.applications = applications }
            return takeUnsaved(&state)
        }
        if let unsaved { saveCache(unsaved) }
    }

    deinit {
        watcher.withLock { $0?.stop() }
    }

    /// The data folders entries are looked for in, in precedence order: `$XDG_DATA_HOME`
    /// (default `~/.local/share`), then each of `$XDG_DATA_DIRS` (default
    /// `/usr/local/share:/usr/share`), each once.
    public static func dataFolders(for environment: [String: String]) -> [String] {
        let directories = DataDirectories.resolve(environment)
        var folders: [String] = []
        for folder in [directories.home] + directories.system where !folders.contains(folder) {
            folders.append(folder)
        }
        return folders
    }

    /// Stops watching; the set stays as last read and observers hear nothing more.
    public func stop() {
        watcher.withLock { watcher in
            watcher?.stop()
            watcher = nil
        }
    }

    public var applications: [String: InstalledApplication] {
        published.withLock { $0.applications }
    }

    /// How many entry files have been read (parsed) since the index was made: the first read
    /// of each, then one per changed file.
    public var filesRead: Int {
        state.withLock { $0.filesRead }
    }

    public func observe(_ handler: @escaping @Sendable ([String: InstalledApplication]) -> Void) -> ObservationToken {
        let id = published.withLock { published in
            defer { published.nextObserver += 1 }
            published.observers[published.nextObserver] = handler
            return published.nextObserver
        }
        return ObservationToken { [weak self] in
            _ = self?.published.withLock { $0.observers.removeValue(forKey: id) }
        }
    }

    // MARK: Watching

    private func startWatching() {
        let dataFolders = dataFolders
        let folders = folders
        do {
            let watching = try FolderWatcher(
                label: "org.quickactions.desktop-entries.applications", delay: .milliseconds(100),
                watch: { watches in Self.addWatches(dataFolders: dataFolders, folders: folders, to: watches) },
                changes: { [weak self] changes in self?.apply(changes) })
            watcher.withLock { $0 = watching }
        } catch {
            log("cannot watch \(folders.joined(separator: ", ")) (\(error)); installed applications are read once and not followed")
        }
    }

    private static func addWatches(dataFolders: [String], folders: [String], to watches: FolderWatcher.Watches) {
        let events: FolderWatcher.Events = [.contents, .onlyFolders]
        for (data, applications) in zip(dataFolders, folders) {
            // A data folder only for arrivals (an applications folder made or renamed in):
            // the files written there all day (recently-used.xbel) are none of ours, and the
            // applications folder's own watch sees it removed or moved away.
            if !watches.add(data, [.arrivals, .onlyFolders]) { watches.addNearestAncestor(of: data) }
            for folder in ApplicationFolderWalk(root: applications).folders {
                watches.add(folder, events)
            }
        }
    }

    /// Follows one burst: the files it named read again, the trees whose folders changed
    /// listed again; observers told when the set changed.
    func apply(_ changes: FolderWatcher.Changes) {
        let (before, after, unsaved) = state.withLock {
            state -> ([String: InstalledApplication], [String: InstalledApplication], [[String: Known]]?) in
            let before = published.withLock { $0.applications }
            var relisted = Set<Int>()
            var files: [(Int, String)] = []
            for (index, root) in folders.enumerated() {
                if changes.overflowed {
                    relisted.insert(index)
                    continue
                }
                for path in changes.paths {
                    if path == root || root.hasPrefix(path.hasSuffix("/") ? path : path + "/") {
                        // The folder itself, or a folder above it, was made, moved or removed.
                        relisted.insert(index)
                    } else if path.hasPrefix(root + "/") {
                        let relative = String(path.dropFirst(root.count + 1))
                        if path.hasSuffix(".desktop") && !DataDirectories.isFolder(path) {
                            // Dot files are not read, as in a listing (the bridge's temporary files are ones).
                            if relative.split(separator: "/").last?.hasPrefix(".") == true { continue }
                            // An entry made, written, renamed in or out, or removed.
                            files.append((index, relative))
                        } else if DataDirectories.isFolder(path) || state.files[index].keys.contains(where: { $0.hasPrefix(relative + "/") }) {
                            // A subfolder made, renamed in or out, or removed.
                            relisted.insert(index)
                        }
                    }
                }
            }
            for index in relisted.sorted() { relist(index, in: &state) }
            for (index, relative) in files where !relisted.contains(index) {
                refresh(relative, in: index, state: &state)
            }
            return (before, visible(in: state), takeUnsaved(&state))
        }
        if let unsaved { saveCache(unsaved) }
        guard before != after else { return }
        let observers = published.withLock { published in
            published.applications = after
            return Array(published.observers.values)
        }
        for observer in observers { observer(after) }
    }

    // MARK: Reading

    /// Lists folder `index` again: new and changed entries read, vanished ones forgotten.
    private func relist(_ index: Int, in state: inout State) {
        let walk = ApplicationFolderWalk(root: folders[index])
        for reason in walk.skipped { log(reason) }
        let present = Set(walk.entries)
        for relative in state.files[index].keys where !present.contains(relative) {
            state.files[index].removeValue(forKey: relative)
            state.unsaved = true
        }
        for relative in walk.entries { refresh(relative, in: index, state: &state) }
    }

    /// Reads one entry again if it changed since it was read; forgets it when it is gone.
    private func refresh(_ relative: String, in index: Int, state: inout State) {
        let path = folders[index] + "/" + relative
        var status = stat()
        guard stat(path, &status) == 0 else {
            if state.files[index].removeValue(forKey: relative) != nil { state.unsaved = true }
            return
        }
        let signature = FileSignature(
            device: UInt64(status.st_dev), inode: UInt64(status.st_ino), size: Int64(status.st_size),
            modified: Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec),
            changed: Int64(status.st_ctim.tv_sec) * 1_000_000_000 + Int64(status.st_ctim.tv_nsec))
        if let known = state.files[index][relative], known.signature == signature { return }
        let desktopID = ApplicationFolderWalk.desktopID(ofRelativePath: relative)
        var read: (reading: ApplicationEntryReader.Reading, cacheable: Bool) = (.refused("is not a regular file"), true)
        if (status.st_mode & S_IFMT) == S_IFREG {
            state.filesRead += 1
            read = reader.read(path: path, desktopID: desktopID) { log($0) }
        }
        if case .refused(let reason) = read.reading { log("\(path) \(reason); not an installed application") }
        let previous = state.files[index].updateValue(Known(
            signature: signature, desktopID: desktopID, depth: relative.split(separator: "/").count, reading: read.reading,
            cacheable: read.cacheable), forKey: relative)
        // An entry with a TryExec is read at every start and never kept: it changes no cache.
        if read.cacheable || previous?.cacheable == true { state.unsaved = true }
    }

    // MARK: Cache

    /// Starts from what the cache recorded: files whose signature is unchanged are not read
    /// again (their refusals are still logged, as every start logs them).
    private func loadCache(into state: inout State) {
        guard let cachePath else { return }
        switch ApplicationIndexCache.read(cachePath, key: cacheKey, folders: folders.count) {
        case nil:
            return
        case .failure(let damage):
            log("the index cache \(cachePath) \(damage); every entry is read")
            state.unsaved = true
        case .success(let files):
            state.files = files
            for (index, folder) in files.enumerated() {
                for (relative, known) in folder {
                    if case .refused(let reason) = known.reading {
                        log("\(folders[index])/\(relative) \(reason); not an installed application")
                    }
                }
            }
        }
    }

    /// The files to save when they changed since the last save; clears the mark.
    private func takeUnsaved(_ state: inout State) -> [[String: Known]]? {
        guard cachePath != nil, state.unsaved else { return nil }
        state.unsaved = false
        return state.files
    }

    private func saveCache(_ files: [[String: Known]]) {
        guard let cachePath else { return }
        if let failure = ApplicationIndexCache.write(ApplicationIndexCache.encode(files, key: cacheKey), to: cachePath) {
            log("the index cache is not kept: \(failure)")
        }
    }

    /// The shown applications: for each desktop file id, the file of the first folder that has
    /// one (the shallowest, then the first by name, within a folder); generated entries skipped.
    private func visible(in state: State) -> [String: InstalledApplication] {
        var winners: [String: (folder: Int, depth: Int, relative: String, reading: ApplicationEntryReader.Reading)] = [:]
        for (index, files) in state.files.enumerated() {
            for (relative, known) in files where known.reading != .generated {
                if let current = winners[known.desktopID],
                   (current.folder, current.depth, current.relative) < (index, known.depth, relative) {
                    continue
                }
                winners[known.desktopID] = (index, known.depth, relative, known.reading)
            }
        }
        var applications: [String: InstalledApplication] = [:]
        for winner in winners.values {
            if case .shown(let application) = winner.reading { applications[application.appID] = application }
        }
        return applications
    }
}
