import DBus
import Foundation
import Glibc
import QuickActionsAPI

/// Issue 14's launch and memory bars: one broker (plugin host processes, kept warm) with
/// `hostApps` freshly generated apps, half with the C benchmark plugin and half with the
/// Swift SDK one, each its own copy of the library. Each app is performed once: that
/// Perform is a launch (host spawned, plugin loaded and initialised, first reply), timed
/// from the client. Then every app has an idle host: each host's RSS and PSS, and the sum
/// over the broker and all its hosts. Further brokers over the same bundles repeat the
/// launches until each kind has `launches` (issue 35: the tail over 1,000 launches).
struct HostBenchmark {
    let benchmark: BrokerBenchmark

    func run() throws(BenchError) -> HostResults {
        let apps = benchmark.options.hostApps
        let perKind = apps / 2
        benchmark.progress("hosts: \(apps) apps (\(perKind) C, \(apps - perKind) Swift SDK), each launched once")
        let folder = benchmark.work.appendingPathComponent("host-launch", isDirectory: true)
        try benchmark.makeFolder(folder)
        var kinds: [(appID: String, swift: Bool)] = []
        for index in 0..<apps {
            let swift = index >= perKind
            let appID = swift
                ? BundleGenerator.swiftLaunchAppID(index - perKind) : BundleGenerator.launchAppID(index)
            try BundleGenerator.writePerformBundle(
                appID: appID, type: BundleGenerator.messageType,
                plugin: swift ? Products.swiftPlugin : Products.plugin, into: folder)
            kinds.append((appID, swift))
        }
        // Each batch is a fresh broker over the same bundles, so every app's first Perform
        // in it is a launch again: enough batches for `launches` of each plugin kind. The
        // memory is read in the first batch, with every host idle. Later batches keep the
        // state folder, as a user's next login does (the first writes every app's record).
        let batches = max(1, (benchmark.options.launches + max(perKind, 1) - 1) / max(perKind, 1))
        var cLaunches: [Double] = []
        var swiftLaunches: [Double] = []
        var memory: (c: [MemoryUse], swift: [MemoryUse], broker: MemoryUse)?
        for batch in 0..<batches {
            if batch > 0 && batch % 5 == 0 {
                benchmark.progress("hosts: batch \(batch + 1) of \(batches)")
            }
            let broker = try benchmark.startBroker(
                plugins: [folder], label: "broker-hosts", extra: ["--host-idle-seconds", "86400"],
                keepingState: batch > 0)
            defer { broker.stop() }
            // Alternating C and Swift, so drift hits both alike.
            let order = (0..<perKind).flatMap { [$0, perKind + $0] } + Array((2 * perKind)..<apps)
            for index in order {
                let (appID, swift) = kinds[index]
                let template = CallTemplate.perform(
                    destination: BrokerBenchmark.busName, appID: appID, type: BundleGenerator.messageType)
                let elapsed = try timedLaunch(template)
                if swift { swiftLaunches.append(elapsed) } else { cLaunches.append(elapsed) }
            }
            if memory == nil { memory = try idleMemory(broker: broker, kinds: kinds) }
        }
        guard let memory else { throw .subject(name: "broker-hosts", reason: "no batch ran") }
        let total = (memory.c + memory.swift).reduce(memory.broker, +)
        return HostResults(
            apps: apps, batches: batches, cLaunch: LaunchSummary(cLaunches), swiftLaunch: LaunchSummary(swiftLaunches),
            cHosts: memory.c, swiftHosts: memory.swift, broker: memory.broker, total: total)
    }

    /// Every host's memory and the broker's, once the hosts have settled.
    private func idleMemory(broker: Subject, kinds: [(appID: String, swift: Bool)])
        throws(BenchError) -> (c: [MemoryUse], swift: [MemoryUse], broker: MemoryUse) {
        // Let the hosts settle (the plugin's queue threads parked, the loop idle).
        usleep(500_000)
        let hosts = ProcessStats.pluginHosts(of: broker.pid)
        guard hosts.count == kinds.count else {
            throw .subject(name: "broker-hosts", reason: "\(hosts.count) plugin hosts run, expected \(kinds.count)")
        }
        var cMemory: [MemoryUse] = []
        var swiftMemory: [MemoryUse] = []
        for (appID, swift) in kinds {
            guard let pid = hosts[appID], let use = ProcessStats.memory(pid) else {
                throw .subject(name: "broker-hosts", reason: "cannot read the memory of \(appID)'s plugin host")
            }
            if swift { swiftMemory.append(use) } else { cMemory.append(use) }
        }
        guard let brokerMemory = ProcessStats.memory(broker.pid) else {
            throw .subject(name: "broker-hosts", reason: "cannot read the broker's memory")
        }
        return (cMemory, swiftMemory, brokerMemory)
    }

    /// The first Perform of an app, in microseconds; it must succeed and report "launch".
    private func timedLaunch(_ template: CallTemplate) throws(BenchError) -> Double {
        let start = monotonicNanoseconds()
        let reply = try benchmark.connection.blockingCall(template, label: "broker-hosts Perform")
        let elapsed = Double(monotonicNanoseconds() - start) / 1000
        let app = template.arguments.first?.string ?? "?"
        guard reply.count == 2, reply[0].bool == true else {
            throw .calls(subject: "broker-hosts Perform", reason: "Perform of \(app) did not succeed: \(reply)")
        }
        let got = reply[1].dictionary?[.string(BrokerAPI.ResultKey.activation)]?.string
        guard got == BrokerAPI.Activation.launch else {
            throw .calls(subject: "broker-hosts Perform",
                         reason: "Perform of \(app) reported activation \(got ?? "none"), expected launch")
        }
        return elapsed
    }
}
