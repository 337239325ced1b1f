import Foundation

/// Renders a run as Markdown on stdout: every figure in detail, with issue 35's targets where
/// it sets one. BENCHMARKS.md's status table is scripts/render-benchmarks.py's, from the
/// run's results file; the two judge the same targets.
enum Report {
    static func markdown(_ results: BenchResults) -> String {
        let machine = results.machine
        let perform = results.perform
        var lines: [String] = []
        lines.append("## Run of \(machine.date)\(machine.commit.map { " (commit \($0))" } ?? "")")
        lines.append("")
        lines.append("- Command: `\(results.command)`")
        lines.append("- Machine: \(machine.cores) cores, \(machine.cpuModel); load average \(machine.loadAverage) at start")
        guard !perform.subjects.isEmpty else {
            // A run of one measurement alone (--providers-only, --listing-contention-only): its rows only.
            lines.append("")
            lines.append(contentsOf: targetTable(results))
            return lines.joined(separator: "\n")
        }
        lines.append("- Perform: \(perform.rounds) alternating rounds; per subject and round \(perform.sequentialCalls) "
            + "sequential calls and \(perform.pipelinedCalls) pipelined calls (\(perform.depth) in flight); "
            + "medians over rounds. Ratios are per round against the floor, then the median.")
        lines.append("")
        lines.append("### Perform")
        lines.append("")
        lines.append("| Subject | Mode | Calls/s | p50 µs | p99 µs | CPU µs per call: responder / bus / client "
            + "| Responder context switches per call |")
        lines.append("|---|---|---:|---:|---:|---|---:|")
        for subject in perform.subjects {
            for (mode, summary) in [("sequential", subject.sequential), ("pipelined", subject.pipelined)] {
                let cpu = ["responder", "bus", "client"].map { summary.cpuPerCall($0).map { number($0, 1) } ?? "?" }
                let switches = summary.switchesPerCall("responder").map { number($0, 2) } ?? "?"
                lines.append("| \(subject.name) | \(mode) | \(number(summary.callsPerSecond, 0)) | "
                    + "\(number(summary.p50, 0)) | \(number(summary.p99, 0)) | \(cpu.joined(separator: " / ")) | \(switches) |")
            }
        }
        lines.append("")
        lines.append("| Against the floor | Calls/s ratio | p99 ratio | Responder CPU per call ratio |")
        lines.append("|---|---:|---:|---:|")
        for ratio in perform.ratios {
            let name = ratio.subject == Report.noiseSubject ? "\(ratio.subject) (noise: the floor again)" : ratio.subject
            lines.append("| \(name) \(ratio.mode) | \(number(ratio.callsPerSecond, 2)) | \(number(ratio.p99, 2)) | "
                + "\(ratio.responderCPU.map { number($0, 2) } ?? "?") |")
        }
        lines.append("")
        lines.append(contentsOf: isolatedTable(perform))
        if let broker = results.broker, !broker.getAllItems.isEmpty {
            lines.append("| GetAllItems | Responder | p50 | p99 | Reply body | CPU ms per call: responder / bus / client |")
            lines.append("|---|---|---:|---:|---:|---|")
            for sample in broker.getAllItems {
                let bytes = "\(number(Double(sample.replyBytes) / 1024, 0)) KiB"
                for (who, latency, cpu) in [("floor (same bytes)", sample.floorLatency, sample.floorCPUMillisecondsPerCall),
                                            ("broker", sample.latency, sample.cpuMillisecondsPerCall)] {
                    let each = ["responder", "bus", "client"].map { cpu[$0].map { number($0, 2) } ?? "?" }
                    lines.append("| \(sample.apps) apps × 8 items | \(who) | \(millis(latency.p50)) | \(millis(latency.p99)) "
                        + "| \(bytes) | \(each.joined(separator: " / ")) |")
                }
            }
            lines.append("")
        }
        lines.append(contentsOf: targetTable(results))
        return lines.joined(separator: "\n")
    }

    /// The "Targets" heading and table.
    static func targetTable(_ results: BenchResults) -> [String] {
        var lines = ["### Targets", "", "| Measurement | Result | Target | Met |", "|---|---|---|---|"]
        for row in targetRows(results) {
            lines.append("| \(row.name) | \(row.result) | \(row.target) | \(row.met.map { $0 ? "yes" : "**no**" } ?? "—") |")
        }
        lines.append("")
        return lines
    }

