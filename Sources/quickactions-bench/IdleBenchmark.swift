import DBus
import Foundation
import Glibc
import QuickActionsTestSupport

/// Issue 33 §6's idle bar: a broker with its item providers on, among installed applications
/// and a recently-used.xbel (``ProviderRig``), no media player on the bus, nothing calling
/// it, must use no CPU: it follows inotify and bus signals, never polls. Once every app is
/// listed and `settle` has passed, its CPU ticks (utime + stime of /proc/PID/stat, every
/// thread, dead ones included) and the context switches of each of its threads
/// (/proc/PID/task/TID/status, voluntary and not) are read, then again `seconds` later.
/// The same broker with the providers off (`QUICKACTIONS_PROVIDERS=0`) is measured beside it,
/// so a wake-up of the broker's own is told from the providers': libdispatch's own workqueue
/// monitor (`_dispatch_workq_init_once` arms a 1 s repeating timer on Linux) wakes every
/// process that uses its worker threads once a second, with or without providers.
struct IdleBenchmark {
    let rig: ProviderRig
    let seconds: Int
    /// Past libdispatch's 5 s idle timeout of a worker thread, so threads that worked during
    /// start-up and retire once are not counted as wake-ups.
    var settle: Duration = .seconds(6)

    func run() throws(BenchError) -> IdleResults {
        var results = IdleResults(entries: rig.entries, bookmarks: rig.bookmarks, seconds: seconds)
        for providers in [true, false] {
            let label = "broker-idle-\(providers ? "on" : "off")"
            let process = try rig.spawn(providers: providers, label: label)
            defer { process.stop() }
            guard let pid = process.pid else {
                throw .subject(name: label, reason: "did not start: \(process.standardError.suffix(2000))")
            }
            try Subject.waitForName(BrokerBenchmark.busName, of: process, pid: pid, label: label,
                                    connection: rig.benchmark.connection, timeout: .seconds(120))
            let listed = try rig.waitUntilListed(apps: providers ? rig.entries : 0, process: process, label: label)
            // Listed again a second later: the recent documents follow the desktop actions.
            sleep(1)
            let settled = try rig.waitUntilListed(apps: listed.apps, process: process, label: label)
            if providers { results.items = settled.items }
            rig.benchmark.progress("providers: \(label): \(settled.apps) apps, \(settled.items) items; "
                + "settling \(settle), then idle for \(seconds) s")
            usleep(UInt32(settle.components.seconds) * 1_000_000)
            let ticks = ProcessStats.cpuTicks(pid)
            let switches = ProcessStats.threadContextSwitches(pid)
            sleep(UInt32(seconds))
            let ticksAfter = ProcessStats.cpuTicks(pid)
            let switchesAfter = ProcessStats.threadContextSwitches(pid)
            guard let ticks, let ticksAfter else {
                throw .subject(name: label, reason: "gone while idle: \(process.standardError.suffix(2000))")
            }
            var byThread: [String: Int] = [:]
            for (tid, after) in switchesAfter {
                // A thread that started meanwhile counts from 0.
                let delta = after.switches - (switches[tid]?.switches ?? 0)
                if delta > 0 { byThread[after.name, default: 0] += delta }
            }
            let sample = IdleSample(cpuTicks: ticksAfter - ticks, threads: switchesAfter.count,
                                    contextSwitches: byThread.values.reduce(0, +), switchesByThread: byThread)
            if providers { results.on = sample } else { results.off = sample }
            rig.benchmark.progress("providers: \(label): \(sample.cpuTicks) ticks, \(sample.contextSwitches) context switches "
                + "over \(seconds) s (\(byThread.isEmpty ? "no thread woke" : byThread.map { "\($0.key): \($0.value)" }.sorted().joined(separator: ", ")))")
            process.stop()
            Thread.sleep(forTimeInterval: 0.2)
        }
        return results
    }

    static func targetRows(_ results: IdleResults?) -> [Report.Row] {
        guard let results, let on = results.on else { return [] }
        func describe(_ sample: IdleSample) -> String {
            let woke = sample.switchesByThread.sorted { $0.value > $1.value }.prefix(4)
                .map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            return "\(sample.cpuTicks) ticks, \(sample.contextSwitches) context switches over \(sample.threads) threads"
                + (woke.isEmpty ? "" : " (\(woke))")
        }
        var rows = [Report.Row(
            name: "Idle broker, providers on (\(results.entries) entries, \(results.bookmarks) bookmarks, no player; "
                + "\(results.items) items), "
                + "\(results.seconds) s: CPU ticks (10 ms) and context switches, every thread",
            result: describe(on), target: "0 ticks, no periodic wake-ups (at most 1 context switch per 10 s over the broker without providers)",
            met: on.cpuTicks == 0 && Double(on.contextSwitches - (results.off?.contextSwitches ?? 0)) <= Double(results.seconds) / 10)]
        if let off = results.off {
            rows.append(Report.Row(name: "The same broker with QUICKACTIONS_PROVIDERS=0, \(results.seconds) s",
                                   result: describe(off), target: "—", met: nil))
        }
        return rows
    }
}

struct IdleSample: Codable, Sendable {
    var cpuTicks: Int
    var threads: Int
    var contextSwitches: Int
    /// Thread name (comm): switches of the threads of that name that switched at all.
    var switchesByThread: [String: Int]
}

struct IdleResults: Codable, Sendable {
    var entries: Int
    var bookmarks: Int
    var seconds: Int
    var items = 0
    var on: IdleSample?
    var off: IdleSample?
}

extension ProcessStats {
    /// utime + stime of every thread the process has run, in clock ticks (fields 14 and 15
    /// of /proc/PID/stat); nil when it is gone.
    static func cpuTicks(_ pid: pid_t) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Int(fields[11]), let system = Int(fields[12]) else { return nil }
        return user + system
    }

    /// Each live thread's name (/proc/PID/task/TID/comm) and context switches, voluntary and not.
    static func threadContextSwitches(_ pid: pid_t) -> [String: (name: String, switches: Int)] {
        guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task") else { return [:] }
        var result: [String: (name: String, switches: Int)] = [:]
        for task in tasks {
            guard let text = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8) else {
                continue
            }
            let name = ((try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/comm", encoding: .utf8)) ?? "?")
                .trimmingCharacters(in: .whitespacesAndNewlines)
            var switches = 0
            for line in text.split(separator: "\n") where line.contains("ctxt_switches:") {
                switches += line.split(separator: "\t").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } ?? 0
            }
            result[task] = (name, switches)
        }
        return result
    }
}
