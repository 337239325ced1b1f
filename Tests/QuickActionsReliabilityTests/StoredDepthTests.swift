import DBus
import Foundation
import QuickActionsModel
import QuickActionsTestSupport
import Testing

/// User info a plugin may store must also be listable: an item that the
/// store accepts but D-Bus cannot carry would break GetItems for its app and
/// GetAllItems for every app, across restarts, since the list is stored.
/// One level more than the limit is refused when the plugin sets it.
@Suite(.serialized) struct StoredDepthTests {
    static let limit = ItemLimits.maximumUserInfoDepth

    @Test(arguments: [2, limit - 1, limit, limit + 1])
    func itemsStoredAtAnyAllowedDepthCanBeListed(depth: Int) async throws {
        let harness = try await BrokerHarness(bundles: [Apps.churn("org.example.churn1"), Apps.fast("org.example.fast1")])
        defer { harness.stop() }
        let client = try BrokerClient(harness)
        let nested = try await client.perform("org.example.churn1", "nest", BrokerClient.options([
            ("arguments", BrokerClient.options([("depth", .int64(Int64(depth)))])),
        ]))
        guard depth <= Self.limit else {
            #expect(!nested.success)
            #expect(nested.result["message"]?.string?.contains("more than \(Self.limit)") == true, "\(nested)")
            #expect(try await client.items("org.example.churn1").allSatisfy { $0["origin"]?.string == "static" })
            return
        }
        #expect(nested.success, "the store accepts user info \(depth) levels deep: \(nested)")
        let items = try await client.items("org.example.churn1")
        #expect(items.last?["type"]?.string == "nested")
        let all = try await client.call("GetAllItems", [BrokerClient.options()])
        #expect(all.first?.array?.count == 2, "GetAllItems lists every app")
        let property = try await client.connection.call(
            destination: BrokerClient.broker, path: "/org/quickactions/Broker1/apps/org_2eexample_2echurn1",
            interface: "org.freedesktop.DBus.Properties", member: "Get",
            [.string("org.quickactions.Application1"), .string("Items")])
        #expect(property.first?.unwrappedVariant.array?.count == 3)
        let managed = try await client.connection.call(
            destination: BrokerClient.broker, path: BrokerClient.root,
            interface: "org.freedesktop.DBus.ObjectManager", member: "GetManagedObjects")
        #expect(managed.first?.dictionary?.count == 2)
    }
}
