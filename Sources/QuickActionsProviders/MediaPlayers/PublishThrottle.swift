import Dispatch
import Locking

/// Runs `work` on a serial queue of its own after changes, at most once per `interval`: the
/// first change after a quiet spell goes out at once, a burst (a player flooding
/// `PropertiesChanged`) once per interval, its last state included. After ``stop()`` returns
/// `work` never runs again (unless ``stop()`` was called from `work` itself, which then is
/// the last run).
final class PublishThrottle: Sendable {
    private struct State {
        var scheduled = false
        var stopped = false
        var last: DispatchTime?
    }

    private let queue = DispatchQueue(label: "org.quickactions.providers.media-players.publish")
    private let key = DispatchSpecificKey<Bool>()
    private let state = Locked(State())
    private let interval: DispatchTimeInterval
    private let work: @Sendable () -> Void

    init(interval: DispatchTimeInterval, work: @escaping @Sendable () -> Void) {
        self.interval = interval
        self.work = work
        queue.setSpecific(key: key, value: true)
    }

    /// Asks for a run; never blocks.
    func request() {
        let delay: DispatchTime? = state.withLock { state in
            guard !state.stopped, !state.scheduled else { return nil }
            state.scheduled = true
            let now = DispatchTime.now()
            guard let last = state.last else { return now }
            let due = last + interval
            return due > now ? due : now
        }
        guard let delay else { return }
        queue.asyncAfter(deadline: delay) { [self] in
            let proceed = state.withLock { state in
                state.scheduled = false
                state.last = .now()
                return !state.stopped
            }
            if proceed { work() }
        }
    }

    /// No run starts after this returns; one running on another thread is waited for.
    func stop() {
        state.withLock { $0.stopped = true }
        if DispatchQueue.getSpecific(key: key) != true {
            queue.sync {}
        }
    }
}
