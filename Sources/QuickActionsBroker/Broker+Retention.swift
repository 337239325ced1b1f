import DBus
import Foundation
import QuickActionsBundles
import QuickActionsModel

/// When stored dynamic items go: never because a bundle is missing at one
/// moment, only by the retention rule or by ForgetApplication.
///
/// The rule: an app's stored items (and its last-seen record) are removed
/// when no broker using this state directory has seen its bundle for more
/// than `--forget-unseen-days` days (default 30; 0 = never). "Seen" means a
/// scan read the bundle; every scan moves the seen apps' records forward
/// (`LastSeenRecords`). The rule is applied only after a scan that listed
/// every plugin directory and read every bundle folder in them: a listing
/// that failed (EMFILE, EACCES, not a folder, or a folder that some broker
/// listed before and is missing now) never counts as "not seen". Only a
/// default folder that no broker ever listed may be missing.
extension Broker {
    /// Moves the seen apps' records forward, then, after a complete scan,
    /// removes what the retention rule says. Runs on the scan queue: after
    /// each rescan, and for the initial scan once `run()` has the name.
    func applyRetention(after scan: PluginDirectories.Scan) {
        let now = configuration.now()
        let present = Set(scan.bundles.map(\.appID))
        var failure: StoreError?
        for appID in present.sorted() {
            do {
                try lastSeen.markSeen(appID, now: now)
            } catch {
                failure = failure ?? error
            }
        }
        let unlistedPaths = Set(scan.unlisted.map(\.directory.path))
        for directory in configuration.pluginDirectories where !unlistedPaths.contains(directory.path) {
            do {
                try lastSeen.markListed(directory.path)
            } catch {
                failure = failure ?? error
            }
        }
        let wasUnwritable = lastSeenUnwritable.withLock { flag in
            defer { flag = failure != nil }
            return flag
        }
        if let failure, !wasUnwritable {
            log(.warning, "cannot record which apps were seen (\(failure)); no stored items are removed as unseen "
                + "while records cannot be kept")
        }
        let days = configuration.forgetUnseenDays
        guard days > 0 else { return }
        // Unknown is not absent: a folder that failed to list, one that was
        // listed once and is missing now (moved away), or a bundle that could
        // not be read stops the rule. A default folder that never existed
        // holds nothing.
        let unknown = scan.unlisted.filter { !$0.missing || lastSeen.wasListed($0.directory.path) }.map(\.directory.path)
            + scan.unreadableBundles.map(\.path)
        guard unknown.isEmpty, failure == nil else {
            let what = unknown.isEmpty ? "the records cannot be written" : "\(unknown.joined(separator: ", ")) could not be read"
            log(.debug, "retention check skipped: \(what)")
            return
        }
        // What is installed now counts as present too: the initial scan is applied once the name
        // is taken, so a rescan may have found a bundle it did not (one added while starting).
        let installed = catalog.withLock { catalog in catalog.sorted.compactMap { $0.bundle?.appID } }
        let candidates: Set<AppID>
        do {
            candidates = Set(try store.storedAppIDs() + lastSeen.recordedAppIDs()).subtracting(present)
                .subtracting(installed)
        } catch {
            log(.warning, "retention check skipped: \(error)")
            return
        }
        for appID in candidates.sorted() {
            switch lastSeen.read(appID) {
            case .none:
                // Items stored before the records existed: their clock starts now.
                try? lastSeen.write(now, for: appID)
            case .unusable(let diagnostic):
                log(.warning, "\(diagnostic.description); counting \(appID) as seen now")
                if case .unusable = StateFile.read(diagnostic.file, limit: 64) {
                    _ = try? StateFile.moveAside(diagnostic.file)
                }
                try? lastSeen.write(now, for: appID)
            case .seen(let seconds):
                guard LastSeenRecords.isExpired(lastSeen: seconds, now: now, days: days) else { continue }
                let count = store.load(appID).items.count
                do {
                    try store.remove(appID)
                    try lastSeen.remove(appID)
                } catch {
                    log(.warning, "cannot remove the stored items of \(appID), unseen for more than \(days) days: \(error)")
                    continue
                }
                log(.info, "removed the \(count) stored dynamic item(s) of \(appID): no broker has seen its bundle since "
                    + "\(Self.utc(seconds)), more than \(days) days (--forget-unseen-days)")
            }
        }
    }

    /// ForgetApplication: removes the stored items and last-seen record of
    /// an app that is not installed. Runs on the scan queue, so no rescan
    /// adds the app meanwhile.
    /// - Returns: how many stored items were removed.
    func forgetApplication(_ id: String, caller: String?) throws(DBusError) -> UInt32 {
        let appID: AppID
        do {
            appID = try AppID(id)
        } catch {
            throw .invalidArgs("\(String(id.prefix(80)).debugDescription) is not an app id: \(error)")
        }
        if let app = catalog.withLock({ $0[id] }), let bundle = app.bundle {
            throw DBusError(.applicationInstalled,
                            "\(id) is installed (\(bundle.url.path)): its plugin owns its items; remove the bundle first")
        }
        let stored: Bool
        do {
            stored = try store.storedAppIDs().contains(appID)
        } catch {
            throw .failed("cannot read \(store.directory.path): \(error)")
        }
        let recorded = lastSeen.read(appID) != .none
        guard stored || recorded else {
            throw DBusError(.unknownApplication, "no stored items or record of \"\(id)\" in \(store.directory.path)")
        }
        let count = store.load(appID).items.count
        do {
            try store.remove(appID)
            try lastSeen.remove(appID)
        } catch {
            throw .failed("cannot forget \(id): \(error)")
        }
        log(.info, "forgot \(id): removed its \(count) stored dynamic item(s) (ForgetApplication from \(caller ?? "?"))")
        return UInt32(clamping: count)
    }

    /// Logs the plugin directories that could not be listed: a warning for
    /// each new one (a missing default XDG folder only in --verbose), and
    /// when one can be listed again.
    func reportUnlisted(_ unlisted: [PluginDirectories.Unlisted]) {
        let now = Dictionary(unlisted.map { ($0.directory.path, $0.reason) }, uniquingKeysWith: { first, _ in first })
        let before = unlistedDirectories.withLock { saved in
            defer { saved = now }
            return saved
        }
        for entry in unlisted where before[entry.directory.path] != entry.reason {
            let level: Log.Level = entry.missing && !configuration.pluginDirectoriesChosen ? .debug : .warning
            log(level, "plugin directory \(entry.directory.path) cannot be listed: \(entry.reason); its apps are not "
                + "served, and their stored items are kept")
        }
        for path in before.keys.sorted() where now[path] == nil {
            log(.info, "plugin directory \(path) can be listed again")
        }
    }

    static func utc(_ seconds: Int64) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday)) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) UTC"
    }
}
