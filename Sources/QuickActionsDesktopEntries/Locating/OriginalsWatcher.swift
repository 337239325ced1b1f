import Dispatch
import Foundation
import Glibc
import Locking

/// Watches the folders originals live in, with inotify, and calls `changed` when an entry may
/// have been added, replaced (a package update renames a new file over the old), edited or
/// removed: each `$XDG_DATA_DIRS/applications` folder and its subfolders, and each data folder
/// itself, so an `applications` folder made later is seen too. Bursts are coalesced (100 ms).
final class OriginalsWatcher: @unchecked Sendable {
    // @unchecked Sendable: `source` is set in init and only cancelled later, which Dispatch
    // allows from any thread; the rest is immutable or locked.
    private let fd: Int32
    private let directories: DataDirectories
    private let queue = DispatchQueue(label: "org.quickactions.desktop-entries.watch")
    private let source: any DispatchSourceRead
    private let scheduled = Locked(false)
    private let changed: @Sendable () -> Void

    private static let mask = UInt32(IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_CLOSE_WRITE
        | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)

    struct WatchError: Error, CustomStringConvertible {
        let description: String
    }

    init(directories: DataDirectories, changed: @escaping @Sendable () -> Void) throws(WatchError) {
        fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard fd >= 0 else { throw WatchError(description: "inotify_init1: \(String(cString: strerror(errno)))") }
        self.directories = directories
        self.changed = changed
        source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        source.setEventHandler { [weak self] in self?.drain() }
        source.setCancelHandler { [fd] in close(fd) }
        addWatches()
        source.resume()
    }

    func stop() {
        source.cancel()
    }

    private func drain() {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while buffer.withUnsafeMutableBytes({ read(fd, $0.baseAddress, $0.count) }) > 0 {}
        addWatches()
        let first = scheduled.withLock { pending in
            defer { pending = true }
            return !pending
        }
        guard first else { return }
        queue.asyncAfter(deadline: .now() + .milliseconds(100)) { [weak self] in
            guard let self else { return }
            scheduled.withLock { $0 = false }
            changed()
        }
    }

    /// Watches every folder that matters now; inotify ignores repeats.
    private func addWatches() {
        for data in directories.system {
            _ = inotify_add_watch(fd, data, Self.mask)
            let applications = data + "/applications"
            guard inotify_add_watch(fd, applications, Self.mask) >= 0 else { continue }
            for entry in (try? FileManager.default.contentsOfDirectory(atPath: applications)) ?? []
            where !entry.hasPrefix(".") && DataDirectories.isFolder(applications + "/" + entry) {
                _ = inotify_add_watch(fd, applications + "/" + entry, Self.mask)
            }
        }
    }
}