    struct Row {
        var name: String
        var result: String
        var target: String
        var met: Bool?
    }

    /// The second floor instance, whose ratios show the run's noise and are no target.
    static let noiseSubject = "floor-again"

    /// The floor answering with the plugins' message: the with-message subjects' like for like.
    static let messageFloorSubject = "floor-message"

    /// The broker performing with a plugin that completes with a message (issue 17's bars).
    static let messageSubjects = ["broker-c-message": "Broker, C plugin with a message",
                                  "broker-swift-message": "Broker, Swift SDK plugin with a message"]
    /// Responders on other D-Bus libraries, which the broker must be ahead of.
    static let otherLibraries = ["gdbus", "dbus-python"]

    static func targetRows(_ results: BenchResults) -> [Row] {
        var rows = ListingContentionBenchmark.targetRows(results.listingContention)
            + ProviderBenchmark.targetRows(results.providers)
        let perform = results.perform
        for ratio in perform.ratios where ratio.subject != noiseSubject && ratio.subject != messageFloorSubject
            && !otherLibraries.contains(ratio.subject) && ratio.subject != relaySubject && hostSubjects[ratio.subject] == nil {
            // Three decimals: at two, 0.897 would read "0.90" beside "no".
            if let who = messageSubjects[ratio.subject] {
                // Issue 35's raw floor for these is the floor sending the same reply (below).
                rows.append(Row(name: "\(who): Perform \(ratio.mode), calls/s against the floor",
                                result: number(ratio.callsPerSecond, 3), target: "—", met: nil))
                rows.append(Row(name: "\(who): Perform \(ratio.mode), p99 against the floor",
                                result: number(ratio.p99, 3), target: "—", met: nil))
                for other in otherLibraries {
                    guard let ahead = perform.roundRatio(ratio.subject, other, mode: ratio.mode) else { continue }
                    rows.append(Row(name: "\(who): Perform \(ratio.mode), calls/s against \(other)",
                                    result: number(ahead, 3), target: "> 1", met: ahead > 1))
                }
                if let same = perform.roundRatio(ratio.subject, messageFloorSubject, mode: ratio.mode) {
                    rows.append(Row(name: "\(who): Perform \(ratio.mode), calls/s against the floor answering the same message",
                                    result: number(same, 3), target: "≥ 0.95", met: same >= 0.95))
                }
                continue
            }
            // Issue 35's in-process bar names the broker; the binding's own responders stand beside it.
            let barred = ratio.subject == "broker"
            let who = barred ? "Broker, C plugin without a message" : "Swift binding (\(ratio.subject))"
            rows.append(Row(name: "\(who): Perform \(ratio.mode), calls/s against the floor",
                            result: number(ratio.callsPerSecond, 3), target: barred ? "≥ 0.95" : "—",
                            met: barred ? ratio.callsPerSecond >= 0.95 : nil))
            rows.append(Row(name: "\(who): Perform \(ratio.mode), p99 against the floor",
                            result: number(ratio.p99, 3), target: "—", met: nil))
        }
        rows.append(contentsOf: isolatedRows(results))
        guard let broker = results.broker else { return rows }
        if let largest = broker.getAllItems.last {
            rows.append(Row(name: "GetAllItems over \(largest.apps) apps × 8 items, p50 (p99)",
                            result: "\(millis(largest.latency.p50)) (\(millis(largest.latency.p99)))",
                            target: "—", met: nil))
            rows.append(Row(name: "The same reply from the C floor, p50 (p99); broker against floor",
                            result: "\(millis(largest.floorLatency.p50)) (\(millis(largest.floorLatency.p99))); "
                                + "×\(number(largest.latency.p50 / max(largest.floorLatency.p50, 1e-9), 2))",
                            target: "—", met: nil))
        }
        if let first = broker.getAllItems.first, let last = broker.getAllItems.last, last.apps > first.apps {
            let growth = last.latency.p50 / max(first.latency.p50, 1e-9)
            let size = Double(last.apps) / Double(first.apps)
            rows.append(Row(name: "GetAllItems growth, \(first.apps) → \(last.apps) apps",
                            result: "×\(number(growth, 1)) for ×\(number(size, 0)) the apps",
                            target: "—", met: nil))
        }
        rows.append(Row(name: "GetItems (one app), p50 (p99)",
                        result: "\(millis(broker.getItems.p50)) (\(millis(broker.getItems.p99)))", target: "—", met: nil))
        let startups = broker.startup.map { "\($0.bundles): \(number($0.medianMilliseconds, 1)) ms" }
        rows.append(Row(name: "Start-up to name acquired, by bundles (median)",
                        result: startups.joined(separator: ", "), target: "—", met: nil))
        if let most = broker.startup.last?.bundles, most > 0 {
            rows.append(Row(name: "Start-up cost per bundle (\(most) against 0)",
                            result: "\(number(broker.startupPerBundleMilliseconds, 3)) ms", target: "≤ 0.2 ms",
                            met: most >= 1000 ? broker.startupPerBundleMilliseconds <= 0.2 : nil))
        }
        let added = broker.launch.p50 - broker.resume.p50
        rows.append(Row(name: "Launch against resume, p50 (\(broker.launch.samples) launches)",
                        result: "\(millis(broker.launch.p50)) against \(millis(broker.resume.p50)): +\(millis(added))",
                        target: "—", met: nil))
        rows.append(Row(name: "Resident memory idle, \(broker.idleBundles) bundles",
                        result: mebibytes(broker.idleResidentBytes), target: "—", met: nil))
        rows.append(Row(name: "Resident memory after \(number(Double(broker.performsForMemory), 0)) Performs",
                        result: mebibytes(broker.residentBytesAfterPerforms), target: "—", met: nil))
        return rows
    }

