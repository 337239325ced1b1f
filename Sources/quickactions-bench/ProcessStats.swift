import Foundation
import Glibc

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
