import FolderWatching
import Foundation

/// Watches the plugin directories and calls `changed` (at most every 150 ms, coalescing
/// bursts) when a bundle may have been added, removed or edited.
///
/// The directories themselves are watched from the start (a missing one on its nearest
/// existing ancestor); each bundle folder and each of its `.lproj` folders is watched by the
/// scan that reads it, just before it reads it (`watchFolder`, passed to
/// `PluginDirectories.scan` as `willRead`). So a manifest or library replaced in place, or a
/// table added, is seen as before, and no bundle folder is listed twice: the scan lists it
/// anyway, and the watcher used to list every one again (with Foundation), at start-up and
/// after each burst of events.
final class PluginWatcher: Sendable {
    private let watcher: FolderWatcher

    init(directories: [URL], changed: @escaping @Sendable () -> Void) throws(FolderWatcher.Failure) {
        let paths = directories.map(\.path)
        watcher = try FolderWatcher(
            label: "org.quickactions.broker.watch", delay: .milliseconds(150),
            watch: { Self.addWatches(for: paths, to: $0) }, changed: changed)
    }

    func stop() {
        watcher.stop()
    }

    /// Watches a bundle folder or `.lproj` folder the scan is about to read; ignored for a
    /// path that is not a folder (inotify ignores a folder watched twice).
    func watchFolder(_ folder: URL) {
        watcher.add(folder.path, [.contents, .onlyFolders])
    }

    /// Watches every plugin directory. One that does not exist (yet, or any more) is waited
    /// for on its nearest existing ancestor, so creating it or moving it back is noticed.
    /// Runs at the start and after each burst; the bundle folders are the scans' to watch.
    private static func addWatches(for directories: [String], to watches: FolderWatcher.Watches) {
        for directory in directories where !watches.add(directory, .contents) {
            watches.addNearestAncestor(of: directory)
        }
    }
}
