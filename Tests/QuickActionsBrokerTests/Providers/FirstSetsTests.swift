import Dispatch
import Foundation
import Locking
@testable import QuickActionsBroker
import QuickActionsProviding
import QuickActionsTestSupport
import Testing

/// The broker takes its name once the providers that read locally have their first sets in
/// the catalog, so whoever sees it on the bus first lists every installed application (no
/// empty listing followed by a thousand signals); a provider whose first set never comes holds
/// the name back no longer than the bound, and one that waits on other processes not at all.
@Suite(.serialized) struct FirstSetsTests {
    /// Publishes one app with one item after `delay`, or never when `delay` is nil.
    final class SlowProvider: ItemProvider {
        let name: String
        let readsLocally: Bool
        let delay: Duration?
        let started = Locked(false)

        init(name: String, readsLocally: Bool, delay: Duration?) {
            self.name = name
            self.readsLocally = readsLocally
            self.delay = delay
        }

        func start(publish: @escaping @Sendable ([ProvidedApp]) -> Void) {
            started.withLock { $0 = true }
            guard let delay else { return }
            let app = ProvidedApp(
                appID: "org.example.\(name)", desktopID: "org.example.\(name).desktop", name: LocalizedText(name), icon: nil,
                items: [ProvidedItem(id: "open", type: "open", title: "Open", isStatic: true)])
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(Int(delay.components.seconds * 1000)
                + Int(delay.components.attoseconds / 1_000_000_000_000_000))) { publish([app]) }
        }

        func perform(_ request: ProvidedPerform, completion: @escaping @Sendable (ProvidedOutcome) -> Void) {
            completion(ProvidedOutcome(success: true, message: "opened"))
        }

        func stop() {}
    }

    /// Runs a broker with `providers` on a bus of its own; returns the apps that the first
    /// ListApplications after the name appeared lists, and whether the name appeared in time.
    func firstListing(_ providers: [any ItemProvider]) async throws -> (named: Bool, apps: [String]) {
        let bus = try await TestBus()
        defer { bus.stop() }
        let root = try TemporaryDirectory.make(prefix: "qa-first-sets")
        defer { try? FileManager.default.removeItem(at: root) }
        let plugins = root.appendingPathComponent("plugins")
        try FileManager.default.createDirectory(at: plugins, withIntermediateDirectories: true)
        var configuration = BrokerConfiguration(
            bus: .address(bus.address), pluginDirectories: [plugins], stateDirectory: root.appendingPathComponent("state"))
        configuration.providers = providers
        let broker = try Broker(configuration: configuration)
        defer {
            signal(SIGTERM, SIG_DFL)
            signal(SIGINT, SIG_DFL)
        }
        let running = Task { try await broker.run() }
        defer { broker.close() }
        let named = await eventually(.seconds(20)) {
            (try? await Command.run("busctl", ["--address=\(bus.address)", "status", BrokerHarness.busName],
                                    timeout: .seconds(5)))?.status == 0
        }
        var apps: [String] = []
        if named {
            let reply = try await Command.run("busctl", [
                "--address=\(bus.address)", "--json=short", "call", "--", BrokerHarness.busName,
                BrokerHarness.rootPath, BrokerHarness.interface, "ListApplications",
            ])
            let rows = try #require(try BusctlReply(reply).data.first as? [[Any]], "\(reply)")
            apps = rows.compactMap { $0.first as? String }
        }
        broker.shutDown(status: 0)
        #expect(try await running.value == 0)
        return (named, apps)
    }

    @Test func aLocalProvidersFirstSetIsListedByTheFirstCallerToSeeTheName() async throws {
        let slow = SlowProvider(name: "Slow", readsLocally: true, delay: .milliseconds(300))
        // Waits on other processes, never answering: the broker does not wait for it.
        let remote = SlowProvider(name: "Remote", readsLocally: false, delay: nil)
        let (named, apps) = try await firstListing([slow, remote])
        #expect(named)
        #expect(apps == ["org.example.Slow"], "the first listing after the name appeared")
        #expect(remote.started.withLock { $0 })
    }

    @Test func aLocalProviderThatNeverPublishesHoldsTheNameBackOnlyForTheBound() async throws {
        let silent = SlowProvider(name: "Silent", readsLocally: true, delay: nil)
        let late = SlowProvider(name: "Late", readsLocally: true, delay: .seconds(8))
        let (named, apps) = try await firstListing([silent, late])
        #expect(named, "the broker took its name without the first sets")
        #expect(apps.isEmpty, "what came after the bound is announced later: \(apps)")
    }
}
