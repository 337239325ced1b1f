import Dispatch
import Glibc
import Locking

/// Watches folders with inotify and calls `changed` once per burst of events.
///
/// The owner says which folders matter in `watch`, which runs at the start and again after
/// every burst, so folders made meanwhile are watched too (inotify ignores a folder watched
/// twice). Owners that rescan everything take `changed: () -> Void`; owners that re-read only
/// what changed take ``Changes``: the paths the burst's events named. `changed` runs on the
/// watcher's own queue, `delay` after the first event of a burst; events within that delay are
/// folded into the same call.
public final class FolderWatcher: @unchecked Sendable {
    // @unchecked Sendable: `source` is set in init and only cancelled later, which Dispatch
    // allows from any thread; the rest is immutable or locked.
    private let fd: Int32
    private let queue: DispatchQueue
    private let source: any DispatchSourceRead
    private let scheduled = Locked(false)
    private let stopped = Locked(false)
    private let delay: DispatchTimeInterval
    private let watch: @Sendable (Watches) -> Void
    private let changed: @Sendable (Changes) -> Void
    /// The path of each watch descriptor, for naming what an event is about.
    private let paths: WatchPaths
    /// What the burst in progress has named so far.
    private let pending = Locked(Changes())

    /// What one burst of events named.
    public struct Changes: Sendable, Equatable {
        /// Every path an event was about: a watched folder's entry (`folder/name`: made,
        /// removed, renamed in or out, written, its attributes changed) or a watched folder
        /// itself (removed or moved).
        public var paths: Set<String> = []
        /// The kernel's event queue overflowed: events were lost, so anything may have changed.
        public var overflowed = false

        public init(paths: Set<String> = [], overflowed: Bool = false) {
            self.paths = paths
            self.overflowed = overflowed
        }
    }

    /// Watch descriptors and their paths: one descriptor may have several, when two paths
    /// name one folder (a symbolic link to it), and inotify gives both the same descriptor.
    final class WatchPaths: Sendable {
        private let byDescriptor = Locked<[Int32: Set<String>]>([:])

        func record(_ descriptor: Int32, _ path: String) { byDescriptor.withLock { _ = $0[descriptor, default: []].insert(path) } }
        func forget(_ descriptor: Int32) { byDescriptor.withLock { _ = $0.removeValue(forKey: descriptor) } }
        func paths(of descriptor: Int32) -> Set<String> { byDescriptor.withLock { $0[descriptor] ?? [] } }
    }

