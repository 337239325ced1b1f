import DBus
import Foundation
import Glibc
import QuickActionsTestSupport

/// Issue 33 §6's start-up bar: what 1,000 installed applications add to the broker's
/// start-up and memory. In alternating rounds a broker starts among `entries` desktop
/// entries (``ProviderRig``) with its item providers off (`QUICKACTIONS_PROVIDERS=0`) and on.
/// Each start is timed from spawning it to the bus announcing it owns its name
/// (NameOwnerChanged, as ``StartupBenchmark``) and, with providers on, to the first
/// GetAllItems reply listing every entry's app (polled every 2 ms from name acquired). Half a
/// second after that (off: after name acquired and one GetAllItems), its RSS and PSS from
/// /proc/PID/smaps_rollup.
struct ProviderStartupBenchmark {
    let rig: ProviderRig
    let rounds: Int
    /// How long a started broker is left before its memory is read.
    var settle: Duration = .milliseconds(500)

    func run() throws(BenchError) -> ProviderStartupResults {
        let benchmark = rig.benchmark
        let connection = benchmark.connection
        let (acquired, released, subscription) = try BrokerBenchmark.watchBrokerName(on: connection)
        defer { subscription.cancel() }
        var results = ProviderStartupResults(entries: rig.entries, rounds: rounds)
        for round in 0..<rounds {
            for providers in round % 2 == 0 ? [false, true] : [true, false] {
                let label = "broker-providers-\(providers ? "on" : "off")-\(round)"
                acquired.drain()
                released.drain()
                let start = monotonicNanoseconds()
                let process = try rig.spawn(providers: providers, label: label)
                defer { process.stop() }
                guard let owned = acquired.next(timeout: .seconds(120)) else {
                    throw .subject(name: label, reason: "did not own \(BrokerBenchmark.busName.rawValue) "
                        + "within 120 s: \(process.standardError.suffix(2000))")
                }
                let named = Double(owned - start) / 1e6
                let listed = try rig.waitUntilListed(apps: providers ? rig.entries : 0, process: process, label: label)
                // Its CPU time so far: steadier than the wall clock on a shared machine.
                let cpu = process.pid.flatMap { ProcessStats.liveThreadsCPUNanoseconds($0) }.map { $0 / 1e6 } ?? 0
                if providers { results.onCPUMilliseconds.append(cpu) } else { results.offCPUMilliseconds.append(cpu) }
                if providers {
                    guard listed.apps == rig.entries else {
                        throw .calls(subject: "\(label) GetAllItems",
                                     reason: "expected \(rig.entries) apps, got \(listed.apps)")
                    }
                    results.onNameMilliseconds.append(named)
                    results.onListedMilliseconds.append(Double(listed.at - start) / 1e6)
                    results.items = listed.items
                } else {
                    results.offNameMilliseconds.append(named)
                }
                usleep(UInt32(settle.components.seconds * 1_000_000 + settle.components.attoseconds / 1_000_000_000_000))
                guard let pid = process.pid, let memory = ProcessStats.memory(pid) else {
                    throw .subject(name: label, reason: "gone before its memory was read: \(process.standardError.suffix(2000))")
                }
                if providers { results.onMemory.append(memory) } else { results.offMemory.append(memory) }
                benchmark.progress(String(
                    format: "providers: %@: name %.1f ms%@, CPU %.1f ms, RSS %.1f MiB, PSS %.1f MiB", label, named,
                    providers ? String(format: ", %d apps listed %.1f ms", listed.apps, Double(listed.at - start) / 1e6) : "", cpu,
                    memory.resident / 1_048_576, memory.proportional / 1_048_576))
                process.stop()
                _ = released.next(timeout: .seconds(10))
            }
        }
        return results
    }

    static func targetRows(_ results: ProviderStartupResults?) -> [Report.Row] {
        guard let results, !results.onListedMilliseconds.isEmpty, !results.offNameMilliseconds.isEmpty else { return [] }
        let barred = results.entries >= 1000
        let offName = median(results.offNameMilliseconds)
        let onName = median(results.onNameMilliseconds)
        let onListed = median(results.onListedMilliseconds)
        let added = onListed - offName
        let rss = median(results.onMemory.map(\.resident)) - median(results.offMemory.map(\.resident))
        let pss = median(results.onMemory.map(\.proportional)) - median(results.offMemory.map(\.proportional))
        let n = results.rounds
        return [
            Report.Row(
                name: "\(results.entries) installed entries: start-up to every app listed (providers on) against "
                    + "name acquired with QUICKACTIONS_PROVIDERS=0, median of \(n) alternating rounds",
                result: "+\(Report.number(added, 1)) ms: \(spread(results.onListedMilliseconds)) against "
                    + "\(spread(results.offNameMilliseconds)) (\(results.items) items)",
                target: "≤ +50 ms", met: barred ? added <= 50 : nil),
            Report.Row(
                name: "\(results.entries) installed entries: start-up to name acquired, providers on against off",
                result: "+\(Report.number(onName - offName, 1)) ms: \(spread(results.onNameMilliseconds)) against "
                    + "\(Report.number(offName, 1)) ms",
                target: "—", met: nil),
            Report.Row(
                name: "\(results.entries) installed entries: the broker's CPU time until listed, providers on against off",
                result: "+\(Report.number(median(results.onCPUMilliseconds) - median(results.offCPUMilliseconds), 1)) ms: "
                    + "\(spread(results.onCPUMilliseconds)) against \(spread(results.offCPUMilliseconds))",
                target: "—", met: nil),
            Report.Row(
                name: "\(results.entries) installed entries: memory added after settling, RSS (PSS), median of \(n)",
                result: "+\(Report.mebibytes(rss)) (PSS +\(Report.mebibytes(pss))): RSS "
                    + "\(memorySpread(results.onMemory.map(\.resident))) against \(memorySpread(results.offMemory.map(\.resident)))",
                target: "≤ +10 MiB", met: barred ? max(rss, pss) <= 10 * 1_048_576 : nil),
        ]
    }

    /// "12.3 ms (11.0–15.2)": the median and the range.
    static func spread(_ milliseconds: [Double]) -> String {
        "\(Report.number(median(milliseconds), 1)) ms (\(Report.number(milliseconds.min() ?? 0, 1))–"
            + "\(Report.number(milliseconds.max() ?? 0, 1)))"
    }

    static func memorySpread(_ bytes: [Double]) -> String {
        "\(Report.mebibytes(median(bytes))) (\(Report.number((bytes.min() ?? 0) / 1_048_576, 1))–"
            + "\(Report.number((bytes.max() ?? 0) / 1_048_576, 1)))"
    }
}

struct ProviderStartupResults: Codable, Sendable {
    var entries: Int
    var rounds: Int
    /// Spawn to name acquired, providers off, per round (ms).
    var offNameMilliseconds: [Double] = []
    /// Spawn to name acquired, providers on.
    var onNameMilliseconds: [Double] = []
    /// Spawn to the first GetAllItems reply listing every entry's app, providers on.
    var onListedMilliseconds: [Double] = []
    /// Items in that listing.
    var items = 0
    /// The broker's CPU time (its live threads, schedstat) when listed (on) or named and
    /// listed once (off), in ms.
    var offCPUMilliseconds: [Double] = []
    var onCPUMilliseconds: [Double] = []
    var offMemory: [MemoryUse] = []
    var onMemory: [MemoryUse] = []
}