    // MARK: Issue 14: plugin hosts against the relay floor

    /// The floor of an isolated broker: one extra hop to a C host process.
    static let relaySubject = "relay"
    /// The broker's apps in plugin host processes, and whether issue 14's bars apply
    /// (they name the plugins that complete with a message).
    static let hostSubjects = ["broker-host": ("Plugin host, C plugin without a message", false),
                               "broker-host-c-message": ("Plugin host, C plugin with a message", true),
                               "broker-host-swift-message": ("Plugin host, Swift SDK plugin with a message", true)]

    /// Each isolated subject against the relay, round by round, with the CPU both of its
    /// processes use per call.
    static func isolatedTable(_ perform: PerformResults) -> [String] {
        guard let relay = perform.subjects.first(where: { $0.name == relaySubject }) else { return [] }
        var lines = ["| Isolated, against the relay | Calls/s ratio | p99 ratio | CPU µs per call: front / host "
            + "(relay: \(modeCPU(relay.sequential)) sequential, \(modeCPU(relay.pipelined)) pipelined) |",
            "|---|---:|---:|---|"]
        for subject in perform.subjects where hostSubjects[subject.name] != nil {
            for (mode, summary) in [("sequential", subject.sequential), ("pipelined", subject.pipelined)] {
                let calls = perform.roundRatio(subject.name, relaySubject, mode: mode).map { number($0, 3) } ?? "?"
                let p99 = perform.roundP99Ratio(subject.name, relaySubject, mode: mode).map { number($0, 3) } ?? "?"
                lines.append("| \(subject.name) \(mode) | \(calls) | \(p99) | \(modeCPU(summary)) |")
            }
        }
        lines.append("")
        return lines
    }

    /// "broker / host" CPU µs per call of one mode.
    private static func modeCPU(_ summary: ModeSummary) -> String {
        ["responder", "host"].map { summary.cpuPerCall($0).map { number($0, 1) } ?? "?" }.joined(separator: " / ")
    }

