import DBus
import QuickActionsAPI
import Foundation
import Glibc
import QuickActionsTestSupport

/// The broker's own measurements besides Perform: listing, start-up, launch
/// against resume, and resident memory. Each broker it starts reads bundles
/// this benchmark generated into its work folder.
struct BrokerBenchmark {
    static let busName: BusName = BrokerAPI.busName

    let options: BenchOptions
    let bus: TestBus
    let connection: Connection
    let work: URL
    /// The dbus-daemon's pid, for its CPU time and bytes.
    let busPID: pid_t?
    let progress: (String) -> Void

    /// The folder holding `count` listing bundles, generated on first use.
    func listingFolder(_ count: Int) throws(BenchError) -> URL {
        let folder = work.appendingPathComponent("bundles-\(count)", isDirectory: true)
        if !FileManager.default.fileExists(atPath: folder.path) {
            try makeFolder(folder)
            try BundleGenerator.writeListingBundles(count: count, into: folder)
        }
        return folder
    }

    /// The folder with the Perform bundles: the C plugin without a message,
    /// the C plugin with one, and the Swift SDK plugin with one.
    func performFolder() throws(BenchError) -> URL {
        let folder = work.appendingPathComponent("perform", isDirectory: true)
        if !FileManager.default.fileExists(atPath: folder.path) {
            try makeFolder(folder)
            try BundleGenerator.writePerformBundle(plugin: Products.plugin, into: folder)
            try BundleGenerator.writePerformBundle(
                appID: BundleGenerator.cMessageAppID, type: BundleGenerator.messageType, plugin: Products.plugin,
                into: folder)
            try BundleGenerator.writePerformBundle(
                appID: BundleGenerator.swiftMessageAppID, type: BundleGenerator.messageType,
                plugin: Products.swiftPlugin, into: folder)
            // The same three in plugin host processes (issue 14).
            try BundleGenerator.writePerformBundle(
                appID: BundleGenerator.hostPerformAppID, plugin: Products.plugin, into: folder)
            try BundleGenerator.writePerformBundle(
                appID: BundleGenerator.hostCMessageAppID, type: BundleGenerator.messageType, plugin: Products.plugin,
                into: folder)
            try BundleGenerator.writePerformBundle(
                appID: BundleGenerator.hostSwiftMessageAppID, type: BundleGenerator.messageType,
                plugin: Products.swiftPlugin, into: folder)
        }
        return folder
    }

    /// The command line of a broker reading `plugins`, with a fresh state folder unless
    /// `keepingState` (a later start over the same bundles, as a user's next login); `extra`
    /// goes at the end (`--in-process APP_ID`, `--host-idle-seconds N`).
    func brokerCommand(plugins: [URL], label: String, extra: [String] = [], keepingState: Bool = false)
        throws(BenchError) -> [String] {
        let state = work.appendingPathComponent("state-\(label)", isDirectory: true)
        if !keepingState || !FileManager.default.fileExists(atPath: state.path) {
            try? FileManager.default.removeItem(at: state)
            try makeFolder(state)
        }
        // The broker alone: the desktop-entry bridge would write the generated apps' entries into
        // the user's ~/.local/share/applications.
        return [Products.broker.path, "--address", bus.address, "--no-desktop-entries"]
            + plugins.flatMap { ["--plugins", $0.path] } + ["--state-dir", state.path] + extra
    }

    var environment: [String: String] {
        // XDG paths inside the work folder, so nothing of the host's is read; a runtime folder
        // of its own, as a desktop session has (without one the broker's host sockets go
        // under /tmp, whose abandoned-folder scan would be measured in the first launch).
        bus.environment([
            "XDG_RUNTIME_DIR": runtimeFolder.path,
            "XDG_DATA_HOME": work.appendingPathComponent("xdg-data").path,
            "XDG_DATA_DIRS": work.appendingPathComponent("xdg-data-dirs").path,
            "XDG_STATE_HOME": work.appendingPathComponent("xdg-state").path,
        ])
    }

    /// The brokers' XDG_RUNTIME_DIR: private to the user (0700), as the spec requires.
    var runtimeFolder: URL {
        let folder = work.appendingPathComponent("xdg-runtime", isDirectory: true)
        if !FileManager.default.fileExists(atPath: folder.path) {
            try? FileManager.default.createDirectory(
                at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        return folder
    }

    /// Starts a broker and waits until it owns its name.
    func startBroker(plugins: [URL], label: String, extra: [String] = [], keepingState: Bool = false)
        throws(BenchError) -> Subject {
        try Subject(name: label, busName: Self.busName,
                    command: brokerCommand(plugins: plugins, label: label, extra: extra, keepingState: keepingState),
                    environment: environment, directory: work, connection: connection)
    }

    func run() throws(BenchError) -> BrokerResults {
        var startup = StartupBenchmark(benchmark: self)
        let (startupSamples, getAll) = try startup.run()
        let most = options.startupBundles.last ?? 0
        let perBundle = most > 0
            ? (startupSamples.last.map(\.medianMilliseconds) ?? 0)
                - (startupSamples.first.map(\.medianMilliseconds) ?? 0)
            : 0

        progress("broker: GetItems, idle memory and \(options.performsForMemory) Performs with \(most) bundles")
        let broker = try startBroker(plugins: [listingFolder(most), performFolder()], label: "broker-memory")
        defer { broker.stop() }  // Also on failure; stopping twice is harmless.
        usleep(500_000)
        let idle = broker.residentBytes ?? 0
        let getItems = try LoadGenerator.run(
            .getItems(destination: Self.busName, appID: BundleGenerator.listingAppID(most / 2)),
            on: connection, calls: options.getItemsCalls, depth: 1, label: "broker GetItems")
        let performs = CallTemplate.perform(
            destination: Self.busName, appID: BundleGenerator.performAppID, type: BundleGenerator.performType)
        _ = try LoadGenerator.run(performs, on: connection, calls: options.performsForMemory, depth: options.depth,
                                  label: "broker Performs for memory")
        usleep(200_000)
        let after = broker.residentBytes ?? 0
        broker.stop()

        let (launch, resume) = try LaunchBenchmark(benchmark: self).run()
        return BrokerResults(
            getItems: LatencySummary(getItems.latencies), getAllItems: getAll, startup: startupSamples,
            startupPerBundleMilliseconds: most > 0 ? perBundle / Double(most) : 0,
            launch: launch, resume: resume, idleBundles: most, idleResidentBytes: idle,
            performsForMemory: options.performsForMemory, residentBytesAfterPerforms: after)
    }

    func makeFolder(_ url: URL) throws(BenchError) {
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o755])
        } catch {
            throw .file(path: url.path, reason: "cannot create the folder: \(error)")
        }
    }
}

extension BrokerBenchmark {
    /// Latches for the broker's name being taken and given up, fed by NameOwnerChanged: what
    /// the start-up scenarios time a broker's start and stop by.
    static func watchBrokerName(
        on connection: Connection
    ) throws(BenchError) -> (acquired: EventLatch, released: EventLatch, subscription: SignalSubscription) {
        let acquired = EventLatch()
        let released = EventLatch()
        let subscription = try waitFor("the bus (NameOwnerChanged)") {
            try await connection.watchNameOwners(arg0: BrokerBenchmark.busName.rawValue) { _, _, newOwner in
                if newOwner.isEmpty { released.record() } else { acquired.record() }
            }
        }
        return (acquired, released, subscription)
    }
}
