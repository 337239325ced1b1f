import Locking
import DBus
import Dispatch
import QuickActionsHost

/// Every Perform that has not been answered yet.
///
/// Each entry is answered exactly once: by the plugin's completion, by its
/// timeout, or not at all when its caller left the bus. Whichever comes first
/// removes the entry; the others find nothing and do nothing.
final class PendingPerforms: @unchecked Sendable {
    // @unchecked Sendable: `timer` is set in init and only rescheduled or
    // cancelled afterwards, which Dispatch allows from any thread; all other
    // state is inside the lock.
    /// Most Performs one caller may have pending at once.
    static let perCallerLimit = 256

    struct Entry: Sendable {
        let reply: PerformReplyHandle
        let caller: String
        let app: String
        let ticket: PerformTicket?
        let timeoutMilliseconds: UInt32
        let deadline: UInt64
    }

    private struct State {
        var entries: [UInt64: Entry] = [:]
        var perCaller: [String: Int] = [:]
        var nextID: UInt64 = 1
        /// Deadlines of calls, earliest first; answered calls are skipped when
        /// their deadline comes up (cheaper than removing them).
        var deadlines = DeadlineHeap()
        /// When the timer is set to fire next, if at all.
        var timerDeadline: DispatchTime?
    }

    private let state = Locked(State())
    private let timerQueue = DispatchQueue(label: "org.quickactions.broker.timeouts")
    private let timer: any DispatchSourceTimer

    init() {
        timer = DispatchSource.makeTimerSource(queue: timerQueue)
        timer.setEventHandler { [weak self] in self?.expire() }
        timer.activate()
    }

    deinit {
        timer.cancel()
    }

    /// Whether `caller` may have one more call pending. Checked before the call is handed to
    /// its plugin: a call refused after that would already have been performed.
    func hasRoom(for caller: String) -> Bool {
        state.withLock { state in
            state.perCaller.isEmpty || state.perCaller[caller, default: 0] < Self.perCallerLimit
        }
    }

    /// Registers a call received at `received` that its plugin has not completed yet (its
    /// caller was found to have room first), with the plugin's ticket, so a timeout or
    /// departure can abandon it. Returns its id.
    func add(
        reply: PerformReplyHandle, caller: String, app: String, ticket: PerformTicket?,
        timeoutMilliseconds: UInt32, received: DispatchTime
    ) -> UInt64 {
        let deadline = received + .milliseconds(Int(timeoutMilliseconds))
        let (id, rearm): (UInt64, Bool) = state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.entries[id] = Entry(reply: reply, caller: caller, app: app, ticket: ticket,
                                      timeoutMilliseconds: timeoutMilliseconds, deadline: deadline.uptimeNanoseconds)
            state.perCaller[caller, default: 0] += 1
            state.deadlines.push(Deadline(time: deadline.uptimeNanoseconds, id: id))
            guard state.timerDeadline.map({ deadline < $0 }) ?? true else { return (id, false) }
            state.timerDeadline = deadline
            return (id, true)
        }
        if rearm {
            timer.schedule(deadline: deadline, leeway: .milliseconds(1))
        }
        return id
    }

    /// Answers every call whose deadline has passed with Timeout, then sets
    /// the timer for the next deadline. Runs on the timer queue.
    private func expire() {
        let now = DispatchTime.now().uptimeNanoseconds
        let (expired, next): ([Entry], UInt64?) = state.withLock { state in
            var expired: [Entry] = []
            while let first = state.deadlines.first, first.time <= now {
                state.deadlines.popFirst()
                if let entry = Self.remove(first.id, from: &state) { expired.append(entry) }
            }
            let next = state.deadlines.first?.time
            state.timerDeadline = next.map { DispatchTime(uptimeNanoseconds: $0) }
            return (expired, next)
        }
        if let next {
            timer.schedule(deadline: DispatchTime(uptimeNanoseconds: next), leeway: .milliseconds(1))
        }
        for entry in expired {
            entry.ticket?.abandon()
            entry.reply.fail(DBusError(.performTimeout,
                "\(entry.app) did not complete within \(entry.timeoutMilliseconds) ms; a late completion will be dropped"))
        }
    }

    /// Removes and returns an entry; nil when it was already answered.
    func take(_ id: UInt64) -> Entry? {
        state.withLock { Self.remove(id, from: &$0) }
    }

    private static func remove(_ id: UInt64, from state: inout State) -> Entry? {
        guard let entry = state.entries.removeValue(forKey: id) else { return nil }
        let left = state.perCaller[entry.caller, default: 1] - 1
        state.perCaller[entry.caller] = left > 0 ? left : nil
        compact(&state)
        return entry
    }

    /// Keeps the heap from filling with deadlines of calls answered long
    /// before them: rebuilt from the live calls when mostly stale.
    private static func compact(_ state: inout State) {
        if state.entries.isEmpty {
            state.deadlines.removeAll()
        } else if state.deadlines.count > 4 * state.entries.count + 1024 {
            var rebuilt = DeadlineHeap()
            for (id, entry) in state.entries {
                rebuilt.push(Deadline(time: entry.deadline, id: id))
            }
            state.deadlines = rebuilt
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
            Self.compact(&state)
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

/// Who answers one Perform: the broker's thread that handed it to the plugin, when the plugin
/// completed before that hand-over was over (an in-process plugin completing inside perform,
/// the common case; an executor failing at once), and the call never becomes pending; else the
/// completion, through the call's ``PendingPerforms`` entry.
///
/// Either side can come first, on any threads: the completion either leaves its result here
/// or is told the entry's id, and the hand-over either takes the result or registers the id.
final class PerformHandOff: Sendable {
    private enum State {
        case handingOver
        case completedEarly(ExecutionResult)
        case registered(UInt64)
        case done
    }

    // Locked (a pthread mutex), not Synchronization.Mutex: ThreadSanitizer sees only the former
    // order the two sides, which run on different threads.
    private let state = Locked(State.handingOver)

    /// From the completion: the entry's id to answer through, or nil when the hand-over takes
    /// the result.
    func complete(with result: ExecutionResult) -> UInt64? {
        state.withLock { state in
            switch state {
            case .handingOver:
                state = .completedEarly(result)
                return nil
            case .registered(let id):
                state = .done
                return id
            case .completedEarly, .done:
                return nil  // a second completion: the executor promises none
            }
        }
    }

    /// Right after the hand-over: the result when the plugin has already completed.
    func completedEarly() -> ExecutionResult? {
        state.withLock { state in
            guard case .completedEarly(let result) = state else { return nil }
            state = .done
            return result
        }
    }

    /// Once the call is pending as `id`: the result when it completed in between (answer it
    /// through the entry), else nil and the completion will.
    func register(_ id: UInt64) -> ExecutionResult? {
        state.withLock { state in
            switch state {
            case .handingOver:
                state = .registered(id)
                return nil
            case .completedEarly(let result):
                state = .done
                return result
            case .registered, .done:
                return nil
            }
        }
    }
}
