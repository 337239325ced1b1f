import Locking
import QuickActionsABI

/// The pending completions of one plugin, keyed by the `qa_completion`
/// numbers handed to it.
///
/// A completion is a number, not a pointer, so the plugin cannot corrupt
/// anything with it: each number is used once (numbers are never reused),
/// and a second call, a call after the broker abandoned the request, or a
/// made-up number finds nothing and is reported to the caller to log.
final class CompletionTable: Sendable {
    typealias Completion = @Sendable (PerformOutcome) -> Void

    /// What happened to a `complete` call.
    enum Resolution: Equatable {
        /// The completion was pending; it has been called.
        case delivered
        /// The number was handed out before but is no longer pending: the
        /// completion was already called, or the request was abandoned.
        case alreadyResolved
        /// The number was never handed out.
        case unknown
    }

    private struct State {
        var next: UInt64 = 1
        var pending: [UInt64: Completion] = [:]
    }

    private let state = Locked(State())

    /// Registers `completion` and returns its number.
    func register(_ completion: @escaping Completion) -> UInt64 {
        state.withLock { state in
            let id = state.next
            state.next += 1
            state.pending[id] = completion
            return id
        }
    }

    /// Calls the completion registered under `id`, at most once, on the
    /// calling thread and outside the lock.
    func resolve(_ id: UInt64, with outcome: PerformOutcome) -> Resolution {
        let found: (Completion?, Resolution) = state.withLock { state in
            if let completion = state.pending.removeValue(forKey: id) {
                return (completion, .delivered)
            }
            return (nil, id != 0 && id < state.next ? .alreadyResolved : .unknown)
        }
        found.0?(outcome)
        return found.1
    }

    /// Forgets `id` without calling it: a later completion is ignored.
    func abandon(_ id: UInt64) {
        _ = state.withLock { $0.pending.removeValue(forKey: id) }
    }

    /// The number of completions not yet called or abandoned.
    var pendingCount: Int {
        state.withLock { $0.pending.count }
    }
}

/// A handle on one perform handed to a plugin, for a broker that stops
/// waiting (a timeout, a caller gone): ``abandon()`` forgets the completion,
/// so the plugin's late call is ignored and logged, and nothing about the
/// request stays in memory.
public struct PerformTicket: Sendable {
    let table: CompletionTable
    /// The `qa_completion` number the plugin received.
    public let completionID: UInt64

    /// Forgets the completion; the closure passed with the request is then
    /// never called. Harmless after the completion ran.
    public func abandon() {
        table.abandon(completionID)
    }
}
