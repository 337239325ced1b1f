import Locking
import QuickActionsHost

/// The requests an in-process plugin was handed, each in its C form (`qa_request`) with its
/// `request_id` (ABI 1.3), so a repeated Perform of the same item passes the same prepared
/// request instead of building one (≈ 3,700 instructions, callgrind) and a plugin may keep
/// what it derived from it by its id (the Swift SDK keeps the decoded action).
///
/// Keyed by the request itself, as ``HostPerformCalls`` keys a host's calls: a republished
/// item, another locale, a reloaded bundle or other arguments are other content and so another
/// entry, never a stale one. At most ``capacity`` entries, as the host keeps
/// (`PreparedRequests`): when full it starts over (an app has at most a few dozen items).
final class PreparedPerforms: Sendable {
    static let capacity = 64

    // Locked, not Synchronization.Mutex: a launch prepares its request on the plugin's queue, a
    // resumed perform on the bus loop, and ThreadSanitizer sees only pthread mutexes order them.
    private let requests = Locked<[RequestCacheKey: PreparedPerform]>([:])

    /// Requests kept now, for tests.
    var count: Int { requests.withLock { $0.count } }

    /// The prepared form of `request`: the one kept for exactly this content, else a new one,
    /// kept from now on.
    func prepared(_ request: PerformRequest) -> PreparedPerform {
        let key = RequestCacheKey(request)
        if let known = requests.withLock({ $0[key] }) { return known }
        // Built outside the lock: encoding a large user info takes a while.
        let made = PreparedPerform(request)
        return requests.withLock { requests in
            if let raced = requests[key] { return raced }
            if requests.count >= Self.capacity { requests.removeAll() }
            requests[key] = made
            return made
        }
    }
}
