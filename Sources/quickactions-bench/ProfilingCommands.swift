import Locking
import DBus
import QuickActionsAPI
import Dispatch
import Foundation
import Glibc
import QuickActionsBroker
import QuickActionsDesktopEntries

/// The pieces of a run, on their own, for profiling a responder started by
/// hand (under `valgrind --tool=callgrind`, say).
enum ProfilingCommands {
    /// `drive ADDRESS NAME CALLS DEPTH [Perform|GetItems|GetAllItems]`: calls
    /// with DEPTH in flight, then one line of results on stdout.
    static func drive(_ arguments: [String]) throws(BenchError) {
        guard arguments.count == 4 || arguments.count == 5, let calls = Int(arguments[2]), calls > 0,
              let depth = Int(arguments[3]), depth > 0 else {
            throw .usage("drive needs ADDRESS NAME CALLS DEPTH [METHOD], got \"\(arguments.joined(separator: " "))\"")
        }
        let name: BusName
        do {
            name = try BusName(arguments[1])
        } catch {
            throw .usage("drive: \"\(arguments[1])\" is not a bus name: \(error)")
        }
        let template: CallTemplate
        switch arguments.count == 5 ? arguments[4] : BrokerAPI.Member.perform.rawValue {
        case BrokerAPI.Member.perform.rawValue:
            template = .perform(destination: name, appID: BundleGenerator.performAppID, type: BundleGenerator.performType)
        case "PerformCMessage":
            template = .perform(destination: name, appID: BundleGenerator.cMessageAppID, type: BundleGenerator.messageType)
        case "PerformSwiftMessage":
            template = .perform(
                destination: name, appID: BundleGenerator.swiftMessageAppID, type: BundleGenerator.messageType)
        case BrokerAPI.Member.getItems.rawValue:
            template = .getItems(destination: name, appID: BundleGenerator.listingAppID(0))
        case BrokerAPI.Member.getAllItems.rawValue:
            template = .getAllItems(destination: name)
        case let other:
            throw .usage("drive: unknown method \"\(other)\" "
                + "(Perform, PerformCMessage, PerformSwiftMessage, GetItems or GetAllItems)")
        }
        let connection: Connection
        do {
            connection = try Connection(.address(arguments[0]))
        } catch {
            throw .subject(name: "the bus at \(arguments[0])", reason: "\(error)")
        }
        defer { connection.close() }
        let run = try LoadGenerator.run(template, on: connection, calls: calls, depth: depth, label: name.rawValue,
                                        timeout: .seconds(600))
        let summary = RunSummary(run)
        print(String(format: "%d %@ calls, depth %d: %.0f calls/s, p50 %.0f µs, p99 %.0f µs",
                     calls, template.member.rawValue, depth, summary.callsPerSecond, summary.p50, summary.p99))
    }

    /// `make-bundles DIR COUNT`: COUNT listing bundles and the Perform bundle
    /// (with the benchmark plugin beside this executable) in DIR.
    static func makeBundles(_ arguments: [String]) throws(BenchError) {
        guard arguments.count == 2, let count = Int(arguments[1]), count >= 0 else {
            throw .usage("make-bundles needs DIR COUNT, got \"\(arguments.joined(separator: " "))\"")
        }
        let folder = URL(fileURLWithPath: arguments[0], isDirectory: true)
        try Products.require(Products.plugin)
        try Products.require(Products.swiftPlugin)
        try BundleGenerator.writeListingBundles(count: count, into: folder)
        try BundleGenerator.writePerformBundle(plugin: Products.plugin, into: folder)
        try BundleGenerator.writePerformBundle(
            appID: BundleGenerator.cMessageAppID, type: BundleGenerator.messageType, plugin: Products.plugin,
            into: folder)
        try BundleGenerator.writePerformBundle(
            appID: BundleGenerator.swiftMessageAppID, type: BundleGenerator.messageType,
            plugin: Products.swiftPlugin, into: folder)
    }

