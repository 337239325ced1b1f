import CQuickActionsHostSupport
import Dispatch
import Glibc
import Locking

/// A thread of its own, below the broker's other threads in the scheduler (nice +10), for
/// announcing a large change of the catalog: exporting a thousand installed applications'
/// objects, with an InterfacesAdded of every property each, is 130 ms of CPU, and run beside
/// the first GetAllItems it doubled that listing's time on two cores (issue 33 §6). Work runs
/// in the order it is queued; the catalog it announces is already current, so callers see
/// the apps at once and the signals follow.
///
/// The thread starts with the first work and ends at ``stop()``, after the work queued before.
final class Announcer: Sendable {
    private struct State {
        var work: [@Sendable () -> Void] = []
        var running = false
        var stopping = false
    }

    private let state = Locked(State())
    private let ready = DispatchSemaphore(value: 0)
    /// How much nicer than the broker the thread runs: below the loop and the listing threads,
    /// which keep their share while bulk announcements wait.
    static let niceness: Int32 = 10

    /// Queues `work`; starts the thread when none runs.
    func async(_ work: @escaping @Sendable () -> Void) {
        let start = state.withLock { state -> Bool in
            guard !state.stopping else { return false }
            state.work.append(work)
            defer { state.running = true }
            return !state.running
        }
        ready.signal()
        if start { startThread() }
    }

    /// Lets the thread end once what was queued before has run.
    func stop() {
        state.withLock { $0.stopping = true }
        ready.signal()
    }

    private func startThread() {
        var thread = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        let created = pthread_create(&thread, nil, { raw in
            guard let raw else { return nil }
            let announcer = Unmanaged<Announcer>.fromOpaque(raw).takeRetainedValue()
            _ = qa_lower_thread_priority(Announcer.niceness)
            announcer.run()
            return nil
        }, context)
        if created == 0 {
            pthread_detach(thread)
        } else {
            // No thread (out of resources): what is queued is done here, at the caller's
            // priority, and the next work tries again.
            Unmanaged<Announcer>.fromOpaque(context).release()
            let queued = state.withLock { state in
                defer { state.work = []; state.running = false }
                return state.work
            }
            for work in queued { work() }
        }
    }

    private func run() {
        while true {
            ready.wait()
            let next = state.withLock { state -> (@Sendable () -> Void)?? in
                if !state.work.isEmpty { return state.work.removeFirst() }
                return state.stopping ? .some(nil) : nil
            }
            switch next {
            case .some(.some(let work)): work()
            case .some(.none): return
            case .none: continue
            }
        }
    }
}
