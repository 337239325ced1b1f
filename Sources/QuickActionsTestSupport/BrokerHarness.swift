import Foundation
import QuickActionsAPI
import Glibc

/// A private bus with a real `quickactionsd` on it, for end-to-end tests.
///
/// The broker reads `pluginDirectory` (and any others given), keeps its state
/// in `stateDirectory`, and is stopped (SIGTERM through its lifeline) with
/// the harness; the bus and the folders go with it.
public final class BrokerHarness: @unchecked Sendable {
    // @unchecked Sendable: `process` is replaced only by restart(), which
    // tests call from one task at a time.

    public static let busName = BrokerAPI.busName.rawValue
    public static let rootPath = BrokerAPI.rootPath.rawValue
    public static let interface = BrokerAPI.interface.rawValue

    public let bus: TestBus
    /// The harness's own folder: plugins, state and the broker's logs.
    public let directory: URL
    public let pluginDirectory: URL
    public let stateDirectory: URL
    public let arguments: [String]
    public private(set) var process: ManagedProcess
    private var generation = 0

    /// Starts the broker; returns once it owns its name.
    public init(
        bundles: [TestBundle] = [], arguments: [String] = [], environment: [String: String] = [:]
    ) async throws {
        bus = try await TestBus()
        directory = try TemporaryDirectory.make(prefix: "qa-broker")
        pluginDirectory = directory.appendingPathComponent("plugins")
        stateDirectory = directory.appendingPathComponent("state")
        try FileManager.default.createDirectory(at: pluginDirectory, withIntermediateDirectories: true)
        for bundle in bundles {
            try bundle.write(into: pluginDirectory)
        }
        self.arguments = ["--address", bus.address, "--plugins", pluginDirectory.path,
                          "--state-dir", stateDirectory.path] + TestPluginHost.arguments(arguments)
        // The desktop-entry bridge is off unless a test asks for it (by naming
        // QUICKACTIONS_DESKTOP_ENTRIES): the other suites test the broker alone.
        var environment = environment
        if environment["QUICKACTIONS_DESKTOP_ENTRIES"] == nil { environment["QUICKACTIONS_DESKTOP_ENTRIES"] = "0" }
        // So are the item providers (the host's installed applications, recent documents and
        // players are not the test's), unless it names QUICKACTIONS_PROVIDERS.
        if environment["QUICKACTIONS_PROVIDERS"] == nil { environment["QUICKACTIONS_PROVIDERS"] = "0" }
        self.environment = environment
        process = try Self.launch(bus: bus, directory: directory, arguments: self.arguments, environment: environment,
                                  generation: 0)
        try await waitForName()
    }

    private let environment: [String: String]

    deinit {
        stop()
    }

    /// Stops the broker and the bus, and removes the folders.
    public func stop() {
        process.stop()
        bus.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Stops the broker (SIGTERM, or SIGKILL with `killing`, as a crash would)
    /// and starts a new one on the same bus and folders.
    public func restart(killing: Bool = false, extraArguments: [String] = []) async throws {
        if killing {
            process.signal(SIGKILL)
            process.waitForExit()
        }
        process.stop()
        generation += 1
        process = try Self.launch(bus: bus, directory: directory, arguments: arguments + extraArguments,
                                  environment: environment, generation: generation)
        try await waitForName()
    }

    /// Waits until some connection owns org.quickactions.Broker1.
    ///
    /// The name is checked once more after the deadline: other tests' blocking
    /// waits (`ManagedProcess.stop()` in a `defer`) can hold both threads of the
    /// cooperative pool for seconds under the sanitizers, and a broker that
    /// took its name meanwhile must not count as one that never did.
    public func waitForName(timeout: Duration = .seconds(20)) async throws {
        let deadline = ContinuousClock.now + timeout
        while true {
            let expired = ContinuousClock.now >= deadline
            let result = try await Command.run("busctl", ["--address=\(bus.address)", "status", Self.busName],
                                               timeout: .seconds(5))
            if result.status == 0 { return }
            if !process.isRunning {
                throw TestSupportError("quickactionsd exited (\(process.exitStatus ?? -1)): \(process.standardError)")
            }
            if expired { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw TestSupportError("quickactionsd did not take its name: \(process.standardError)")
    }

    /// The broker's log so far.
    public var log: String { process.standardError }

    /// Runs busctl against the test bus: `busctl --address=… <arguments>`.
    public func busctl(_ arguments: [String], timeout: Duration = .seconds(30)) async throws -> CommandResult {
        try await Command.run("busctl", ["--address=\(bus.address)"] + arguments, timeout: timeout)
    }

    /// `busctl call` on the broker's root object and interface, JSON output.
    public func call(_ member: String, _ signature: String = "", _ arguments: [String] = [],
                     timeout: Duration = .seconds(30)) async throws -> CommandResult {
        try await busctl(["--json=short", "call", "--", Self.busName, Self.rootPath, Self.interface, member]
                         + (signature.isEmpty ? [] : [signature] + arguments), timeout: timeout)
    }

    private static func launch(
        bus: TestBus, directory: URL, arguments: [String], environment: [String: String], generation: Int
    ) throws -> ManagedProcess {
        try ManagedProcess(
            PackagePaths.executable("quickactionsd").path, arguments, environment: bus.environment(environment),
            directory: directory, name: "quickactionsd-\(generation)")
    }
}
