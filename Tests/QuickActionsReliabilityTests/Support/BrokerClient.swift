import DBus
import Foundation
import QuickActionsAPI
import QuickActionsTestSupport

/// A client of the broker under test on its private bus, speaking our own
/// D-Bus binding: calls, Perform, the PendingPerforms property.
struct BrokerClient: Sendable {
    static let broker = BrokerAPI.busName
    static let root = BrokerAPI.rootPath
    static let interface = BrokerAPI.interface

    let connection: Connection

    init(_ harness: BrokerHarness) throws {
        connection = try Connection(.address(harness.bus.address))
    }

    /// `a{sv}` from pairs, each value wrapped in a variant.
    static func options(_ entries: [(String, Value)] = []) -> Value {
        .dictionary(key: .string, value: .variant, entries.map { DictionaryEntry(.string($0.0), .variant($0.1)) })
    }

    /// A Perform call as a message, for sending without waiting.
    static func performMessage(_ app: String, _ type: String, _ options: Value = options()) throws -> Message {
        let message = try Message.methodCall(destination: broker, path: root, interface: interface, member: BrokerAPI.Member.perform)
        try message.append([.string(app), .string(type), options])
        return message
    }

    /// Perform, waiting for the answer: (success, result with variants unwrapped).
    func perform(
        _ app: String, _ type: String, _ options: Value = options()
    ) async throws(DBusError) -> (success: Bool, result: [String: Value]) {
        let reply = try await connection.call(
            destination: Self.broker, path: Self.root, interface: Self.interface, member: BrokerAPI.Member.perform,
            [.string(app), .string(type), options], timeout: .seconds(60))
        return try Self.performResult(reply)
    }

    static func performResult(_ reply: [Value]) throws(DBusError) -> (success: Bool, result: [String: Value]) {
        guard reply.count == 2, case .boolean(let success) = reply[0], case .dictionary(_, _, let entries) = reply[1] else {
            throw DBusError(.failed, "unexpected Perform reply \(reply)")
        }
        var result: [String: Value] = [:]
        for entry in entries {
            if case .string(let key) = entry.key { result[key] = entry.value.unwrappedVariant }
        }
        return (success, result)
    }

    /// Calls a method of the root interface.
    func call(_ member: MemberName, _ arguments: [Value] = []) async throws(DBusError) -> [Value] {
        try await connection.call(destination: Self.broker, path: Self.root, interface: Self.interface, member: member,
                                  arguments, timeout: .seconds(30))
    }

    /// The broker's PendingPerforms property: calls received and not yet answered.
    func pendingPerforms() async throws(DBusError) -> UInt32 {
        let reply = try await connection.call(
            destination: Self.broker, path: Self.root, interface: "org.freedesktop.DBus.Properties", member: "Get",
            [.string(Self.interface.rawValue), .string(BrokerAPI.Property.pendingPerforms)])
        guard case .uint32(let count)? = reply.first?.unwrappedVariant else {
            throw DBusError(.failed, "PendingPerforms is not a u: \(reply)")
        }
        return count
    }

    /// Waits (up to `timeout`) until PendingPerforms is `count`; returns the last value read.
    func waitForPending(_ count: UInt32, timeout: Duration = .seconds(20)) async throws -> UInt32 {
        let deadline = ContinuousClock.now + timeout
        var last = try await pendingPerforms()
        while last != count && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
            last = try await pendingPerforms()
        }
        return last
    }

    /// The app ids ListApplications gives: proof the broker still serves.
    func applicationIDs() async throws(DBusError) -> [String] {
        let reply = try await call(BrokerAPI.Member.listApplications)
        return reply.first?.array?.compactMap { $0.structure?.first?.string } ?? []
    }

    /// One app's items (GetItems) as dictionaries with unwrapped values.
    func items(_ app: String) async throws(DBusError) -> [[String: Value]] {
        let reply = try await call(BrokerAPI.Member.getItems, [.string(app), Self.options()])
        return (reply.first?.array ?? []).map { item in
            var fields: [String: Value] = [:]
            for (key, value) in item.dictionary ?? [:] {
                if let key = key.string { fields[key] = value.unwrappedVariant }
            }
            return fields
        }
    }
}

/// Resident memory of a process, from /proc/<pid>/status.
enum ProcessMemory {
    /// VmRSS in KiB.
    static func residentKiB(of pid: pid_t) throws -> Int {
        let status = try read("/proc/\(pid)/status")
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            if let value = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") {
                return value
            }
        }
        throw TestSupportError("no VmRSS in /proc/\(pid)/status")
    }

    /// Whether `path` is mapped into the process (/proc/<pid>/maps).
    static func maps(_ pid: pid_t, contain path: String) throws -> Bool {
        try read("/proc/\(pid)/maps").contains(path)
    }

    /// Whether `path` is mapped into the process or one of its children (the broker's plugin
    /// hosts).
    static func mapsOfProcessOrChildren(_ pid: pid_t, contain path: String) throws -> Bool {
        if try maps(pid, contain: path) { return true }
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for child in entries.compactMap({ Int32($0) }) {
            guard let status = try? read("/proc/\(child)/status"),
                  status.split(separator: "\n").contains("PPid:\t\(pid)") else { continue }
            if (try? maps(child, contain: path)) == true { return true }
        }
        return false
    }

    /// A /proc file read to its end: they report a size of 0, and a read of
    /// one buffer gives only the first part of a long one.
    static func read(_ path: String) throws -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw TestSupportError("cannot open \(path)") }
        defer { try? handle.close() }
        var data = Data()
        while let chunk = try handle.read(upToCount: 64 * 1024), !chunk.isEmpty {
            data.append(chunk)
        }
        return String(decoding: data, as: UTF8.self)
    }
}

/// How many times `needle` occurs in `text`.
func occurrences(of needle: String, in text: String) -> Int {
    text.components(separatedBy: needle).count - 1
}
