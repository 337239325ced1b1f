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

/// CPU time of a set of processes over one measured stretch.
struct CPUMeter {
    private let pids: [String: pid_t]
    private let before: [String: Double]

    init(_ pids: [String: pid_t]) {
        self.pids = pids
        before = pids.compactMapValues { ProcessStats.cpuSeconds($0) }
    }

    /// CPU seconds each process used since `init`.
    func used() -> [String: Double] {
        var result: [String: Double] = [:]
        for (name, pid) in pids {
            if let start = before[name], let now = ProcessStats.cpuSeconds(pid) { result[name] = now - start }
        }
        return result
    }
}
