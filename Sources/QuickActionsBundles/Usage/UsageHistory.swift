import Foundation

/// When each item was last performed successfully, per app, and the frecency score derived
/// from it. Plain values: no files, no clock (callers pass the time).
///
/// Frecency of an item at time `now` (seconds since 1970):
///
///     score = Σ over its last 16 uses u of 2^(−max(0, now − u) / H),  H = 7 days
///
/// so a use just now counts 1, a week-old use ½, a month-old use about 1/20, and an item used
/// often recently beats one used once. Never-used items score 0.
///
/// Bounded: at most `usesPerItem` uses per item (the oldest dropped), `itemsPerApp` items per
/// app and `maximumApps` apps (those whose latest use is oldest dropped first).
public struct UsageHistory: Sendable, Equatable {
    /// The half-life of a use's weight: 7 days, in seconds.
    public static let halfLife: Double = 7 * 24 * 3600
    public static let usesPerItem = 16
    public static let itemsPerApp = 128
    public static let maximumApps = 256
    /// The longest item id or app id kept (longer ones are not recorded).
    public static let maximumKeyBytes = 1024

    /// app id → item id → times of use (seconds since 1970), oldest first.
    public private(set) var apps: [String: [String: [Int64]]]

    public init(apps: [String: [String: [Int64]]] = [:]) {
        self.apps = [:]
        for (app, items) in apps {
            for (item, uses) in items {
                for time in uses.sorted() { insert(app: app, item: item, at: time) }
            }
        }
        trim()
    }

    public var isEmpty: Bool { apps.isEmpty }

    /// Records one use of `item` of `app` at `time`; false when an id is too long to keep.
    @discardableResult
    public mutating func record(app: String, item: String, at time: Int64) -> Bool {
        guard app.utf8.count <= Self.maximumKeyBytes, item.utf8.count <= Self.maximumKeyBytes,
              !app.isEmpty, !item.isEmpty else { return false }
        let itemCount = apps[app, default: [:]].recordUse(of: item, at: time, keeping: Self.usesPerItem)
        if itemCount > Self.itemsPerApp { trimItems(of: app) }
        trimApps()
        return true
    }

    /// The frecency score of `item` of `app` at `now` (see the type's documentation).
    public func score(app: String, item: String, now: Int64) -> Double {
        guard let uses = apps[app]?[item] else { return 0 }
        return uses.reduce(0) { sum, time in
            let age = Double(max(0, now - time))
            return sum + Self.weight(age: age)
        }
    }

    /// Every item's score of `app` at `now`; items never used are absent.
    public func scores(app: String, now: Int64) -> [String: Double] {
        guard let items = apps[app] else { return [:] }
        var result: [String: Double] = [:]
        for item in items.keys { result[item] = score(app: app, item: item, now: now) }
        return result
    }

    /// 2^(−age / half-life).
    public static func weight(age: Double) -> Double {
        Foundation.exp2(-age / halfLife)
    }

    /// Forgets `app`'s history, or every app's when nil. Returns how many items had history.
    @discardableResult
    public mutating func forget(app: String?) -> Int {
        guard let app else {
            defer { apps = [:] }
            return apps.values.reduce(0) { $0 + $1.count }
        }
        return apps.removeValue(forKey: app)?.count ?? 0
    }

    /// Drops the history of every app not in `keeping`; returns the apps dropped.
    @discardableResult
    public mutating func prune(keeping: Set<String>) -> [String] {
        let dropped = apps.keys.filter { !keeping.contains($0) }.sorted()
        for app in dropped { apps.removeValue(forKey: app) }
        return dropped
    }

    private mutating func insert(app: String, item: String, at time: Int64) {
        apps[app, default: [:]].recordUse(of: item, at: time, keeping: Self.usesPerItem)
    }

    /// Applies the item and app bounds, dropping whatever was used longest ago.
    private mutating func trim() {
        for app in apps.keys { trimItems(of: app) }
        trimApps()
    }

    private mutating func trimItems(of app: String) {
        guard let items = apps[app], items.count > Self.itemsPerApp else { return }
        let kept = items.sorted { latest($0.value) > latest($1.value) || (latest($0.value) == latest($1.value) && $0.key < $1.key) }
            .prefix(Self.itemsPerApp)
        apps[app] = Dictionary(uniqueKeysWithValues: kept.map { ($0.key, $0.value) })
    }

    private mutating func trimApps() {
        if apps.count > Self.maximumApps {
            let newest = apps.mapValues { items in items.values.map(latest).max() ?? .min }
            let kept = newest.sorted { $0.value > $1.value || ($0.value == $1.value && $0.key < $1.key) }
                .prefix(Self.maximumApps).map(\.key)
            apps = Dictionary(uniqueKeysWithValues: kept.compactMap { key in apps[key].map { (key, $0) } })
        }
    }

    private func latest(_ uses: [Int64]) -> Int64 { uses.last ?? .min }
}

extension [String: [Int64]] {
    /// Records a use of `item` in one app's history and returns how many items it has.
    ///
    /// This runs for every successful Perform, so it changes the stored uses in place (the
    /// defaulted subscripts yield their storage): no copy of the item's uses nor of the app's
    /// items, and one hash lookup per level; the caller needs no second lookup to check the
    /// app's bound.
    @discardableResult
    fileprivate mutating func recordUse(of item: String, at time: Int64, keeping limit: Int) -> Int {
        self[item, default: []].insertUse(time, keeping: limit)
        return count
    }
}

extension [Int64] {
    /// Inserts `time` among these uses (oldest first) and keeps the `limit` newest. A use is
    /// almost always the newest, so that case is an append.
    fileprivate mutating func insertUse(_ time: Int64, keeping limit: Int) {
        if let newest = last, newest > time {
            let index = lastIndex { $0 <= time }.map { $0 + 1 } ?? 0
            insert(time, at: index)
        } else {
            append(time)
        }
        if count > limit { removeFirst(count - limit) }
    }
}
