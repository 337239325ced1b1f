import DBus
import Foundation
import Glibc
import QuickActionsAPI

/// Issue 14's launch and memory bars: one broker (plugin host processes, kept warm) with
/// `hostApps` freshly generated apps, half with the C benchmark plugin and half with the
/// Swift SDK one, each its own copy of the library. Each app is performed once: that
/// Perform is a launch (host spawned, plugin loaded and initialised, first reply), timed
/// from the client. Then every app has an idle host: each host's RSS and PSS, and the sum
/// over the broker and all its hosts.
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
        let broker = try benchmark.startBroker(
            plugins: [folder], label: "broker-hosts", extra: ["--host-idle-seconds", "86400"])
        defer { broker.stop() }
        var cLaunches: [Double] = []
        var swiftLaunches: [Double] = []
        // Alternating C and Swift, so drift hits both alike.
        let order = (0..<perKind).flatMap { [$0, perKind + $0] } + Array((2 * perKind)..<apps)
        for index in order {
            let (appID, swift) = kinds[index]
            let template = CallTemplate.perform(
                destination: BrokerBenchmark.busName, appID: appID, type: BundleGenerator.messageType)
            let elapsed = try timedLaunch(template)
            if swift { swiftLaunches.append(elapsed) } else { cLaunches.append(elapsed) }
        }
        // Let the hosts settle (the plugin's queue threads parked, the loop idle).
        usleep(500_000)
        let hosts = ProcessStats.pluginHosts(of: broker.pid)
        guard hosts.count == apps else {
            throw .subject(name: "broker-hosts", reason: "\(hosts.count) plugin hosts run, expected \(apps)")
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
        let total = (cMemory + swiftMemory).reduce(brokerMemory, +)
        return HostResults(
            apps: apps, cLaunch: LaunchSummary(cLaunches), swiftLaunch: LaunchSummary(swiftLaunches),
            cHosts: cMemory, swiftHosts: swiftMemory, broker: brokerMemory, total: total)
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