    /// `make-entries DATA_DIR COUNT`: the desktop entries the provider benchmarks install
    /// (issue 33 §6), in DATA_DIR/applications, for an XDG_DATA_DIRS of DATA_DIR.
    static func makeEntries(_ arguments: [String]) throws(BenchError) {
        guard arguments.count == 2, let count = Int(arguments[1]), count >= 0 else {
            throw .usage("make-entries needs DATA_DIR COUNT, got \"\(arguments.joined(separator: " "))\"")
        }
        try InstalledEntriesGenerator.write(count: count, into: URL(fileURLWithPath: arguments[0], isDirectory: true))
    }

    /// `read-applications DATA_DIR [TIMES]`: reads the installed applications of an
    /// XDG_DATA_DIRS of DATA_DIR (and an empty XDG_DATA_HOME) as quickactionsd's index does
    /// at start-up, TIMES times (default 1), unwatched, each index kept; prints the count, the
    /// time and the growth of resident memory of each.
    static func readApplications(_ arguments: [String]) throws(BenchError) {
        guard arguments.count == 1 || arguments.count == 2, let times = Int(arguments.count == 2 ? arguments[1] : "1"),
              times > 0 else {
            throw .usage("read-applications needs DATA_DIR [TIMES], got \"\(arguments.joined(separator: " "))\"")
        }
        let environment = ["XDG_DATA_DIRS": arguments[0], "XDG_DATA_HOME": "/nonexistent/qa-bench-data-home",
                           "HOME": "/nonexistent/qa-bench-home"]
        var kept: [InstalledApplicationIndex] = []
        for _ in 0..<times {
            let before = ProcessStats.residentBytes(getpid()) ?? 0
            let start = monotonicNanoseconds()
            let index = InstalledApplicationIndex(environment: environment, log: { _ in }, watching: false)
            let count = index.applications.count
            let elapsed = Double(monotonicNanoseconds() - start) / 1e6
            let grown = ((ProcessStats.residentBytes(getpid()) ?? 0) - before) / 1_048_576
            print(String(format: "%d applications in %.1f ms; resident memory +%.1f MiB", count, elapsed, grown))
            kept.append(index)  // Each index held, so the growth is what one keeps.
        }
    }

    /// `host-broker ADDRESS STATE_DIR PLUGIN_DIR...`: the real broker
    /// (QuickActionsBroker, as quickactionsd runs it) in this process, with the
    /// main thread parked on a semaphore. quickactionsd's top-level `await`
    /// hands its main thread to dispatch_main, which valgrind 3.19 cannot
    /// follow (it dies with an internal SIGSEGV), so callgrind profiles the
    /// broker through this host instead. Ends on SIGTERM like quickactionsd.
    /// `--plugin-host in-process` first runs every plugin inside it, as
    /// quickactionsd's option of that name does (the default: host processes).
    static func hostBroker(_ arguments: [String]) throws(BenchError) -> Never {
        var arguments = arguments
        var mode = PluginHostMode.process
        if arguments.first == "--plugin-host" {
            guard arguments.count >= 2, let chosen = PluginHostMode(rawValue: arguments[1]) else {
                throw .usage("host-broker --plugin-host takes process or in-process")
            }
            mode = chosen
            arguments.removeFirst(2)
        }
        guard arguments.count >= 3 else {
            throw .usage("host-broker needs [--plugin-host MODE] ADDRESS STATE_DIR PLUGIN_DIR..., "
                + "got \"\(arguments.joined(separator: " "))\"")
        }
        var configuration = BrokerConfiguration(
            bus: .address(arguments[0]), pluginDirectories: arguments.dropFirst(2).map { URL(fileURLWithPath: $0) },
            stateDirectory: URL(fileURLWithPath: arguments[1], isDirectory: true))
        configuration.pluginHost = mode
        let broker: Broker
        do {
            broker = try Broker(configuration: configuration)
        } catch {
            throw .subject(name: "host-broker", reason: "cannot start: \(error)")
        }
        let done = DispatchSemaphore(value: 0)
        let status = Locked<Int32>(1)
        Task {
            do {
                let code = try await broker.run()
                status.withLock { $0 = code }
            } catch {
                FileHandle.standardError.write(Data("host-broker: \(error)\n".utf8))
            }
            done.signal()
        }
        done.wait()
        exit(status.withLock { $0 })
    }
}
