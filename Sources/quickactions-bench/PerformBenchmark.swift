import DBus
import Foundation
import Glibc

/// Perform against several subjects with the same load generator, in
/// alternating rounds so drift on a shared machine hits them all alike.
///
/// Round r runs every subject once, in order for even r and in reverse for
/// odd r; each subject's turn is a sequential run (depth 1) then a pipelined
/// one. A short warm-up run per subject comes first and is not counted.
/// Ratios are taken per round against the first subject (the floor) and the
/// median of those is reported.
struct PerformBenchmark {
    var rounds: Int
    var depth: Int
    var sequentialCalls: Int
    var pipelinedCalls: Int
    var warmupCalls: Int
    /// Further pipelined depths, each run `sweepRounds` times per subject after the main
    /// rounds (alternating order again), for throughput against depth.
    var sweepDepths: [Int] = []
    var sweepRounds = 3

    func run(
        subjects: [(subject: Subject, template: CallTemplate)], connection: Connection, busPID: pid_t?,
        progress: (String) -> Void
    ) throws(BenchError) -> PerformResults {
        var sequential: [[RunSummary]] = Array(repeating: [], count: subjects.count)
        var pipelined: [[RunSummary]] = Array(repeating: [], count: subjects.count)
        for (subject, template) in subjects {
            _ = try LoadGenerator.run(template, on: connection, calls: warmupCalls, depth: depth,
                                      label: subject.name)
        }
        for round in 0..<rounds {
            let order = round % 2 == 0 ? Array(subjects.indices) : subjects.indices.reversed()
            for index in order {
                let (subject, template) = subjects[index]
                var pids = ["responder": subject.pid, "client": getpid()]
                if let busPID { pids["bus"] = busPID }
                if let helper = subject.helper() { pids["host"] = helper }
                let one = try LoadGenerator.run(template, on: connection, calls: sequentialCalls, depth: 1,
                                                label: subject.name, watching: pids)
                let many = try LoadGenerator.run(template, on: connection, calls: pipelinedCalls, depth: depth,
                                                 label: subject.name, watching: pids)
                sequential[index].append(RunSummary(one))
                pipelined[index].append(RunSummary(many))
                progress(String(format: "round %d/%d %@: sequential %.0f calls/s, pipelined %.0f calls/s",
                                round + 1, rounds, subject.name, one.callsPerSecond, many.callsPerSecond))
            }
        }
        var summaries: [SubjectSummary] = []
        for index in subjects.indices {
            summaries.append(SubjectSummary(
                name: subjects[index].subject.name,
                sequential: ModeSummary(runs: sequential[index]), pipelined: ModeSummary(runs: pipelined[index])))
        }
        var ratios: [Ratio] = []
        for index in subjects.indices.dropFirst() {
            for (mode, table) in [("sequential", sequential), ("pipelined", pipelined)] {
                let pairs = Array(zip(table[index], table[0]))
                let cpu = pairs.compactMap { subject, floor -> Double? in
                    guard let mine = subject.cpuPerCall["responder"], let theirs = floor.cpuPerCall["responder"],
                          theirs > 0 else { return nil }
                    return mine / theirs
                }
                ratios.append(Ratio(
                    subject: subjects[index].subject.name, mode: mode,
                    callsPerSecond: median(pairs.map { $0.callsPerSecond / max($1.callsPerSecond, 1e-9) }),
                    p99: median(pairs.map { $0.p99 / max($1.p99, 1e-9) }),
                    responderCPU: cpu.isEmpty ? nil : median(cpu)))
            }
        }
        var sweeps: [DepthSweep] = []
        for extra in sweepDepths where extra != 1 && extra != depth {
            var runs: [String: [RunSummary]] = [:]
            for round in 0..<sweepRounds {
                let order = round % 2 == 0 ? Array(subjects.indices) : subjects.indices.reversed()
                for index in order {
                    let (subject, template) = subjects[index]
                    let run = try LoadGenerator.run(template, on: connection, calls: pipelinedCalls, depth: extra,
                                                    label: subject.name)
                    runs[subject.name, default: []].append(RunSummary(run))
                }
                progress("depth \(extra): round \(round + 1)/\(sweepRounds) done")
            }
            sweeps.append(DepthSweep(depth: extra, calls: pipelinedCalls, runs: runs))
        }
        return PerformResults(rounds: rounds, depth: depth, sequentialCalls: sequentialCalls,
                              pipelinedCalls: pipelinedCalls, subjects: summaries, ratios: ratios,
                              depthSweep: sweeps)
    }
}
