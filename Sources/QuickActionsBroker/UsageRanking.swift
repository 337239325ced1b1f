import DBus
import Dispatch
import Foundation
import Locking
import QuickActionsAPI
import QuickActionsBundles
import QuickActionsModel

/// The order GetItems and GetAllItems list an app's items in (option `order`).
typealias ListingOrder = BrokerAPI.Order

extension BrokerAPI.Order {
    init(option value: String) throws(DBusError) {
        guard let order = BrokerAPI.Order(rawValue: value) else {
            throw DBusError.invalidArgs("option \"\(BrokerAPI.Option.order)\" is \"\(value.prefix(64))\"; it must be "
                + BrokerAPI.Order.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " or "))
        }
        self = order
    }
}

/// Usage ranking: records each successful Perform per item, keeps the history in the state
/// directory (``UsageStore``) and orders listings by frecency.
///
/// Recording only changes memory under a lock; the file is written on a serial queue a second
/// after the first unsaved use, one write for however many uses arrived meanwhile, so a
/// Perform never waits for the disk and a burst of Performs costs one write. `flush()` writes
/// what is pending at once (the broker calls it when stopping); a broker killed outright
/// loses at most the last second's uses.
final class UsageRanking: Sendable {
    /// The item key carrying an item's score in frecency-ordered listings.
    static let scoreKey = ItemKey.frecency

    private struct State {
        var history: UsageHistory
        var saveScheduled = false
        /// The last write failed (said once in the log, until one succeeds again).
        var saveFailing = false
    }

    private let store: UsageStore
    private let state: Locked<State>
    private let queue = DispatchQueue(label: "org.quickactions.broker.usage")
    private let log: Log
    private let now: @Sendable () -> Int64
    /// How long a use waits to be written with those after it.
    static let saveDelay: DispatchTimeInterval = .seconds(1)

    init(directory: URL, log: Log, now: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }) {
        store = UsageStore(directory: directory)
        self.log = log
        self.now = now
        let (history, diagnostics) = store.load()
        for diagnostic in diagnostics { log(.error, diagnostic.description) }
        state = Locked(State(history: history))
    }

    /// One successful Perform of `item` of `app`.
    func record(app: String, item: String) {
        let schedule = state.withLock { state -> Bool in
            guard state.history.record(app: app, item: item, at: now()) else { return false }
            defer { state.saveScheduled = true }
            return !state.saveScheduled
        }
        if schedule { queue.asyncAfter(deadline: .now() + Self.saveDelay) { self.saveNow() } }
    }

    /// Forgets `app`'s history, or all when nil; `done` gets the number of items forgotten once
    /// the file says so, or the error that kept it from saying so.
    func forget(app: String?, done: @escaping @Sendable (Result<Int, StoreError>) -> Void) {
        let count = state.withLock { $0.history.forget(app: app) }
        queue.async {
            do throws(StoreError) {
                try self.saveNow(throwing: true)
                done(.success(count))
            } catch {
                done(.failure(error))
            }
        }
    }

    /// Whether `app` has any recorded use.
    func hasHistory(_ app: String) -> Bool {
        state.withLock { $0.history.apps[app] != nil }
    }

    /// Writes every recorded use now, and waits for it.
    func flush() {
        queue.sync { saveNow() }
    }

    /// `items` (one app's, in display order) by frecency, each with its score under
    /// ``scoreKey`` (d); at most `limit` of them.
    func ordered(_ items: [Value], app: String, limit: UInt32?) -> [Value] {
        let scores = state.withLock { $0.history.scores(app: app, now: now()) }
        let ranked = items.enumerated().map { index, item -> (score: Double, index: Int, item: Value) in
            let score = Self.itemID(of: item).flatMap { scores[$0] } ?? 0
            return (score, index, Self.adding(score: score, to: item))
        }.sorted { $0.score > $1.score || ($0.score == $1.score && $0.index < $1.index) }
        let all = ranked.map(\.item)
        guard let limit, Int(limit) < all.count else { return all }
        return Array(all.prefix(Int(limit)))
    }

    /// An item's `id`, else its `type` (for items listed without an id).
    static func itemID(of item: Value) -> String? {
        guard case .dictionary(_, _, let entries) = item else { return nil }
        var type: String?
        for entry in entries {
            guard case .string(let key) = entry.key, case .variant(.string(let text)) = entry.value else { continue }
            if key == ItemKey.id { return text }
            if key == ItemKey.type { type = text }
        }
        return type
    }

    private static func adding(score: Double, to item: Value) -> Value {
        guard case .dictionary(let key, let value, let entries) = item else { return item }
        return .dictionary(key: key, value: value, entries + [DictionaryEntry(.string(scoreKey), .variant(.double(score)))])
    }

    /// Writes the history if a write is due (always with `throwing`). Runs on `queue`.
    private func saveNow(throwing: Bool = false) throws(StoreError) {
        let history = state.withLock { state -> UsageHistory? in
            guard state.saveScheduled || throwing else { return nil }
            state.saveScheduled = false
            return state.history
        }
        guard let history else { return }
        do {
            try store.save(history)
            let recovered = state.withLock { state -> Bool in
                defer { state.saveFailing = false }
                return state.saveFailing
            }
            if recovered { log(.info, "the usage history is saved again to \(store.fileURL.path)") }
        } catch {
            if throwing { throw error }
            let first = state.withLock { state in
                defer { state.saveFailing = true }
                return !state.saveFailing
            }
            if first {
                log(.warning, "cannot save the usage history to \(store.fileURL.path): \(error); "
                    + "ranking goes on in memory, and the next use tries again")
            }
        }
    }

    private func saveNow() {
        try? saveNow(throwing: false)
    }
}

extension Broker {
    /// The root's usage members (dbus/org.quickactions.Broker1.xml).
    func usageMethods() -> [Method] {
        [
            Method(BrokerAPI.Member.forgetUsage,
                   inputs: TypedArgument("app_id", String.self),
                   outputs: (TypedArgument("forgotten", UInt32.self)),
                   annotations: [.documentation(
                    "Clears the usage history (frecency) of one app, or of every app for \"\"; answers the number of items whose history was cleared, once that is on disk.")],
                   deferred: { [weak self] _, reply, id in
                guard let self else { return }
                if !id.isEmpty {
                    // An installed application's id (a desktop file id) need not be reverse-DNS:
                    // a known app or history is enough; only an unknown id must look like one.
                    let known = catalog.withLock({ $0[id] }) != nil || usage.hasHistory(id)
                    if !known {
                        do {
                            _ = try AppID(id)
                        } catch {
                            throw DBusError.invalidArgs("app id \"\(id.prefix(255))\" is not valid: \(error)")
                        }
                        throw DBusError.unknownApplication(id)
                    }
                }
                usage.forget(app: id.isEmpty ? nil : id) { [log] result in
                    switch result {
                    case .success(let count):
                        log(.info, "forgot the usage of \(count) item(s) of \(id.isEmpty ? "every app" : id)")
                        _ = reply.send(UInt32(clamping: count))
                    case .failure(let error):
                        _ = reply.fail(.failed("the usage history was cleared but could not be saved: \(error)"))
                    }
                }
            }),
        ]
    }
}
