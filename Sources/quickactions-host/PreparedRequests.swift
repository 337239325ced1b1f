import QuickActionsHost
import Synchronization

/// Requests the broker keyed (Host1 request key "request-key", protocol 1.1), each decoded and encoded
/// for the C ABI once.
///
/// Decoding a Perform's item and request into Values, then the model, then building its
/// `qa_request` cost this host about a third of its instructions per Perform (callgrind, C
/// plugin with a message). The broker gives one exact item and request one key for the life
/// of the connection, so what was built for a key serves every later call with it.
///
/// At most ``capacity`` keys are kept (when full it starts over): an app has at most a few
/// dozen items, and the broker's own templates are bounded the same way.
final class PreparedRequests: Sendable {
    static let capacity = 64

    private let requests = Mutex<[UInt64: PreparedPerform]>([:])

    /// Keys kept now, for tests.
    var count: Int { requests.withLock { $0.count } }

    func request(forKey key: UInt64) -> PreparedPerform? {
        requests.withLock { $0[key] }
    }

    func store(_ prepared: PreparedPerform, forKey key: UInt64) {
        requests.withLock { requests in
            if requests.count >= Self.capacity { requests.removeAll() }
            requests[key] = prepared
        }
    }
}