    /// What a watch reports.
    public struct Events: OptionSet, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        /// Anything that may change what the folder holds: entries made, removed, renamed in or
        /// out, written, their attributes changed, and the folder itself removed or moved.
        public static let contents = Events(rawValue: UInt32(IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO
            | IN_CLOSE_WRITE | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF))
        /// Entries made or renamed in: what makes a missing folder appear in its parent.
        public static let arrivals = Events(rawValue: UInt32(IN_CREATE | IN_MOVED_TO))
        /// Watch the path only if it is a folder (never a file or what a symbolic link names as one).
        public static let onlyFolders = Events(rawValue: UInt32(IN_ONLYDIR))
        /// Add to a watch already on the path instead of replacing its events.
        public static let adding = Events(rawValue: UInt32(IN_MASK_ADD))
    }

    /// The handle `watch` adds its folders through.
    public struct Watches: Sendable {
        fileprivate let fd: Int32
        fileprivate let paths: WatchPaths

        /// Watches `path` for `events`; false when it cannot be watched (missing, not a
        /// folder with `.onlyFolders`, no permission, or the user's watch limit reached).
        @discardableResult
        public func add(_ path: String, _ events: Events) -> Bool {
            let descriptor = inotify_add_watch(fd, path, events.rawValue)
            guard descriptor >= 0 else { return false }
            paths.record(descriptor, path)
            return true
        }

        /// Watches the nearest existing ancestor of `path` for arrivals, so that a missing
        /// folder's creation (or its return after a move) is seen.
        public func addNearestAncestor(of path: String) {
            var ancestor = Self.parentFolder(of: path)
            while let current = ancestor {
                if add(current, [.arrivals, .onlyFolders, .adding]) { return }
                ancestor = Self.parentFolder(of: current)
            }
        }

        /// The folder holding absolute `path`, nil for "/" or a relative path.
        public static func parentFolder(of path: String) -> String? {
            var trimmed = Substring(path)
            while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
            guard trimmed.hasPrefix("/"), trimmed != "/", let slash = trimmed.lastIndex(of: "/") else { return nil }
            return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
        }
    }

    /// Why a watcher could not start.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Starts watching.
    /// - Parameters:
    ///   - label: the watcher's queue label, for debuggers and crash reports.
    ///   - delay: how long a burst of events is collected before `changed` runs.
    ///   - watch: adds the watches that matter now; runs on the watcher's queue after each burst.
    ///   - changed: called once per burst, on the watcher's queue.
    public convenience init(
        label: String, delay: DispatchTimeInterval, watch: @escaping @Sendable (Watches) -> Void,
        changed: @escaping @Sendable () -> Void
    ) throws(Failure) {
        try self.init(label: label, delay: delay, watch: watch, changes: { _ in changed() })
    }

    /// Starts watching, and says which paths each burst's events named.
    /// - Parameters:
    ///   - changes: called once per burst, on the watcher's queue, with what its events named.
    public init(
        label: String, delay: DispatchTimeInterval, watch: @escaping @Sendable (Watches) -> Void,
        changes changed: @escaping @Sendable (Changes) -> Void
    ) throws(Failure) {
        fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard fd >= 0 else { throw Failure(description: "inotify_init1: \(String(cString: strerror(errno)))") }
        queue = DispatchQueue(label: label)
        self.delay = delay
        self.watch = watch
        self.changed = changed
        paths = WatchPaths()
        source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        source.setEventHandler { [weak self] in self?.drain() }
        source.setCancelHandler { [fd] in close(fd) }
        watch(Watches(fd: fd, paths: paths))
        source.resume()
    }

    /// Watches `path` for `events` from now on, outside `watch` (an owner that adds folders
    /// as it reads them); false when it cannot be watched, or the watcher was stopped. A folder
    /// added this way stays watched until it goes, as those `watch` adds do.
    @discardableResult
    public func add(_ path: String, _ events: Events) -> Bool {
        // The descriptor is closed only by the source's cancel handler, after `stop`.
        guard !stopped.withLock({ $0 }) else { return false }
        return Watches(fd: fd, paths: paths).add(path, events)
    }

    /// Stops watching; `changed` is not called after the pending burst, if any.
    public func stop() {
        stopped.withLock { $0 = true }
        source.cancel()
    }

    private func drain() {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var named = Changes()
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            collect(buffer[0..<count], into: &named)
        }
        pending.withLock { burst in
            burst.paths.formUnion(named.paths)
            burst.overflowed = burst.overflowed || named.overflowed
        }
        watch(Watches(fd: fd, paths: paths))
        let first = scheduled.withLock { pending in
            defer { pending = true }
            return !pending
        }
        guard first else { return }
        queue.asyncAfter(deadline: .now() + delay) { [weak self] in
            guard let self, !stopped.withLock({ $0 }) else { return }
            let burst = scheduled.withLock { scheduled in
                scheduled = false
                return pending.withLock { burst in
                    defer { burst = Changes() }
                    return burst
                }
            }
            changed(burst)
        }
    }

    /// Reads the `struct inotify_event`s in `bytes` (each a 16-byte header of wd, mask, cookie
    /// and name length, then the NUL-padded name) into the paths they name.
    private func collect(_ bytes: ArraySlice<UInt8>, into changes: inout Changes) {
        var offset = bytes.startIndex
        func word(at position: Int) -> UInt32 {
            UInt32(bytes[position]) | UInt32(bytes[position + 1]) << 8 | UInt32(bytes[position + 2]) << 16
                | UInt32(bytes[position + 3]) << 24
        }
        while offset + 16 <= bytes.endIndex {
            let descriptor = Int32(bitPattern: word(at: offset))
            let mask = word(at: offset + 4)
            let length = Int(word(at: offset + 12))
            let nameStart = offset + 16
            guard nameStart + length <= bytes.endIndex else { break }
            let name = String(decoding: bytes[nameStart..<(nameStart + length)].prefix { $0 != 0 }, as: UTF8.self)
            offset = nameStart + length
            if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                changes.overflowed = true
                continue
            }
            let folders = paths.paths(of: descriptor)
            if mask & UInt32(IN_IGNORED) != 0 {
                paths.forget(descriptor)
                changes.paths.formUnion(folders)
                continue
            }
            for folder in folders {
                changes.paths.insert(name.isEmpty ? folder : (folder == "/" ? "/" + name : folder + "/" + name))
            }
        }
    }
}