    static func isolatedRows(_ results: BenchResults) -> [Row] {
        var rows: [Row] = []
        let perform = results.perform
        for mode in ["sequential", "pipelined"] {
            if let ratio = perform.ratios.first(where: { $0.subject == relaySubject && $0.mode == mode }) {
                rows.append(Row(name: "Relay floor: Perform \(mode), calls/s (p99) against the floor",
                                result: "\(number(ratio.callsPerSecond, 3)) (\(number(ratio.p99, 3)))",
                                target: "—", met: nil))
            }
        }
        for subject in perform.subjects {
            guard let (who, barred) = hostSubjects[subject.name] else { continue }
            for mode in ["sequential", "pipelined"] {
                guard let calls = perform.roundRatio(subject.name, relaySubject, mode: mode),
                      let p99 = perform.roundP99Ratio(subject.name, relaySubject, mode: mode) else { continue }
                // Issue 35: sequential ≥ 0.90 × the relay with p99 ≤ 1.2 ×; depth 64 ≥ 1.0 ×.
                let sequential = mode == "sequential"
                let depth = sequential ? "sequential" : "depth \(perform.depth)"
                let bar = sequential ? 0.90 : 1.0
                rows.append(Row(name: "\(who): Perform \(depth), calls/s against the relay",
                                result: number(calls, 3), target: barred ? "≥ \(number(bar, 2))" : "—",
                                met: barred ? calls >= bar : nil))
                rows.append(Row(name: "\(who): Perform \(depth), p99 against the relay",
                                result: number(p99, 3), target: barred && sequential ? "≤ 1.20" : "—",
                                met: barred && sequential ? p99 <= 1.2 : nil))
            }
        }
        guard let hosts = results.hosts else { return rows }
        for (who, launch) in [("C plugin", hosts.cLaunch), ("Swift SDK plugin", hosts.swiftLaunch)] {
            // Issue 35: p99 ≤ 15 ms and max ≤ 30 ms, judged over 1,000 launches.
            let judged = launch.samples >= 1000
            rows.append(Row(name: "Launch, \(who) (host spawned, plugin loaded and initialised, first reply), "
                                + "p99 (p50) of \(launch.samples) fresh hosts",
                            result: "\(millis(launch.p99)) (\(millis(launch.p50)))", target: "≤ 15 ms",
                            met: judged ? launch.p99 <= 15_000 : nil))
            rows.append(Row(name: "Launch, \(who), slowest of \(launch.samples) (the first of them beside it)",
                            result: "\(millis(launch.max)) (first \(millis(launch.first)))", target: "≤ 30 ms",
                            met: judged ? launch.max <= 30_000 : nil))
        }
        for (who, memory) in [("C plugin", hosts.cHosts), ("Swift SDK plugin", hosts.swiftHosts)] where !memory.isEmpty {
            let rss = memory.map(\.resident)
            let pss = memory.map(\.proportional)
            let uss = memory.map(\.unique)
            rows.append(Row(name: "Idle host, \(who): PSS median of \(memory.count); RSS median (largest) and USS median",
                            result: "PSS \(mebibytes(median(pss))); RSS \(mebibytes(median(rss))) (\(mebibytes(rss.max() ?? 0))), "
                                + "USS \(mebibytes(median(uss)))",
                            target: "≤ 2 MiB (PSS)", met: median(pss) <= 2 * 1_048_576))
        }
        rows.append(Row(name: "\(hosts.apps) loaded apps: PSS of the broker and its \(hosts.apps) hosts (RSS summed beside)",
                        result: "\(mebibytes(hosts.total.proportional)) (RSS \(mebibytes(hosts.total.resident)); "
                            + "broker \(mebibytes(hosts.broker.resident)) RSS)",
                        target: "≤ 100 MiB (PSS)",
                        met: hosts.apps >= 50 ? hosts.total.proportional <= 100 * 1_048_576 : nil))
        return rows
    }

    /// `value` with `decimals` decimals and commas between thousands: "12,345.6".
    static func number(_ value: Double, _ decimals: Int) -> String {
        guard value.isFinite else { return "\(value)" }
        let text = String(format: "%.\(decimals)f", abs(value))
        let parts = text.split(separator: ".", maxSplits: 1)
        var whole = ""
        for (index, digit) in parts[0].reversed().enumerated() {
            if index > 0 && index % 3 == 0 { whole.append(",") }
            whole.append(digit)
        }
        let sign = value < 0 && text.contains(where: { $0 != "0" && $0 != "." }) ? "-" : ""
        return sign + String(whole.reversed()) + (parts.count > 1 ? "." + parts[1] : "")
    }

    static func millis(_ micros: Double) -> String { "\(number(micros / 1000, 2)) ms" }
    static func mebibytes(_ bytes: Double) -> String { "\(number(bytes / 1_048_576, 1)) MiB" }
}
