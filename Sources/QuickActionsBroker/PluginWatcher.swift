import Locking
import Foundation
import Glibc

/// Watches the plugin directories with inotify and calls `changed` (at most
/// every 150 ms, coalescing bursts) when a bundle may have been added,
/// removed or edited: the directories themselves, each bundle folder and
/// each of its `.lproj` folders are watched.
final class PluginWatcher: @unchecked Sendable {
    // @unchecked Sendable: `source` is set in init and only cancelled later,
    // which Dispatch allows from any thread; the rest is immutable or locked.
    private let fd: Int32
    private let directories: [URL]
    private let queue = DispatchQueue(label: "org.quickactions.broker.watch")
    private let source: any DispatchSourceRead
    private let scheduled = Locked(false)
    private let changed: @Sendable () -> Void

    private static let mask = UInt32(IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_CLOSE_WRITE
        | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF)

    init(directories: [URL], changed: @escaping @Sendable () -> Void) throws {
        fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard fd >= 0 else { throw WatchError(reason: "inotify_init1: \(String(cString: strerror(errno)))") }
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
        queue.asyncAfter(deadline: .now() + .milliseconds(150)) { [weak self] in
            guard let self else { return }
            scheduled.withLock { $0 = false }
            changed()
        }
    }

    /// Creation and arrival of entries: what makes a missing directory appear.
    private static let ancestorMask = UInt32(IN_CREATE | IN_MOVED_TO | IN_ONLYDIR | IN_MASK_ADD)

    private func watchNearestAncestor(of directory: URL) {
        var ancestor = directory.deletingLastPathComponent()
        while ancestor.path != "/" && !ancestor.path.isEmpty {
            if inotify_add_watch(fd, ancestor.path, Self.ancestorMask) >= 0 { return }
            ancestor = ancestor.deletingLastPathComponent()
        }
    }

    /// Watches every directory that matters now; inotify ignores repeats.
    /// A plugin directory that does not exist (yet, or any more) is waited
    /// for on its nearest existing ancestor, so creating it or moving it
    /// back is noticed.
    private func addWatches() {
        let files = FileManager.default
        for directory in directories {
            guard inotify_add_watch(fd, directory.path, Self.mask) >= 0 else {
                watchNearestAncestor(of: directory)
                continue
            }
            for bundle in (try? files.contentsOfDirectory(atPath: directory.path)) ?? [] where !bundle.hasPrefix(".") {
                let bundlePath = directory.appendingPathComponent(bundle).path
                guard inotify_add_watch(fd, bundlePath, Self.mask | UInt32(IN_ONLYDIR)) >= 0 else { continue }
                for entry in (try? files.contentsOfDirectory(atPath: bundlePath)) ?? [] where entry.hasSuffix(".lproj") {
                    _ = inotify_add_watch(fd, "\(bundlePath)/\(entry)", Self.mask | UInt32(IN_ONLYDIR))
                }
            }
        }
    }
}

struct WatchError: Error, CustomStringConvertible {
    let reason: String
    var description: String { reason }
}
