import Locking
import DBus

/// What a whole listing depends on besides the catalog.
struct ListingKey: Hashable, Sendable {
    let locale: String
    let limit: UInt32?
}

/// Encoded GetAllItems replies for the current catalog generation; a change
/// of generation empties it. Holds a handful of locales at most.
final class ListingCache: Sendable {
    private struct State {
        var generation: UInt64 = .max
        var replies: [ListingKey: PreparedReply] = [:]
    }

    private let state = Locked(State())
    private let capacity = 8

    func reply(for key: ListingKey, generation: UInt64) -> PreparedReply? {
        state.withLock { state in
            state.generation == generation ? state.replies[key] : nil
        }
    }

    func store(_ reply: PreparedReply, for key: ListingKey, generation: UInt64) {
        state.withLock { state in
            if state.generation != generation {
                // Only a newer listing replaces the cache; a slow older one does not.
                guard state.generation == .max || generation > state.generation else { return }
                state = State(generation: generation)
            }
            if state.replies.count >= capacity { state.replies.removeAll() }
            state.replies[key] = reply
        }
    }
}
