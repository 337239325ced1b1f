/// Everything one benchmark run measured: printed with `--json`, and written as one file per
/// run under benchmarks/results/ (ResultsFile), from which scripts/render-benchmarks.py
/// renders BENCHMARKS.md's status table. Every figure keeps its per-round samples.
/// Times are in microseconds unless a name says otherwise.
struct BenchResults: Codable, Sendable {
    /// Bumped when a field the renderer reads changes meaning.
    var format = 1
    var machine: Machine
    var command: String
    var perform: PerformResults
    /// The broker's own measurements; nil with `--no-broker`.
    var broker: BrokerResults?
    /// Plugin hosts' launch and memory (issue 14); nil with `--no-broker`.
    var hosts: HostResults?
    /// Perform during GetManagedObjects loops (issue 17); nil when left out.
    var listingContention: ListingContentionResults?
    /// The item providers' cost (issue 33 §6); nil when left out.
    var providers: ProviderResults?
}

/// One load run, reduced.
struct RunSummary: Codable, Sendable {
    var calls: Int
    var callsPerSecond: Double
    var p50: Double
    var p99: Double
    /// CPU microseconds per call of each process: "responder", "bus", "client".
    var cpuPerCall: [String: Double]
    /// Context switches per call of each process.
    var switchesPerCall: [String: Double]

    init(_ run: LoadRun) {
        let latencies = Distribution(run.latencies)
        calls = run.calls
        callsPerSecond = run.callsPerSecond
        p50 = latencies.p50
        p99 = latencies.p99
        cpuPerCall = run.cpu.mapValues { $0 * 1e6 / Double(max(run.calls, 1)) }
        switchesPerCall = run.contextSwitches.mapValues { $0 / Double(max(run.calls, 1)) }
    }
}

/// One subject in one mode over all rounds: each round's run and the medians.
struct ModeSummary: Codable, Sendable {
    var runs: [RunSummary]

    var callsPerSecond: Double { median(runs.map(\.callsPerSecond)) }
    var p50: Double { median(runs.map(\.p50)) }
    var p99: Double { median(runs.map(\.p99)) }
    func cpuPerCall(_ process: String) -> Double? {
        let values = runs.compactMap { $0.cpuPerCall[process] }
        return values.isEmpty ? nil : median(values)
    }
    func switchesPerCall(_ process: String) -> Double? {
        let values = runs.compactMap { $0.switchesPerCall[process] }
        return values.isEmpty ? nil : median(values)
    }
}

struct SubjectSummary: Codable, Sendable {
    var name: String
    var sequential: ModeSummary
    var pipelined: ModeSummary
}

/// A subject against the floor in one mode: the median over rounds of each round's ratio.
struct Ratio: Codable, Sendable {
    var subject: String
    var mode: String
    var callsPerSecond: Double
    var p99: Double
    /// The responder's CPU time per call against the floor's: steadier than
    /// throughput on a shared machine.
    var responderCPU: Double?
}

struct PerformResults: Codable, Sendable {
    var rounds: Int
    var depth: Int
    var sequentialCalls: Int
    var pipelinedCalls: Int
    var subjects: [SubjectSummary]
    var ratios: [Ratio]
    /// Pipelined runs at further depths (`--sweep-depths`), for throughput against depth.
    var depthSweep: [DepthSweep] = []

    /// The median over rounds of `subject`'s calls/s against `other`'s in the
    /// same round; nil when either was not measured.
    func roundRatio(_ subject: String, _ other: String, mode: String) -> Double? {
        guard let mine = subjects.first(where: { $0.name == subject }),
              let theirs = subjects.first(where: { $0.name == other }) else { return nil }
        let pairs = mode == "sequential"
            ? zip(mine.sequential.runs, theirs.sequential.runs) : zip(mine.pipelined.runs, theirs.pipelined.runs)
        let ratios = pairs.map { $0.callsPerSecond / max($1.callsPerSecond, 1e-9) }
        return ratios.isEmpty ? nil : median(ratios)
    }

