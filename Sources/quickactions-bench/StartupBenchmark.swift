import DBus
import Foundation
import Glibc
import QuickActionsTestSupport

/// The broker's start-up time, from spawning it to the bus announcing that
/// it owns its name (NameOwnerChanged seen by our client), with each bundle
/// count in turn; and GetAllItems on each started broker that has bundles.
///
/// The time includes starting the process (a small `sh` lifeline wrapper
/// and the broker itself), which is the same for every count, so the
/// difference between counts is the cost of reading bundles.
struct StartupBenchmark {
    let benchmark: BrokerBenchmark

    init(benchmark: BrokerBenchmark) {
        self.benchmark = benchmark
    }

    mutating func run() throws(BenchError) -> ([StartupSample], [GetAllItemsSample]) {
        let options = benchmark.options
        let connection = benchmark.connection
        let (acquired, released, subscription) = try BrokerBenchmark.watchBrokerName(on: connection)
        defer { subscription.cancel() }
        var folders: [Int: URL] = [:]
        for count in options.startupBundles {
            benchmark.progress("broker: generating \(count) bundles of \(BundleGenerator.itemsPerApp) items")
            folders[count] = try benchmark.listingFolder(count)
        }
        var runs: [Int: [Double]] = [:]
        var getAll: [GetAllItemsSample] = []
        for repeat_ in 0..<options.startupRepeats {
            let order = repeat_ % 2 == 0 ? options.startupBundles : options.startupBundles.reversed()
            for count in order {
                guard let folder = folders[count] else { continue }
                let label = "broker-startup-\(count)-\(repeat_)"
                let command = try benchmark.brokerCommand(plugins: [folder], label: label)
                acquired.drain()
                released.drain()
                let start = monotonicNanoseconds()
                let process: ManagedProcess
                do {
                    process = try ManagedProcess(command[0], Array(command.dropFirst()),
                                                 environment: benchmark.environment, directory: benchmark.work,
                                                 name: label)
                } catch {
                    throw .subject(name: label, reason: "cannot start \(command[0]): \(error)")
                }
                defer { process.stop() }
                guard let owned = acquired.next(timeout: .seconds(120)) else {
                    throw .subject(name: label, reason: "did not own \(BrokerBenchmark.busName.rawValue) "
                        + "within 120 s: \(process.standardError.suffix(2000))")
                }
                let milliseconds = Double(owned - start) / 1e6
                runs[count, default: []].append(milliseconds)
                benchmark.progress(String(format: "broker: start-up with %d bundles: %.1f ms", count, milliseconds))
                if repeat_ == 0 && count > 0 && !options.onlyStartup {
                    getAll.append(try measureGetAllItems(apps: count, broker: process.pid))
                }
                process.stop()
                _ = released.next(timeout: .seconds(10))
            }
        }
        let samples = options.startupBundles.map { StartupSample(bundles: $0, runsMilliseconds: runs[$0] ?? []) }
        return (samples, getAll)
    }

    /// `--startup-only`: a private bus and the start-up rounds alone, summed up in a few lines:
    /// each count's median and range, then the cost per bundle of the most bundles against the
    /// fewest, from the medians (as the full run's report gives it) and from each round's pair.
    static func runAlone(_ options: BenchOptions) throws(BenchError) -> String {
        try Products.require(Products.broker)
        try Products.require(Products.host)
        let work: URL
        do {
            work = try TemporaryDirectory.make(prefix: "qa-bench-startup")
        } catch {
            throw .file(path: "$TMPDIR", reason: "\(error)")
        }
        defer { try? FileManager.default.removeItem(at: work) }
        let bus = try waitFor("the private bus") { try await TestBus() }
        defer { bus.stop() }
        let connection: Connection
        do {
            connection = try Connection(.address(bus.address))
        } catch {
            throw .subject(name: "the private bus", reason: "\(error)")
        }
        defer { connection.close() }
        var startup = StartupBenchmark(benchmark: BrokerBenchmark(
            options: options, bus: bus, connection: connection, work: work,
            busPID: connection.processID(of: "org.freedesktop.DBus"), progress: progress))
        let (samples, _) = try startup.run()
        var lines = samples.map { sample in
            "start-up with \(sample.bundles) bundles: \(ProviderStartupBenchmark.spread(sample.runsMilliseconds)), "
                + "\(sample.runsMilliseconds.count) rounds"
        }
        if let fewest = samples.first, let most = samples.last, most.bundles > fewest.bundles {
            let bundles = Double(most.bundles - fewest.bundles)
            let fromMedians = (most.medianMilliseconds - fewest.medianMilliseconds) / bundles
            let perRound = zip(most.runsMilliseconds, fewest.runsMilliseconds).map { ($0 - $1) / bundles }
            lines.append(String(format: "per bundle (%d against %d): %.3f ms from the medians; each round's: "
                                    + "median %.3f ms, %.3f–%.3f ms",
                                most.bundles, fewest.bundles, fromMedians, median(perRound),
                                perRound.min() ?? 0, perRound.max() ?? 0))
        }
        return lines.joined(separator: "\n")
    }

