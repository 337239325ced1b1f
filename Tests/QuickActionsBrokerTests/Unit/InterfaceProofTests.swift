import DBus
import Foundation
@testable import QuickActionsBroker
import QuickActionsTestSupport
import Testing

/// For every method the broker exports, its introspection (as GDBus reads
/// it), its declared signature and what its handler decodes are one
/// (InterfaceProof). A `[Value]` handler would fail this: it re-matches its
/// arguments by hand.
@Suite struct BrokerInterfaceProofTests {
    @Test func everyBrokerMethodIsTypedAndAgreesWithItsIntrospection() async throws {
        let bus = try await TestBus()
        defer { bus.stop() }
        let state = try TemporaryDirectory.make(prefix: "qa-proof")
        defer { try? FileManager.default.removeItem(at: state) }
        let broker = try Broker(configuration: BrokerConfiguration(
            bus: .address(bus.address), pluginDirectories: [], stateDirectory: state, watchDirectories: false))
        for interface in [broker.rootInterface(), broker.applicationInterface()] {
            #expect(!interface.methods.isEmpty)
            let problems = try await InterfaceProof.problems(interface, bus: bus)
            #expect(problems == [], "\(interface.name.rawValue)")
        }
    }
}
