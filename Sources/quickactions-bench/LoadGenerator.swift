import Locking
import DBus
import QuickActionsAPI
import Dispatch
import Glibc

/// One method call the load generator repeats: where it goes and what it carries.
struct CallTemplate: Sendable {
    let destination: BusName
    let path: ObjectPath
    let interface: InterfaceName
    let member: MemberName
    let arguments: [Value]
    /// The reply's expected signature, checked on every reply.
    let replySignature: String

    /// `Perform(app_id, type, {})` on the broker's root object, at `destination`.
    static func perform(destination: BusName, appID: String, type: String) -> CallTemplate {
        CallTemplate(
            destination: destination, path: BrokerAPI.rootPath, interface: BrokerAPI.interface,
            member: BrokerAPI.Member.perform,
            arguments: [.string(appID), .string(type), .dictionary(key: .string, value: .variant, [])],
            replySignature: "ba{sv}")
    }

    /// `GetItems(app_id, {})` on the broker.
    static func getItems(destination: BusName, appID: String) -> CallTemplate {
        CallTemplate(
            destination: destination, path: BrokerAPI.rootPath, interface: BrokerAPI.interface,
            member: BrokerAPI.Member.getItems, arguments: [.string(appID), .dictionary(key: .string, value: .variant, [])],
            replySignature: "aa{sv}")
    }

    /// `GetAllItems({})` on the broker.
    static func getAllItems(destination: BusName) -> CallTemplate {
        CallTemplate(
            destination: destination, path: BrokerAPI.rootPath, interface: BrokerAPI.interface,
            member: BrokerAPI.Member.getAllItems, arguments: [.dictionary(key: .string, value: .variant, [])],
            replySignature: "a(saa{sv})")
    }

    func message() throws(DBusError) -> Message {
        let message = try Message.methodCall(destination: destination, path: path, interface: interface, member: member)
        try message.append(arguments)
        return message
    }
}

/// The outcome of one run: throughput and every call's latency.
struct LoadRun: Sendable {
    let calls: Int
    let depth: Int
    let seconds: Double
    /// Each call's latency in microseconds, in completion order.
    let latencies: [Double]
    /// CPU seconds each watched process used during the run.
    let cpu: [String: Double]
    /// Context switches of each watched process during the run.
    let contextSwitches: [String: Double]

    var callsPerSecond: Double { seconds > 0 ? Double(calls) / seconds : 0 }
}

/// Drives calls through our own binding with a fixed number in flight.
///
/// Depth 1 is sequential: the next call goes out from the previous one's
/// completion. Depth N keeps N calls in flight: each completion sends one
/// more until `calls` have been sent. Completions run on the connection's
/// loop thread, which is also where the follow-up call is sent from.
enum LoadGenerator {
    static func run(
        _ template: CallTemplate, on connection: Connection, calls: Int, depth: Int,
        label: String, watching pids: [String: pid_t] = [:], timeout: Duration = .seconds(120)
    ) throws(BenchError) -> LoadRun {
        let driver = Driver(template: template, connection: connection, total: calls)
        let meter = CPUMeter(pids)
        let start = monotonicNanoseconds()
        for _ in 0..<min(depth, calls) {
            driver.issue()
        }
        let waited = driver.done.wait(timeout: .now() + .nanoseconds(Int(timeout.components.seconds) * 1_000_000_000))
        let end = monotonicNanoseconds()
        let cpu = meter.used()
        let switches = meter.contextSwitches()
        let outcome = driver.state.withLock { state in
            (state.completed, state.failures, state.firstFailure, state.latencies)
        }
        guard waited == .success else {
            throw .calls(subject: label, reason: "only \(outcome.0) of \(calls) calls answered within \(timeout)")
        }
        if outcome.1 > 0 {
            throw .calls(subject: label, reason: "\(outcome.1) of \(calls) calls failed; first: \(outcome.2 ?? "?")")
        }
        return LoadRun(calls: calls, depth: depth, seconds: Double(end - start) / 1e9, latencies: outcome.3, cpu: cpu,
                       contextSwitches: switches)
    }
}

/// The state of one run, shared between the starting thread and the loop thread.
private final class Driver: Sendable {
    struct State {
        var issued = 0
        var completed = 0
        var failures = 0
        var firstFailure: String?
        var latencies: [Double] = []
    }

    let template: CallTemplate
    let connection: Connection
    let total: Int
    let state: Locked<State>
    let done = DispatchSemaphore(value: 0)

    init(template: CallTemplate, connection: Connection, total: Int) {
        self.template = template
        self.connection = connection
        self.total = total
        var initial = State()
        initial.latencies.reserveCapacity(total)
        state = Locked(initial)
    }

    /// Sends one more call, unless all have been sent.
    func issue() {
        let proceed = state.withLock { state in
            guard state.issued < total else { return false }
            state.issued += 1
            return true
        }
        guard proceed else { return }
        let message: Message
        do {
            message = try template.message()
        } catch {
            finish(sent: monotonicNanoseconds(), failure: "building the call: \(error)")
            return
        }
        let sent = monotonicNanoseconds()
        connection.call(message, timeout: .seconds(60)) { result in
            switch result {
            case .success(let reply):
                let signature = reply.signature
                if signature == self.template.replySignature {
                    self.finish(sent: sent, failure: nil)
                } else {
                    self.finish(sent: sent, failure: "reply of signature \"\(signature)\", "
                        + "expected \"\(self.template.replySignature)\"")
                }
            case .failure(let error):
                self.finish(sent: sent, failure: "\(error)")
            }
        }
    }

    private func finish(sent: UInt64, failure: String?) {
        let now = monotonicNanoseconds()
        let (more, allDone) = state.withLock { state in
            state.latencies.append(Double(now - sent) / 1000)
            state.completed += 1
            if let failure {
                state.failures += 1
                if state.firstFailure == nil { state.firstFailure = failure }
            }
            return (state.issued < total, state.completed == total)
        }
        if more { issue() }
        if allDone { done.signal() }
    }
}
