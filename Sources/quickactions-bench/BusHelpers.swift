import Locking
import DBus
import Dispatch
import Foundation
import Glibc

extension Connection {
    /// The unique name owning `name`, or nil; blocks the calling thread.
    func currentOwner(of name: BusName) -> String? {
        let reply = try? callBlocking(
            destination: .bus, path: .bus, interface: .bus, member: "GetNameOwner", [.string(name.rawValue)],
            timeout: .seconds(5))
        return reply?.first?.string
    }

    /// The pid of the process behind a bus name (the bus driver's own name gives the daemon's).
    func processID(of name: String) -> pid_t? {
        let reply = try? callBlocking(
            destination: .bus, path: .bus, interface: .bus, member: "GetConnectionUnixProcessID", [.string(name)],
            timeout: .seconds(5))
        return reply?.first?.uint64.flatMap { pid_t(exactly: $0) }
    }

    /// Calls a method and returns the reply message, blocking; errors become `BenchError.calls`.
    func blockingReply(
        _ template: CallTemplate, label: String, timeout: Duration = .seconds(30)
    ) throws(BenchError) -> Message {
        let done = DispatchSemaphore(value: 0)
        let outcome = Locked<Result<Message, DBusError>?>(nil)
        do {
            call(try template.message(), timeout: timeout) { result in
                outcome.withLock { $0 = result }
                done.signal()
            }
        } catch {
            throw .calls(subject: label, reason: "\(template.member.rawValue): \(error)")
        }
        done.wait()
        switch outcome.withLock({ $0 }) {
        case .success(let reply)?:
            return reply
        case .failure(let error)?:
            throw .calls(subject: label, reason: "\(template.member.rawValue): \(error)")
        case nil:
            throw .calls(subject: label, reason: "\(template.member.rawValue) finished without a result")
        }
    }

    /// Calls a method and returns the reply's values, blocking; errors become `BenchError.calls`.
    func blockingCall(
        _ template: CallTemplate, label: String, timeout: Duration = .seconds(30)
    ) throws(BenchError) -> [Value] {
        do {
            return try callBlocking(
                destination: template.destination, path: template.path, interface: template.interface,
                member: template.member, template.arguments, timeout: timeout)
        } catch {
            throw .calls(subject: label, reason: "\(template.member.rawValue): \(error)")
        }
    }
}

/// Where the benchmark's companion binaries are: beside this executable.
enum Products {
    static let directory: URL = {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return executable.deletingLastPathComponent()
    }()

    static var selfExecutable: URL { URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath() }
    static var floor: URL { directory.appendingPathComponent("qa-bench-floor") }
    /// The isolated broker's floor: a C relay forwarding each Perform to a C host process.
    static var relay: URL { directory.appendingPathComponent("qa-bench-relay") }
    /// The plugin host the broker starts; quickactionsd finds it beside itself, as here.
    static var host: URL { directory.appendingPathComponent("quickactions-host") }
    static var broker: URL { directory.appendingPathComponent("quickactionsd") }
    static var plugin: URL { directory.appendingPathComponent("libQABenchPlugin.so") }
    static var swiftPlugin: URL { directory.appendingPathComponent("libQABenchSwiftPlugin.so") }
    static let python = URL(fileURLWithPath: "/usr/bin/python3")

    /// Fails with a message naming the missing file and how to build it.
    static func require(_ url: URL) throws(BenchError) {
        guard FileManager.default.isExecutableFile(atPath: url.path)
            || (url.pathExtension == "so" && FileManager.default.fileExists(atPath: url.path)) else {
            throw .file(path: url.path, reason: "missing; build it first (swift build -c release)")
        }
    }
}
