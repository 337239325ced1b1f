import DBus
import Foundation
import QuickActionsTestSupport
import Testing

/// User info a plugin may store (ItemLimits: 32 levels) must also be
/// listable: an item that the store accepts but D-Bus cannot carry would
/// break GetItems for its app and GetAllItems for every app, across
/// restarts, since the list is stored.
@Suite(.serialized) struct StoredDepthTests {
    @Test(arguments: [2, 24, 28, 29, 30, 31, 32])
    func itemsStoredAtAnyAllowedDepthCanBeListed(depth: Int) async throws {
        let harness = try await BrokerHarness(bundles: [Apps.churn("org.example.churn1"), Apps.fast("org.example.fast1")])
        defer { harness.stop() }
        let client = try BrokerClient(harness)
        let nested = try await client.perform("org.example.churn1", "nest", BrokerClient.options([
            ("arguments", BrokerClient.options([("depth", .int64(Int64(depth)))])),
        ]))
        #expect(nested.success, "the store accepts user info \(depth) levels deep: \(nested)")
        try await withKnownIssue("Reported to the lead: deep stored user info breaks listing") {
            let items = try await client.items("org.example.churn1")
            #expect(items.last?["type"]?.string == "nested")
            let all = try await client.call("GetAllItems", [BrokerClient.options()])
            #expect(all.first?.array?.count == 2, "GetAllItems lists every app")
        } when: {
            depth > 29
        }
        #expect(try await client.applicationIDs().count == 2)
    }
}
