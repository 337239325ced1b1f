import Dispatch
import Foundation
import Glibc

/// Calls a closure whenever one file in a folder is written, replaced, moved or removed, using
/// inotify on the folder (so an editor's save-by-rename is seen as well as a write in place).
///
/// The watch lasts as long as the watcher; the closure runs on the given queue.
final class DataFileWatcher {
    private let source: any DispatchSourceRead

    /// Starts watching `fileName` in `folder`.
    /// - Throws: ``ContactsError/unreadable(path:reason:)`` naming the folder when inotify
    ///   cannot watch it.
    init(
        folder: URL, fileName: String, queue: DispatchQueue, onChange: @escaping @Sendable () -> Void
    ) throws(ContactsError) {
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else {
            throw .unreadable(path: folder.path, reason: "inotify_init1: \(String(cString: strerror(errno)))")
        }
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE)
        guard inotify_add_watch(fd, folder.path, mask) >= 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw .unreadable(path: folder.path, reason: "inotify_add_watch: \(reason)")
        }
        source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        source.setEventHandler {
            if Self.drainEvents(fd).contains(fileName) {
                onChange()
            }
        }
        source.setCancelHandler { close(fd) }
        source.resume()
    }

    deinit {
        source.cancel()
    }

    /// Reads every pending inotify event and returns the file names they concern.
    private static func drainEvents(_ fd: Int32) -> Set<String> {
        // struct inotify_event: int wd; uint32_t mask, cookie, len; char name[len] (NUL-padded).
        let headerSize = 16
        var names: Set<String> = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            var offset = 0
            while offset + headerSize <= count {
                let length = buffer.withUnsafeBytes {
                    Int($0.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                }
                let end = min(offset + headerSize + length, count)
                let name = buffer[(offset + headerSize)..<end].prefix { $0 != 0 }
                names.insert(String(decoding: name, as: UTF8.self))
                offset = end
            }
        }
        return names
    }
}
