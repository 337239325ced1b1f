import DBus
import Dispatch
import QuickActionsHost
import Synchronization

/// Every Perform that has not been answered yet.
///
/// Each entry is answered exactly once: by the plugin's completion, by its
/// timeout, or not at all when its caller left the bus. Whichever comes first
/// removes the entry; the others find nothing and do nothing.
final class PendingPerforms: Sendable {
    /// Most Performs one caller may have pending at once.
    static let perCallerLimit = 256

    struct Entry: Sendable {
        let reply: Reply
        let caller: String
        let app: String
        var ticket: PerformTicket?
    }

    private struct State: ~Copyable {
        var entries: [UInt64: Entry] = [:]
        var perCaller: [String: Int] = [:]
        var nextID: UInt64 = 1
    }

    private let state = Mutex(State())
    private let timers = DispatchQueue(label: "org.quickactions.broker.timeouts")

    /// Registers a call, or returns nil when its caller already has the
    /// most it may have.
    func add(reply: Reply, caller: String, app: String, timeoutMilliseconds: UInt32) -> UInt64? {
        let id: UInt64? = state.withLock { state in
            let count = state.perCaller[caller, default: 0]
            guard count < Self.perCallerLimit else { return nil }
            let id = state.nextID
            state.nextID += 1
            state.entries[id] = Entry(reply: reply, caller: caller, app: app, ticket: nil)
            state.perCaller[caller] = count + 1
            return id
        }
        guard let id else { return nil }
        timers.asyncAfter(deadline: .now() + .milliseconds(Int(timeoutMilliseconds))) { [weak self] in
            guard let entry = self?.take(id) else { return }
            entry.ticket?.abandon()
            entry.reply.fail(DBusError(.performTimeout,
                "\(entry.app) did not complete within \(timeoutMilliseconds) ms; a late completion will be dropped"))
        }
        return id
    }

    /// Records the plugin's ticket, so a timeout or departure can abandon it.
    /// Returns false when the call is already gone (then abandon it yourself).
    func attach(_ ticket: PerformTicket, to id: UInt64) -> Bool {
        state.withLock { state in
            guard state.entries[id] != nil else { return false }
            state.entries[id]?.ticket = ticket
            return true
        }
    }

    /// Removes and returns an entry; nil when it was already answered.
    func take(_ id: UInt64) -> Entry? {
        state.withLock { state in
            guard let entry = state.entries.removeValue(forKey: id) else { return nil }
            let left = state.perCaller[entry.caller, default: 1] - 1
            state.perCaller[entry.caller] = left > 0 ? left : nil
            return entry
        }
    }

    /// Drops every call of a caller that left the bus; their late
    /// completions find nothing. Returns how many were dropped.
    @discardableResult
    func dropAll(from caller: String) -> Int {
        let dropped: [Entry] = state.withLock { state in
            guard state.perCaller.removeValue(forKey: caller) != nil else { return [] }
            var gone: [Entry] = []
            for (id, entry) in state.entries where entry.caller == caller {
                gone.append(entry)
                state.entries[id] = nil
            }
            return gone
        }
        for entry in dropped {
            entry.ticket?.abandon()
            entry.reply.abandon()
        }
        return dropped.count
    }

    /// How many calls are pending (for tests and the debug log).
    var count: Int { state.withLock { $0.entries.count } }
}
