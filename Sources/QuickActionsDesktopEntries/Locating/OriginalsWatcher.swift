import FolderWatching
import Foundation

/// Watches the folders originals live in and calls `changed` when an entry may have been
/// added, replaced (a package update renames a new file over the old), edited or removed:
/// each `$XDG_DATA_DIRS/applications` folder and its subfolders, and each data folder itself,
/// so an `applications` folder made later is seen too. Bursts are coalesced (100 ms).
final class OriginalsWatcher: Sendable {
    private let watcher: FolderWatcher

    init(directories: DataDirectories, changed: @escaping @Sendable () -> Void) throws(FolderWatcher.Failure) {
        let system = directories.system
        watcher = try FolderWatcher(
            label: "org.quickactions.desktop-entries.watch", delay: .milliseconds(100),
            watch: { Self.addWatches(for: system, to: $0) }, changed: changed)
    }

    func stop() {
        watcher.stop()
    }

    private static func addWatches(for dataFolders: [String], to watches: FolderWatcher.Watches) {
        let events: FolderWatcher.Events = [.contents, .onlyFolders]
        for data in dataFolders {
            watches.add(data, events)
            let applications = data + "/applications"
            guard watches.add(applications, events) else { continue }
            for entry in (try? FileManager.default.contentsOfDirectory(atPath: applications)) ?? []
            where !entry.hasPrefix(".") && DataDirectories.isFolder(applications + "/" + entry) {
                watches.add(applications + "/" + entry, events)
            }
        }
    }
}