    /// The median over rounds of `subject`'s p99 against `other`'s in the same round.
    func roundP99Ratio(_ subject: String, _ other: String, mode: String) -> Double? {
        guard let mine = subjects.first(where: { $0.name == subject }),
              let theirs = subjects.first(where: { $0.name == other }) else { return nil }
        let pairs = mode == "sequential"
            ? zip(mine.sequential.runs, theirs.sequential.runs) : zip(mine.pipelined.runs, theirs.pipelined.runs)
        let ratios = pairs.map { $0.p99 / max($1.p99, 1e-9) }
        return ratios.isEmpty ? nil : median(ratios)
    }
}

/// Every subject's pipelined runs at one more depth, one per sweep round.
struct DepthSweep: Codable, Sendable {
    var depth: Int
    var calls: Int
    /// Subject name → its runs, one per round.
    var runs: [String: [RunSummary]]
}

/// Launch times of fresh plugin hosts: p50, p99 and the slowest, and every launch.
struct LaunchSummary: Codable, Sendable {
    /// Every launch, in launch order, in microseconds.
    var latencies: [Double]
    var samples: Int
    var p50: Double
    var p99: Double
    var max: Double
    /// The first of them, in launch order: for the C plugin, the broker's first launch after start-up.
    var first: Double

    init(_ latencies: [Double]) {
        let distribution = Distribution(latencies)
        self.latencies = latencies
        samples = distribution.count
        p50 = distribution.p50
        p99 = distribution.p99
        max = distribution.sorted.last ?? 0
        first = latencies.first ?? 0
    }
}

/// One broker with `apps` plugin hosts, each launched once and then idle (issue 14).
struct HostResults: Codable, Sendable {
    var apps: Int
    /// Brokers started one after the other, each with `apps` fresh hosts: launches of each
    /// plugin kind = batches × apps / 2. Memory is read in the first.
    var batches: Int
    /// The first Perform of each C app and of each Swift SDK app, from the client.
    var cLaunch: LaunchSummary
    var swiftLaunch: LaunchSummary
    /// Each idle host's memory, C plugin and Swift SDK plugin.
    var cHosts: [MemoryUse]
    var swiftHosts: [MemoryUse]
    var broker: MemoryUse
    /// The broker and every host together.
    var total: MemoryUse
}

/// Latency percentiles of repeated calls.
struct LatencySummary: Codable, Sendable {
    var samples: Int
    var p50: Double
    var p99: Double

    init(_ latencies: [Double]) {
        let distribution = Distribution(latencies)
        samples = distribution.count
        p50 = distribution.p50
        p99 = distribution.p99
    }
}

struct GetAllItemsSample: Codable, Sendable {
    var apps: Int
    var items: Int
    var latency: LatencySummary
    /// The C floor answering with the same reply bytes (copied, readdressed).
    var floorLatency: LatencySummary
    /// The reply's body, marshalled, in bytes.
    var replyBytes: Int
    /// CPU milliseconds per call of the broker ("responder"), the bus and the client.
    var cpuMillisecondsPerCall: [String: Double]
    /// The same for the floor's run.
    var floorCPUMillisecondsPerCall: [String: Double]
}

struct StartupSample: Codable, Sendable {
    var bundles: Int
    /// Each start's time from spawn to name acquired, in milliseconds.
    var runsMilliseconds: [Double]
    var medianMilliseconds: Double { median(runsMilliseconds) }
}

struct BrokerResults: Codable, Sendable {
    var getItems: LatencySummary
    var getAllItems: [GetAllItemsSample]
    var startup: [StartupSample]
    /// (start-up with the most bundles − start-up with none) / bundles, in milliseconds.
    var startupPerBundleMilliseconds: Double
    /// First Perform of each freshly generated app (dlopen + init + launch + perform).
    var launch: LatencySummary
    /// Later Performs of the same apps.
    var resume: LatencySummary
    var idleBundles: Int
    var idleResidentBytes: Double
    var performsForMemory: Int
    var residentBytesAfterPerforms: Double
}
