import DBus
import QuickActionsAPI
import Foundation

/// The first Perform of an app whose plugin is not loaded yet ("launch":
/// dlopen, init, the launch callback, then perform) against later Performs
/// of the same app ("resume"). Each app has its own copy of the plugin, so
/// every launch maps a library the process has not seen.
struct LaunchBenchmark {
    let benchmark: BrokerBenchmark
    /// Warm Performs per app after its launch.
    var resumesPerApp = 20

    func run() throws(BenchError) -> (launch: LatencySummary, resume: LatencySummary) {
        let apps = benchmark.options.launchApps
        benchmark.progress("broker: launch against resume over \(apps) apps")
        let folder = benchmark.work.appendingPathComponent("launch", isDirectory: true)
        try benchmark.makeFolder(folder)
        for index in 0..<apps {
            try BundleGenerator.writePerformBundle(
                appID: BundleGenerator.launchAppID(index), plugin: Products.plugin, into: folder)
        }
        let broker = try benchmark.startBroker(plugins: [folder], label: "broker-launch")
        defer { broker.stop() }
        var launches: [Double] = []
        var resumes: [Double] = []
        for index in 0..<apps {
            let template = CallTemplate.perform(
                destination: BrokerBenchmark.busName, appID: BundleGenerator.launchAppID(index),
                type: BundleGenerator.performType)
            launches.append(try timedPerform(template, expecting: BrokerAPI.Activation.launch))
            for _ in 0..<resumesPerApp {
                resumes.append(try timedPerform(template, expecting: BrokerAPI.Activation.resume))
            }
        }
        return (LatencySummary(launches), LatencySummary(resumes))
    }

    /// One Perform's latency in microseconds, checked for success and its activation.
    private func timedPerform(_ template: CallTemplate, expecting activation: String) throws(BenchError) -> Double {
        let start = monotonicNanoseconds()
        let reply = try benchmark.connection.blockingCall(template, label: "broker Perform")
        let elapsed = Double(monotonicNanoseconds() - start) / 1000
        let app = template.arguments.first?.string ?? "?"
        guard reply.count == 2, reply[0].bool == true else {
            throw .calls(subject: "broker Perform", reason: "Perform of \(app) did not succeed: \(reply)")
        }
        let got = reply[1].dictionary?[.string(BrokerAPI.ResultKey.activation)]?.string
        guard got == activation else {
            throw .calls(subject: "broker Perform",
                         reason: "Perform of \(app) reported activation \(got ?? "none"), expected \(activation)")
        }
        return elapsed
    }
}
