import Foundation
import Glibc
import QuickActionsAPI

/// What /proc says about a process: CPU time used and resident memory.
enum ProcessStats {
    private static let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))

    /// User plus system CPU time of every thread the process has run, dead
    /// threads included (fields 14 and 15 of /proc/PID/stat), in seconds;
    /// nil when the process is gone.
    static func cpuSeconds(_ pid: pid_t) -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return nil }
        // Fields after the command name (which may hold spaces), starting at field 3.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / ticksPerSecond
    }

    /// Context switches (voluntary and not) of the threads the process has now.
    static func contextSwitches(_ pid: pid_t) -> Double? {
        guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task") else { return nil }
        var total = 0.0
        for task in tasks {
            guard let text = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8) else {
                continue
            }
            // "voluntary_ctxt_switches:\tN" and "nonvoluntary_ctxt_switches:\tN".
            for line in text.split(separator: "\n") where line.contains("ctxt_switches:") {
                total += line.split(separator: "\t").last.flatMap { Double($0.trimmingCharacters(in: .whitespaces)) } ?? 0
            }
        }
        return total
    }

    /// Time on a CPU of the threads the process has now, in nanoseconds (the first field of
    /// /proc/PID/task/TID/schedstat: exact, where /proc/PID/stat counts 10 ms ticks); nil
    /// when it is gone. A thread that ended is not counted.
    static func liveThreadsCPUNanoseconds(_ pid: pid_t) -> Double? {
        guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task") else { return nil }
        var total = 0.0
        for task in tasks {
            guard let text = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/schedstat", encoding: .utf8),
                  let first = text.split(separator: " ").first, let nanoseconds = Double(first) else { continue }
            total += nanoseconds
        }
        return total
    }

    /// Resident memory (VmRSS) in bytes; nil when the process is gone.
    static func residentBytes(_ pid: pid_t) -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            if parts.count >= 2, let kib = Double(parts[1]) { return kib * 1024 }
        }
        return nil
    }
}

/// Memory of one process from /proc/PID/smaps_rollup, in bytes: resident (RSS, every page
/// mapped, shared ones counted in full) and proportional (PSS, each shared page divided
/// among the processes mapping it, so PSS sums over processes to what they use together).
struct MemoryUse: Codable, Sendable {
    var resident: Double
    var proportional: Double
    /// Pages only this process maps (USS: Private_Clean + Private_Dirty): what ending it frees.
    var unique: Double = 0

    static let zero = MemoryUse(resident: 0, proportional: 0)

    static func + (left: MemoryUse, right: MemoryUse) -> MemoryUse {
        MemoryUse(resident: left.resident + right.resident, proportional: left.proportional + right.proportional,
                  unique: left.unique + right.unique)
    }

    /// Reads the `Rss:` and `Pss:` lines of smaps_rollup ("Rss:   1234 kB"); nil when the
    /// process is gone or the text has neither.
    init?(smapsRollup text: String) {
        var rss: Double?
        var pss: Double?
        var unique = 0.0
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            guard parts.count >= 2, let kib = Double(parts[1]) else { continue }
            if parts[0] == "Rss:" { rss = kib * 1024 }
            if parts[0] == "Pss:" { pss = kib * 1024 }
            if parts[0] == "Private_Clean:" || parts[0] == "Private_Dirty:" { unique += kib * 1024 }
        }
        guard let rss, let pss else { return nil }
        self.init(resident: rss, proportional: pss, unique: unique)
    }

    init(resident: Double, proportional: Double, unique: Double = 0) {
        self.resident = resident
        self.proportional = proportional
        self.unique = unique
    }
}

extension ProcessStats {
    /// RSS and PSS of `pid` now; nil when it is gone.
    static func memory(_ pid: pid_t) -> MemoryUse? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/smaps_rollup", encoding: .utf8) else { return nil }
        return MemoryUse(smapsRollup: text)
    }

    /// The parent pid of `pid` (field 4 of /proc/PID/stat); nil when it is gone.
    static func parent(of pid: pid_t) -> pid_t? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        return fields.count > 1 ? pid_t(fields[1]) : nil
    }

    /// The live child processes of `pid`, by scanning /proc.
    static func children(of pid: pid_t) -> [pid_t] {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        return entries.compactMap { pid_t($0) }.filter { parent(of: $0) == pid }.sorted()
    }

    /// The value of `name` in the environment `pid` started with; nil when unset or unreadable.
    static func environmentValue(_ name: String, of pid: pid_t) -> String? {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/environ") else { return nil }
        let prefix = Array("\(name)=".utf8)
        for entry in data.split(separator: 0) where entry.starts(with: prefix) {
            return String(decoding: entry.dropFirst(prefix.count), as: UTF8.self)
        }
        return nil
    }

    /// The plugin host the broker `broker` runs for `appID`: its child whose environment
    /// names that app (QUICKACTIONS_HOST_APP_ID).
    static func pluginHost(of appID: String, broker: pid_t) -> pid_t? {
        children(of: broker).first { environmentValue(HostAPI.Environment.appID, of: $0) == appID }
    }

    /// Every plugin host of `broker`, by app id.
    static func pluginHosts(of broker: pid_t) -> [String: pid_t] {
        var hosts: [String: pid_t] = [:]
        for child in children(of: broker) {
            if let appID = environmentValue(HostAPI.Environment.appID, of: child) { hosts[appID] = child }
        }
        return hosts
    }
}

/// What a set of processes used over one measured stretch: CPU seconds and
/// context switches of each.
struct CPUMeter {
    private let pids: [String: pid_t]
    private let cpu: [String: Double]
    private let switches: [String: Double]

    init(_ pids: [String: pid_t]) {
        self.pids = pids
        cpu = pids.compactMapValues { ProcessStats.cpuSeconds($0) }
        switches = pids.compactMapValues { ProcessStats.contextSwitches($0) }
    }

    /// CPU seconds each process used since `init`.
    func used() -> [String: Double] {
        var result: [String: Double] = [:]
        for (name, pid) in pids {
            if let start = cpu[name], let now = ProcessStats.cpuSeconds(pid) { result[name] = now - start }
        }
        return result
    }

    /// Context switches each process made since `init` (threads that ended are not counted).
    func contextSwitches() -> [String: Double] {
        var result: [String: Double] = [:]
        for (name, pid) in pids {
            if let start = switches[name], let now = ProcessStats.contextSwitches(pid) { result[name] = max(0, now - start) }
        }
        return result
    }
}
