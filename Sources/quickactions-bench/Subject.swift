import DBus
import Foundation
import Glibc
import QuickActionsTestSupport

/// A responder under test: a process that owns a bus name and answers Perform.
final class Subject {
    /// A short name for reports: "floor", "swift-echo", "broker".
    let name: String
    let busName: BusName
    let process: ManagedProcess
    /// The responder's own pid (not its lifeline wrapper's).
    let pid: pid_t
    private let connection: Connection
    /// The second process that answers this subject's calls, when there is one: the
    /// relay's C host, the plugin host of a broker app run out of process. Looked up
    /// when asked, as a plugin host starts on its app's first Perform.
    var helper: () -> pid_t? = { nil }

    /// Starts `arguments[0]` with the rest as its arguments and waits until it owns `busName`.
    init(
        name: String, busName: BusName, command: [String], environment: [String: String]? = nil,
        directory: URL, connection: Connection, timeout: Duration = .seconds(60)
    ) throws(BenchError) {
        guard let executable = command.first else { throw .subject(name: name, reason: "no command") }
        self.name = name
        self.busName = busName
        self.connection = connection
        do {
            process = try ManagedProcess(
                executable, Array(command.dropFirst()), environment: environment, directory: directory, name: name)
        } catch {
            throw .subject(name: name, reason: "cannot start \(executable): \(error)")
        }
        guard let pid = process.pid else {
            throw .subject(name: name, reason: "\(executable) did not start: \(process.standardError)")
        }
        self.pid = pid
        try Self.waitForName(busName, of: process, pid: pid, label: name, connection: connection, timeout: timeout)
    }

    /// Another name for the same process, for a second kind of call to it
    /// (the broker performing with another plugin).
    init(alias name: String, of subject: Subject) {
        self.name = name
        busName = subject.busName
        process = subject.process
        pid = subject.pid
        connection = subject.connection
    }

    /// The same process under another name, whose calls are answered by the plugin host
    /// of `appID` (a child of the broker).
    convenience init(alias name: String, of subject: Subject, hostOf appID: String) {
        self.init(alias: name, of: subject)
        let broker = subject.pid
        helper = { ProcessStats.pluginHost(of: appID, broker: broker) }
    }

    /// Polls the bus until process `pid` owns `busName`; fails when the process ends first.
    static func waitForName(
        _ busName: BusName, of process: ManagedProcess, pid: pid_t, label: String, connection: Connection,
        timeout: Duration
    ) throws(BenchError) {
        let deadline = ContinuousClock.now + timeout
        while connection.currentOwner(of: busName).flatMap({ connection.processID(of: $0) }) != pid {
            if let status = process.exitStatus {
                throw .subject(name: label, reason: "exited with status \(status) before owning \(busName.rawValue): "
                    + process.standardError.suffix(2000))
            }
            if ContinuousClock.now > deadline {
                throw .subject(name: label, reason: "did not own \(busName.rawValue) within \(timeout)")
            }
            usleep(2_000)
        }
    }

    /// Resident memory now, in bytes.
    var residentBytes: Double? { ProcessStats.residentBytes(pid) }

    /// Ends the process and waits (up to 5 s) until the bus has taken its name
    /// back, so a successor can own it.
    func stop() {
        process.stop()
        let deadline = ContinuousClock.now + .seconds(5)
        while ContinuousClock.now < deadline,
              let owner = connection.currentOwner(of: busName), connection.processID(of: owner) == pid {
            usleep(1_000)
        }
    }
}