    /// GetAllItems on the running broker, which has `apps` listing bundles,
    /// and on the C floor answering with the very bytes of the broker's reply.
    private func measureGetAllItems(apps: Int, broker: pid_t?) throws(BenchError) -> GetAllItemsSample {
        let template = CallTemplate.getAllItems(destination: BrokerBenchmark.busName)
        // One checked call: every app and every item must be there.
        let message = try benchmark.connection.blockingReply(template, label: "broker GetAllItems")
        let reply: [Value]
        do {
            reply = try message.arguments()
        } catch {
            throw .calls(subject: "broker GetAllItems", reason: "cannot read the reply: \(error)")
        }
        let entries = reply.first?.array ?? []
        let items = entries.reduce(0) { $0 + ($1.structure?.last?.array?.count ?? 0) }
        guard entries.count == apps, items == apps * BundleGenerator.itemsPerApp else {
            throw .calls(subject: "broker GetAllItems", reason: "expected \(apps) apps with "
                + "\(apps * BundleGenerator.itemsPerApp) items, got \(entries.count) apps with \(items) items")
        }
        let floor = try startListingFloor(reply: message, apps: apps)
        defer { floor.stop() }
        var pids = ["client": getpid()]
        if let bus = benchmark.busPID { pids["bus"] = bus }
        let calls = benchmark.options.getAllItemsCalls
        let floorRun = try LoadGenerator.run(
            .getAllItems(destination: floor.busName), on: benchmark.connection, calls: calls, depth: 1,
            label: "floor GetAllItems", watching: pids.merging(["responder": floor.pid]) { $1 })
        floor.stop()
        let run = try LoadGenerator.run(template, on: benchmark.connection, calls: calls, depth: 1,
                                        label: "broker GetAllItems",
                                        watching: broker.map { pids.merging(["responder": $0]) { $1 } } ?? pids)
        let sample = GetAllItemsSample(
            apps: apps, items: items, latency: LatencySummary(run.latencies),
            floorLatency: LatencySummary(floorRun.latencies),
            replyBytes: MarshalledSize.of(reply),
            cpuMillisecondsPerCall: run.cpu.mapValues { $0 * 1000 / Double(calls) },
            floorCPUMillisecondsPerCall: floorRun.cpu.mapValues { $0 * 1000 / Double(calls) })
        benchmark.progress(String(format: "broker: GetAllItems over %d apps: p50 %.2f ms (the floor, same bytes: %.2f ms)",
                                  apps, sample.latency.p50 / 1000, sample.floorLatency.p50 / 1000))
        return sample
    }

    /// The C floor, answering GetAllItems with the bytes of `reply`.
    private func startListingFloor(reply: Message, apps: Int) throws(BenchError) -> Subject {
        let file = benchmark.work.appendingPathComponent("listing-\(apps).dbus")
        do {
            try Data(reply.marshalled()).write(to: file)
        } catch {
            throw .file(path: file.path, reason: "cannot save the broker's GetAllItems reply: \(error)")
        }
        let name: BusName = "org.quickactions.Bench.FloorListing"
        return try Subject(name: "floor-listing-\(apps)", busName: name,
                           command: [Products.floor.path, benchmark.bus.address, name.rawValue, file.path],
                           directory: benchmark.work, connection: benchmark.connection)
    }
}
