import DBus
import QuickActionsAPI
import Foundation
import Synchronization

/// Many Performs from many connections with a fixed number in flight on
/// each, every answer checked against the call it answers.
///
/// Call `i` goes out on connection `i % connections` with activation token
/// "call-<i>"; every `stuckEvery`-th call goes to the never-completing app
/// with a short `timeout-ms`, the others to the fast apps in turn (with a
/// timeout of a minute). A fast
/// answer is right when it succeeds with "fast fast call-<i>" and an
/// activation of "launch" or "resume"; a stuck one when it fails with
/// org.quickactions.Error.Timeout naming the timeout.
struct PerformLoad: Sendable {
    var connections: Int
    var inFlight: Int
    var total: Int
    var fastApps: [String]
    var stuckApp: String
    var stuckEvery: Int
    var timeoutMilliseconds: UInt32

    func isStuck(_ index: Int) -> Bool { stuckEvery > 0 && index % stuckEvery == stuckEvery - 1 }

    /// Only the calls to the never-completing app carry the short timeout: a
    /// fast call on a loaded two-core machine can take longer than that, and
    /// must still be answered by its plugin.
    func message(for index: Int) throws -> Message {
        let stuck = isStuck(index)
        let app = stuck ? stuckApp : fastApps[index % fastApps.count]
        return try BrokerClient.performMessage(app, stuck ? "never" : "fast", BrokerClient.options([
            (BrokerAPI.Option.activationToken, .string("call-\(index)")),
            (BrokerAPI.Option.timeoutMilliseconds, .uint32(stuck ? timeoutMilliseconds : 60_000)),
        ]))
    }

    /// Checks one answer; nil when it is right, else what was wrong.
    func check(_ index: Int, _ outcome: Result<Message, DBusError>) -> String? {
        switch (isStuck(index), outcome) {
        case (true, .failure(let error)):
            guard error.name == BrokerAPI.ErrorNames.timeout,
                  error.message.contains("\(timeoutMilliseconds) ms") else { return "call \(index): \(error)" }
            return nil
        case (false, .success(let reply)):
            do {
                let (success, result) = try BrokerClient.performResult(try reply.arguments())
                let activation = result[BrokerAPI.ResultKey.activation]?.string ?? ""
                guard success, result[BrokerAPI.ResultKey.message]?.string == "fast fast call-\(index)",
                      activation == BrokerAPI.Activation.launch || activation == BrokerAPI.Activation.resume else {
                    return "call \(index): success=\(success) result=\(result)"
                }
                return nil
            } catch {
                return "call \(index): \(error)"
            }
        case (_, let other):
            return "call \(index) (stuck: \(isStuck(index))): \(other)"
        }
    }

    /// Runs the load on `clients` (one per connection, made by the caller)
    /// and returns the tally once every call is answered or `deadline` passed.
    func run(on clients: [Connection], deadline: Duration) async -> LoadTally {
        let tally = LoadTally(total: total, stuck: (0..<total).filter(isStuck).count)
        let started = ContinuousClock.now
        for (number, connection) in clients.enumerated() {
            let lane = Lane(load: self, connection: connection, first: number, step: clients.count, tally: tally)
            lane.start(inFlight)
        }
        await tally.waitUntilAnswered(within: deadline)
        tally.duration = ContinuousClock.now - started
        return tally
    }
}

/// The calls of one connection: sends the next as each answer comes.
private final class Lane: Sendable {
    let load: PerformLoad
    let connection: Connection
    let step: Int
    let tally: LoadTally
    private let next: Mutex<Int>

    init(load: PerformLoad, connection: Connection, first: Int, step: Int, tally: LoadTally) {
        self.load = load
        self.connection = connection
        self.step = step
        self.tally = tally
        next = Mutex(first)
    }

    func start(_ count: Int) {
        for _ in 0..<count { sendNext() }
    }

    private func sendNext() {
        let index: Int? = next.withLock { next in
            guard next < load.total else { return nil }
            defer { next += step }
            return next
        }
        guard let index else { return }
        do {
            let message = try load.message(for: index)
            connection.call(message, timeout: .seconds(60)) { [self] outcome in
                tally.record(index, problem: load.check(index, outcome))
                sendNext()
            }
        } catch {
            tally.record(index, problem: "call \(index) could not be sent: \(error)")
            sendNext()
        }
    }
}

/// What came back: how often each call was answered, and what was wrong.
final class LoadTally: @unchecked Sendable {
    // @unchecked Sendable: every mutable field is touched only under `lock`,
    // except `duration`, set once by `run` after all answers are in.
    private let lock = NSLock()
    private var answers: [Int]
    private var answered = 0
    private var wrong: [String] = []
    private let done = DispatchSemaphore(value: 0)
    let total: Int
    let stuck: Int
    var duration: Duration = .zero

    init(total: Int, stuck: Int) {
        self.total = total
        self.stuck = stuck
        answers = Array(repeating: 0, count: total)
    }

    func record(_ index: Int, problem: String?) {
        lock.lock()
        answers[index] += 1
        answered += 1
        if let problem, wrong.count < 20 { wrong.append(problem) }
        let finished = answered == total
        lock.unlock()
        if finished { done.signal() }
    }

    func waitUntilAnswered(within deadline: Duration) async {
        let seconds = Double(deadline.components.seconds)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async { [done] in
                _ = done.wait(timeout: .now() + seconds)
                continuation.resume()
            }
        }
    }

    /// Calls answered at least once.
    var answeredCalls: Int { locked { answers.filter { $0 > 0 }.count } }
    /// Calls answered more than once (the client's view).
    var answeredTwice: Int { locked { answers.filter { $0 > 1 }.count } }
    var problems: [String] { locked { wrong } }

    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }
}
