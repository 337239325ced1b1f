import DBus
import Foundation
import QuickActionsAPI
import QuickActionsTestSupport
import Testing

/// `qa_request.request_id` (ABI 1.3) and the prepared requests behind it, in both modes: a
/// repeated Perform of the same item hands the plugin the same request again, with the same
/// id, and nothing a plugin keeps by that id can ever be stale: new content is a new id.
@Suite struct RequestIdentityTests {
    static let modes = [TestPluginHost.hostsOnly, ["--plugin-host", "in-process"]]

    static let cApp = TestBundle(
        appID: "org.example.c", library: "QATestCPlugin", name: "C Example",
        items: [TestBundle.item("succeed", "Succeed"), TestBundle.item("request-id", "Request id")])

    /// ItemIdentityTests' Swift plugin bundle, its static item localised in German.
    static let swiftApp = TestBundle(
        appID: ItemIdentityTests.app, library: "QATestSwiftPlugin", name: "Ids",
        items: [TestBundle.item("publish", "Publish"), TestBundle.item("show-static", "Static")],
        strings: ["de": "\"Static\" = \"Statisch\";\n"])

    /// The id the C plugin saw, or nil when its request had none.
    static func requestID(_ proxy: BrokerProxy, arguments: Value? = nil) async throws -> UInt64? {
        let outcome = try await proxy.perform(appID: "org.example.c", type: "request-id", itemID: nil, arguments: arguments)
        let message = try #require(outcome.message)
        try #require(message.hasPrefix("request_id="), "\(message)")
        return UInt64(message.dropFirst("request_id=".count))
    }

    static func arguments(_ n: Int64) -> Value {
        .dictionary(key: .string, value: .variant, [DictionaryEntry(.string("n"), .variant(.int64(n)))])
    }

    @Test("a repeated request keeps its nonzero id; other content gets another", arguments: modes)
    func aRepeatedRequestKeepsItsID(_ mode: [String]) async throws {
        let harness = try await BrokerHarness(bundles: [Self.cApp], arguments: mode)
        let client = try Connection(.address(harness.bus.address))
        defer { client.close() }
        let proxy = BrokerProxy(connection: client)
        // The launch first: it is delivered on its own (a host does not keep it).
        #expect(try await proxy.perform(appID: "org.example.c", type: "succeed", itemID: nil).success)
        let plain = try #require(try await Self.requestID(proxy))
        #expect(plain != 0)
        #expect(try await Self.requestID(proxy) == plain)
        let one = try #require(try await Self.requestID(proxy, arguments: Self.arguments(1)))
        let two = try #require(try await Self.requestID(proxy, arguments: Self.arguments(2)))
        #expect(Set([plain, one, two]).count == 3, "ids \(plain), \(one), \(two)")
        #expect(!([one, two].contains(0)))
        #expect(try await Self.requestID(proxy, arguments: Self.arguments(1)) == one)
        #expect(try await Self.requestID(proxy) == plain)
    }

    @Test("a republished item of the same type and id reaches the plugin with its new title and user info",
          arguments: modes)
    func aRepublishedItemIsNeverStale(_ mode: [String]) async throws {
        let harness = try await BrokerHarness(bundles: [Self.swiftApp], arguments: mode)
        let client = try Connection(.address(harness.bus.address))
        defer { client.close() }
        let proxy = BrokerProxy(connection: client)
        for (title, name) in [("Ada", "Ada"), ("Bob", "Bob"), ("Bob", "Cy"), ("Ada", "Ada")] {
            let published = try await ItemIdentityTests.publish(client, [(type: "show-fav", title: title, id: "fav", name: name)])
            #expect(published.message == "set 1 items")
            // Three times: the first builds the request, the repeats are the kept one.
            for _ in 0..<3 {
                let performed = try await proxy.perform(appID: ItemIdentityTests.app, type: "show-fav", itemID: "fav")
                #expect(performed.message == "performed fav \(title) Name=\(name)")
            }
        }
    }

    @Test("another locale reaches the plugin with its own title, back and forth", arguments: modes)
    func anotherLocaleIsNeverStale(_ mode: [String]) async throws {
        let harness = try await BrokerHarness(bundles: [Self.swiftApp], arguments: mode)
        let client = try Connection(.address(harness.bus.address))
        defer { client.close() }
        let proxy = BrokerProxy(connection: client)
        for locale in ["de", "en", "de", "de", "en", "en", "de"] {
            let performed = try await proxy.perform(
                appID: ItemIdentityTests.app, type: "show-static", itemID: nil, locale: locale)
            #expect(performed.message == "performed show-static \(locale == "de" ? "Statisch" : "Static") ",
                    "locale \(locale)")
        }
    }
}
