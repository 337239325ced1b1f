import FolderWatching
import Foundation

/// Watches the plugin directories and calls `changed` (at most every 150 ms, coalescing
/// bursts) when a bundle may have been added, removed or edited: the directories themselves,
/// each bundle folder and each of its `.lproj` folders are watched.
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

    /// Watches every directory that matters now. A plugin directory that does not exist (yet,
    /// or any more) is waited for on its nearest existing ancestor, so creating it or moving
    /// it back is noticed.
    private static func addWatches(for directories: [String], to watches: FolderWatcher.Watches) {
        let files = FileManager.default
        for directory in directories {
            guard watches.add(directory, .contents) else {
                watches.addNearestAncestor(of: directory)
                continue
            }
            for bundle in (try? files.contentsOfDirectory(atPath: directory)) ?? [] where !bundle.hasPrefix(".") {
                let bundlePath = directory + "/" + bundle
                guard watches.add(bundlePath, [.contents, .onlyFolders]) else { continue }
                for entry in (try? files.contentsOfDirectory(atPath: bundlePath)) ?? [] where entry.hasSuffix(".lproj") {
                    watches.add(bundlePath + "/" + entry, [.contents, .onlyFolders])
                }
            }
        }
    }
}
