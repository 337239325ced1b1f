import DBus
import QuickActionsAPI
import Foundation
import QuickActionsBundles
import QuickActionsModel

extension Broker {
    /// Re-reads the plugin directories soon, on the scan queue.
    func rescan(reason: String) {
        scanQueue.async { [self] in rescanNow(reason: reason) }
    }

    /// Re-reads the plugin directories and applies the difference: apps
    /// added, removed or changed, each announced on the bus. A removed app
    /// leaves the API only: its stored items stay on disk and are listed
    /// again when its bundle comes back (see Broker+Retention.swift for when
    /// they go). An app in a directory that could not be listed this time
    /// (other than a missing one) stays as it was. Runs on the scan queue.
    func rescanNow(reason: String) {
        let scan = scanPluginDirectories()
        reportScan(scan.diagnostics)
        reportUnlisted(scan.unlisted)
        defer { applyRetention(after: scan) }
        let before = catalog.withLock { $0 }
        var added: [AppSnapshot] = []
        var changed: [AppSnapshot] = []
        for bundle in scan.bundles {
            if let current = before[bundle.appID.rawValue], current.bundle == nil {
                // An app only the providers served until now gets its plugin.
                changed.append(snapshot(of: bundle, storedItems: loadStoredItems(bundle.appID)).replacing(provided: current.provided))
            } else if let current = before[bundle.appID.rawValue] {
                if current.bundle != bundle {
                    changed.append(current.replacing(bundle: bundle))
                }
            } else {
                added.append(snapshot(of: bundle, storedItems: loadStoredItems(bundle.appID)))
            }
        }
        let present = Set(scan.bundles.map(\.appID.rawValue))
        // Unknown is not absent: a folder that failed to list (EMFILE, EACCES)
        // or a bundle whose Info.plist could not be read keeps its apps.
        let unknown = Set(scan.unlisted.filter { !$0.missing }.map(\.directory.standardizedFileURL.path))
        let unreadable = Set(scan.unreadableBundles.map(\.standardizedFileURL.path))
        let removed = before.sorted.filter { app in
            guard let bundle = app.bundle?.url.standardizedFileURL else { return false }
            return !present.contains(app.id) && !unknown.contains(bundle.deletingLastPathComponent().path)
                && !unreadable.contains(bundle.path)
        }
        guard !added.isEmpty || !changed.isEmpty || !removed.isEmpty else {
            log(.debug, "\(reason); nothing changed")
            return
        }
        catalog.withLock { catalog in
            for app in added + changed { catalog.set(app) }
            for app in removed { catalog.remove(app.id) }
        }
        // What the providers give follows: an installed application a new bundle claims, or
        // one whose bundle went.
        defer { reconcileProvided() }
        for app in removed {
            // Its plugin host (if one runs) gets will-resign and ends.
            slots.withLock { $0.removeValue(forKey: app.id) }?.executor.stop(bound: .seconds(5)) {}
            status.forget(app.id)
            try? connection.unexport(app.objectPath)
            log(.info, "removed \(app.id) (\(app.bundle?.url.path ?? "")); its stored items are kept")
        }
        for app in added {
            try? connection.export([applicationInterface()], at: app.objectPath)
            log(.info, "added \(app.id) from \(app.bundle?.url.path ?? "")")
        }
        for app in changed {
            try? connection.emitPropertiesChanged(
                path: app.objectPath, interface: Self.applicationInterfaceName,
                names: Self.bundlePropertyNames + Self.bundleStatusPropertyNames)
            log(.info, "reread \(app.id): its bundle changed")
        }
        if !added.isEmpty || !removed.isEmpty {
            try? connection.emit(path: Self.rootPath, interface: Self.interfaceName, member: BrokerAPI.Signal.applicationsChanged)
        }
        for app in added { emitItemsChanged(app, added: true) }
        for app in changed { emitItemsChanged(app) }
        for app in removed {
            try? connection.emit(path: Self.rootPath, interface: Self.interfaceName, member: BrokerAPI.Signal.itemsChanged, [.string(app.id)])
        }
    }
}
