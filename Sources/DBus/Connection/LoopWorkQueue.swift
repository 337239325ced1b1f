import Locking

/// Work handed to a ``MainLoop`` from any thread, run on the loop thread between
/// dispatches, in the order it was queued. For short work only: the loop serves nothing
/// else while a piece runs (no plugin code ever runs here).
///
/// A piece that was queued runs, whatever happens to the loop: callers wait for theirs
/// (closing a connection or a server from another thread waits on a semaphore the piece
/// signals), so dropping one would leave its caller waiting forever. When the loop stops,
/// from any thread or because its bus went away, it runs what was queued before the stop
/// as its last act; only work offered after that is refused, and the caller does it itself.
final class LoopWorkQueue: Sendable {
    private struct State {
        var pieces: [@Sendable () -> Void] = []
        var halted = false
    }

    private let state = Locked(State())

    /// Queues `body`, which then runs on the loop thread, at the latest as the loop ends;
    /// false, queueing nothing, once the loop is stopping.
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

    /// Refuses more work; what is queued stays, for the loop's last ``runAll()``.
    func halt() {
        state.withLock { $0.halted = true }
    }
}
