import Foundation
import QuickActionsTestSupport
import Testing

/// A small run of the benchmark executable, so it cannot rot. It checks that
/// the run completes and its numbers are sane; never how fast anything is.
@Suite("quickactions-bench smoke run", .serialized)
struct BenchmarkSmokeTests {
    static let executable = PackagePaths.executable("quickactions-bench")

    /// A run's JSON, read loosely: the test asserts on the shape it needs; the document
    /// rendered from it, and the results file it wrote (benchmarks/results beside the document).
    struct Run {
        let json: [String: Any]
        let markdown: String
        let resultsFiles: [String]
        let resultsFile: [String: Any]
    }

    static func run(_ extra: [String], seedReport: String) async throws -> Run {
        let directory = try TemporaryDirectory.make(prefix: "qa-bench-test")
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = directory.appendingPathComponent("BENCHMARKS.md")
        try seedReport.write(to: report, atomically: true, encoding: .utf8)
        var environment = ProcessInfo.processInfo.environment
        // The benchmark's own temporary folders land here and go with it.
        environment["TMPDIR"] = directory.path
        let result = try await Command.run(
            executable.path, ["--quick", "--json", "--write", report.path] + extra,
            environment: environment, timeout: .seconds(300))
        #expect(result.status == 0, "quickactions-bench failed: \(result)")
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
        let json = try #require(object as? [String: Any], "stdout is not a JSON object: \(result.stdout)")
        let results = directory.appendingPathComponent("benchmarks/results")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: results.path)) ?? []
        let file = try #require(files.first, "no results file in \(results.path)")
        let written = try JSONSerialization.jsonObject(with: Data(contentsOf: results.appendingPathComponent(file)))
        return Run(json: json, markdown: try String(contentsOf: report, encoding: .utf8), resultsFiles: files,
                   resultsFile: try #require(written as? [String: Any]))
    }

    static let seed = """
        # Benchmarks

        Hand-written notes that must survive.

        <!-- status: begin. Rendered by scripts/render-benchmarks.py from benchmarks/results; do not edit by hand. -->
        A stale table that must go.
        <!-- status: end -->

        More notes after the table.
        """

    /// The results file and the document rendered from it, for any run.
    static func checkWritten(_ run: Run) throws {
        #expect(run.resultsFiles.count == 1, "\(run.resultsFiles)")
        let name = try #require(run.resultsFiles.first)
        // "2026-12-07T013038Z-abc1234.json": sortable date, then the commit.
        #expect(name.range(of: #"^\d{4}-\d{2}-\d{2}T\d{6}Z-[0-9a-z]+\.json$"#, options: .regularExpression) != nil, "\(name)")
        let machine = try #require(run.resultsFile["machine"] as? [String: Any])
        #expect(machine["date"] as? String == (run.json["machine"] as? [String: Any])?["date"] as? String)
        #expect((run.resultsFile["command"] as? String)?.contains("--quick") == true)
        #expect(run.markdown.contains("Hand-written notes that must survive."))
        #expect(run.markdown.contains("More notes after the table."))
        #expect(!run.markdown.contains("A stale table that must go."))
        #expect(run.markdown.contains("benchmarks/results/\(name)"), "\(run.markdown)")
        #expect(run.markdown.contains("| Figure | Ours | Limit (same run) |"), "\(run.markdown)")
    }

    /// Every subject of a run, the floor first: the C floor twice, the floor answering with
    /// the benchmark plugins' message, the Swift
    /// echo responder ([Value] and typed), GDBus and dbus-python responders,
    /// the relay floor (one hop to a C host process), and the broker with the
    /// C plugin without a message, the C plugin with one and the Swift SDK
    /// plugin with one, in its process and then in plugin hosts.
    static let subjects = ["floor", "floor-again", "floor-message", "swift-echo", "swift-echo-typed", "gdbus", "dbus-python",
                           "relay", "broker", "broker-c-message", "broker-swift-message",
                           "broker-host", "broker-host-c-message", "broker-host-swift-message"]

    @Test("a quick run measures every subject in both modes with sane numbers, writes its results file and renders the document from it")
    func quickRun() async throws {
        let run = try await Self.run([], seedReport: Self.seed)
        let perform = try #require(run.json["perform"] as? [String: Any])
        let rounds = try #require(perform["rounds"] as? Int)
        let sequentialCalls = try #require(perform["sequentialCalls"] as? Int)
        let pipelinedCalls = try #require(perform["pipelinedCalls"] as? Int)
        let subjects = try #require(perform["subjects"] as? [[String: Any]])
        #expect(subjects.compactMap { $0["name"] as? String } == Self.subjects)
        for subject in subjects {
            for (mode, calls) in [("sequential", sequentialCalls), ("pipelined", pipelinedCalls)] {
                let runs = try #require((subject[mode] as? [String: Any])?["runs"] as? [[String: Any]])
                #expect(runs.count == rounds, "\(subject["name"] ?? "?") \(mode): \(runs.count) runs")
                for one in runs {
                    let label = "\(subject["name"] ?? "?") \(mode): \(one)"
                    #expect(one["calls"] as? Int == calls, "\(label)")
                    let rate = try #require(one["callsPerSecond"] as? Double)
                    let p50 = try #require(one["p50"] as? Double)
                    let p99 = try #require(one["p99"] as? Double)
                    #expect(rate > 0 && rate.isFinite, "\(label)")
                    #expect(p50 > 0 && p50 <= p99, "\(label)")
                }
            }
        }
        let ratios = try #require(perform["ratios"] as? [[String: Any]])
        // Every subject but the floor, in both modes.
        #expect(ratios.count == (Self.subjects.count - 1) * 2)
        #expect(Set(ratios.compactMap { $0["subject"] as? String }) == Set(Self.subjects.dropFirst()))
        for ratio in ratios {
            let value = try #require(ratio["callsPerSecond"] as? Double)
            #expect(value > 0 && value.isFinite, "\(ratio)")
        }
        try Self.checkBroker(try #require(run.json["broker"] as? [String: Any]))
        try Self.checkHosts(try #require(run.json["hosts"] as? [String: Any]))
        // Every subject's per-round samples are in the results file, the depth sweep's too.
        let written = try #require(run.resultsFile["perform"] as? [String: Any])
        let sweep = try #require(written["depthSweep"] as? [[String: Any]])
        #expect(sweep.compactMap { $0["depth"] as? Int } == [8], "\(sweep)")
        let sweepRuns = try #require(sweep.first?["runs"] as? [String: [[String: Any]]])
        #expect(Set(sweepRuns.keys) == Set(Self.subjects), "\(sweepRuns.keys)")
        let hostsWritten = try #require(run.resultsFile["hosts"] as? [String: Any])
        #expect(((hostsWritten["cLaunch"] as? [String: Any])?["latencies"] as? [Double])?.count == 4, "\(hostsWritten)")
        try Self.checkWritten(run)
        // The issue's bars, rendered: hosts against the relay, in process against the floor.
        for who in ["C plugin with a message", "Swift SDK plugin with a message"] {
            for mode in ["sequential", "depth 64"] {
                #expect(run.markdown.contains("| Perform in hosts, \(mode), \(who): calls/s |"), "\(run.markdown)")
                #expect(run.markdown.contains("| Perform in process, \(mode), \(who): calls/s |"), "\(run.markdown)")
            }
            #expect(run.markdown.contains("| Perform in hosts, sequential, \(who): p99 |"))
        }
        #expect(run.markdown.contains("| First Perform of an app (launch), C plugin, 4 launches |"), "\(run.markdown)")
    }

    static func checkBroker(_ broker: [String: Any]) throws {
        let getAll = try #require(broker["getAllItems"] as? [[String: Any]])
        #expect(!getAll.isEmpty)
        for sample in getAll {
            let apps = try #require(sample["apps"] as? Int)
            #expect(sample["items"] as? Int == apps * 8, "\(sample)")
            // The C floor answered every call with the broker's reply bytes.
            let floor = try #require(sample["floorLatency"] as? [String: Any])
            #expect(floor["samples"] as? Int == (sample["latency"] as? [String: Any])?["samples"] as? Int, "\(sample)")
        }
        let startup = try #require(broker["startup"] as? [[String: Any]])
        #expect(startup.compactMap { $0["bundles"] as? Int } == [0, 20])
        for sample in startup {
            let runs = try #require(sample["runsMilliseconds"] as? [Double])
            #expect(!runs.isEmpty && runs.allSatisfy { $0 > 0 }, "\(sample)")
        }
        let launch = try #require(broker["launch"] as? [String: Any])
        let resume = try #require(broker["resume"] as? [String: Any])
        #expect(launch["samples"] as? Int == 2)
        #expect(resume["samples"] as? Int == 40)
        let idle = try #require(broker["idleResidentBytes"] as? Double)
        let after = try #require(broker["residentBytesAfterPerforms"] as? Double)
        #expect(idle > 1_000_000 && after > 1_000_000, "idle \(idle), after \(after)")
    }

    /// The quick run's hosts: 4 apps, 2 C and 2 Swift, launched in two brokers one after the
    /// other (4 launches of each kind), idle in the first.
    static func checkHosts(_ hosts: [String: Any]) throws {
        #expect(hosts["apps"] as? Int == 4)
        #expect(hosts["batches"] as? Int == 2)
        for kind in ["cLaunch", "swiftLaunch"] {
            let launch = try #require(hosts[kind] as? [String: Any], "\(kind) missing: \(hosts)")
            #expect(launch["samples"] as? Int == 4, "\(kind): \(launch)")
            #expect((launch["latencies"] as? [Double])?.count == 4, "\(kind): \(launch)")
            let p50 = try #require(launch["p50"] as? Double)
            let slowest = try #require(launch["max"] as? Double)
            #expect(p50 > 0 && p50 <= slowest, "\(kind): \(launch)")
        }
        for kind in ["cHosts", "swiftHosts"] {
            let memory = try #require(hosts[kind] as? [[String: Any]], "\(kind) missing: \(hosts)")
            #expect(memory.count == 2, "\(kind): \(memory)")
            for use in memory {
                let rss = try #require(use["resident"] as? Double)
                let pss = try #require(use["proportional"] as? Double)
                #expect(rss > 1_000_000 && pss > 0 && pss <= rss, "\(kind): \(use)")
            }
        }
        let total = try #require(hosts["total"] as? [String: Any])
        let broker = try #require(hosts["broker"] as? [String: Any])
        let sum = try #require(total["proportional"] as? Double)
        let brokerPSS = try #require(broker["proportional"] as? Double)
        #expect(sum > brokerPSS, "the sum \(sum) must exceed the broker's own \(brokerPSS)")
    }

    @Test("--providers-only measures the item providers' start-up, parse and idle CPU alone, with their rows")
    func providersOnly() async throws {
        let run = try await Self.run(["--providers-only"], seedReport: Self.seed)
        let providers = try #require(run.json["providers"] as? [String: Any], "no providers results: \(run.json.keys)")
        let startup = try #require(providers["startup"] as? [String: Any])
        let entries = try #require(startup["entries"] as? Int)
        for key in ["offNameMilliseconds", "onNameMilliseconds", "onListedMilliseconds"] {
            let times = try #require(startup[key] as? [Double], "\(key) missing: \(startup)")
            #expect(times.count == 2 && times.allSatisfy { $0 > 0 && $0 < 60_000 }, "\(key): \(times)")
        }
        #expect((startup["items"] as? Int ?? 0) >= entries * 2, "every entry has two or three actions: \(startup)")
        let parse = try #require(providers["parse"] as? [String: Any])
        #expect((parse["parseMilliseconds"] as? [Double])?.count == 2, "\(parse)")
        let idle = try #require(providers["idle"] as? [String: Any])
        let on = try #require(idle["on"] as? [String: Any], "no idle sample: \(idle)")
        #expect((on["threads"] as? Int ?? 0) > 1, "\(on)")
        #expect(run.json["broker"] == nil || run.json["broker"] is NSNull, "only the providers were measured")
        try Self.checkWritten(run)
        #expect(run.markdown.contains("| Providers: 50 installed entries, start-up to every app listed, against none |"),
                "\(run.markdown)")
        #expect(run.markdown.contains("-bookmark file parse |"), "\(run.markdown)")
        #expect(run.markdown.contains("| Providers: idle broker over 1 s, CPU |"), "\(run.markdown)")
        #expect(!run.markdown.contains("| Perform in"), "no Perform rows without Perform figures")
    }

    @Test("a wrong argument exits 2 and names the value", arguments: [
        (["--rounds", "zero"], "\"zero\""),
        (["--startup-bundles", "1,x"], "\"1,x\""),
        (["--sweep-depths", "4,x"], "\"4,x\""),
        (["--frobnicate"], "\"--frobnicate\""),
    ])
    func usageErrors(arguments: [String], named: String) async throws {
        let result = try await Command.run(Self.executable.path, arguments, timeout: .seconds(30))
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains(named), "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
    }
}
