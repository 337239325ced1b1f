import Locking

/// Work handed to a ``MainLoop`` from any thread, run on the loop thread between
/// dispatches, in the order it was queued. For short work only: the loop serves nothing
/// else while a piece runs (no plugin code ever runs here).
final class LoopWorkQueue: Sendable {
    private struct State {
        var pieces: [@Sendable () -> Void] = []
        var halted = false
    }

    private let state = Locked(State())

    /// Queues `body`; false, queueing nothing, once the loop is stopping.
    func enqueue(_ body: @escaping @Sendable () -> Void) -> Bool {
        state.withLock { state in
            guard !state.halted else { return false }
            state.pieces.append(body)
            return true
        }
    }

    var isEmpty: Bool { state.withLock { $0.pieces.isEmpty } }

    /// Runs what is queued now (work it queues waits for the next round).
    func runAll() {
        let pieces = state.withLock { state -> [@Sendable () -> Void] in
            defer { state.pieces.removeAll() }
            return state.pieces
        }
        for piece in pieces { piece() }
    }

    /// Drops what is queued and refuses more.
    func halt() {
        state.withLock { state in
            state.halted = true
            state.pieces.removeAll()
        }
    }
}
