import Foundation

/// A private bus on which no broker runs yet, but whose service directory
/// starts `quickactionsd` on the first call to org.quickactions.Broker1 (D-Bus
/// activation), as a desktop session would.
public struct ActivatableBroker: Sendable {
    public let bus: TestBus
    public let pluginDirectory: URL
    public let stateDirectory: URL

    /// Writes `bundles` and the activation file. The Swift runtime's crash
    /// backtracer is turned off in the activated broker, so a crash ends it
    /// at once.
    public init(bundles: [TestBundle]) async throws {
        bus = try await TestBus()
        pluginDirectory = bus.directory.appendingPathComponent("plugins")
        stateDirectory = bus.directory.appendingPathComponent("state")
        try FileManager.default.createDirectory(at: pluginDirectory, withIntermediateDirectories: true)
        for bundle in bundles {
            try bundle.write(into: pluginDirectory)
        }
        let daemon = PackagePaths.executable("quickactionsd").path
        try """
            [D-BUS Service]
            Name=\(BrokerHarness.busName)
            Exec=/usr/bin/env SWIFT_BACKTRACE=enable=no \(daemon) --plugins \(pluginDirectory.path) --state-dir \(stateDirectory.path)
            """.write(to: bus.serviceDirectory.appendingPathComponent("\(BrokerHarness.busName).service"),
                      atomically: true, encoding: .utf8)
    }

    /// `busctl call` on the broker's root object (activating it if needed), JSON output.
    public func call(_ member: String, _ signature: String = "", _ arguments: [String] = []) async throws -> CommandResult {
        try await Command.run("busctl", [
            "--address=\(bus.address)", "--json=short", "call", "--", BrokerHarness.busName, BrokerHarness.rootPath,
            BrokerHarness.interface, member,
        ] + (signature.isEmpty ? [] : [signature] + arguments), timeout: .seconds(60))
    }

    /// Stops the bus; an activated broker loses it and exits.
    public func stop() {
        bus.stop()
    }
}
