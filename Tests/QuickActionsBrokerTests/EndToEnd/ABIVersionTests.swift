import DBus
import Foundation
import QuickActionsAPI
import QuickActionsModel
import QuickActionsTestSupport
import Testing

/// ABI version negotiation through a real broker, in both places a plugin runs (its own
/// quickactions-host process, the default, and inside the broker): a plugin built for a newer
/// minor loads and its larger structs are read as far as the host knows; another major is
/// refused naming its version; the limits the host table gives are the ones enforced.
@Suite struct ABIVersionTests {
    static let app = "org.example.future"
    static let bundle = TestBundle(
        appID: app, library: "QATestABINewerMinor", name: "Future",
        items: [TestBundle.item("publish", "Publish"), TestBundle.item("report", "Report"),
                TestBundle.item("probe", "Probe")])
    static let swiftApp = TestBundle(
        appID: "org.example.limits", library: "QATestSwiftPlugin", name: "Limits",
        items: [TestBundle.item("host-limits", "Limits")])
    static let major2 = TestBundle(
        appID: "org.example.major2", library: "QATestABIMajor2", name: "Major 2",
        items: [TestBundle.item("hello", "Never loads")])

    /// The broker's arguments for each place a plugin runs.
    static let hostModes: [[String]] = [[], ["--plugin-host", "in-process"]]

    @Test(arguments: hostModes)
    func aPluginOfANewerMinorLoadsAndItsLargerItemsAreListedWithoutTheirTails(_ mode: [String]) async throws {
        let harness = try await BrokerHarness(bundles: [Self.bundle], arguments: mode)
        let client = try Connection(.address(harness.bus.address))
        defer { client.close() }
        let proxy = BrokerProxy(connection: client)
        #expect(try await proxy.perform(appID: Self.app, type: "publish", itemID: nil).message == "published")
        let dynamic = try await proxy.items(of: Self.app).filter { $0.origin == "dynamic" }
        #expect(dynamic.map(\.type) == ["future", "future"])
        #expect(dynamic.map(\.title) == ["Ada", "Bob"])
        #expect(dynamic.map(\.subtitle) == ["first", nil])
        #expect(dynamic.first?.id == "future-ada")
        #expect(dynamic.first?.userInfo == .dictionary(key: .string, value: .variant, [
            DictionaryEntry(.string("n"), .variant(.int64(1))),
        ]))
        #expect(dynamic.last?.icon == "non-starred", "the symbol \"star\" as its freedesktop icon name")
        let bob = try #require(dynamic.last)
        let performed = try await proxy.perform(appID: Self.app, type: "future", itemID: bob.id)
        #expect(performed.message == "performed Bob \(bob.id)")
        #expect(harness.log.contains("(ABINewerMinor, ABI 1.9); this host serves ABI 1.3"), "\(harness.log)")
    }

    @Test(arguments: hostModes)
    func theHostTableGivesTheHostsVersionAndTheBrokersLimits(_ mode: [String]) async throws {
        let harness = try await BrokerHarness(bundles: [Self.bundle, Self.swiftApp], arguments: mode)
        let client = try Connection(.address(harness.bus.address))
        defer { client.close() }
        let proxy = BrokerProxy(connection: client)
        let report = try #require(try await proxy.perform(appID: Self.app, type: "report", itemID: nil).message)
        #expect(report.hasPrefix("host 1.3 table="), "\(report)")
        #expect(report.hasSuffix(" limits items=\(ItemLimits.maximumItems) type=\(ItemLimits.maximumTypeBytes)"
            + " id=\(ItemLimits.maximumIDBytes) title=\(ItemLimits.maximumTitleBytes)"
            + " subtitle=\(ItemLimits.maximumSubtitleBytes) icon=\(ItemLimits.maximumIconBytes)"
            + " user-info-bytes=\(ItemLimits.maximumUserInfoBytes) depth=\(ItemLimits.maximumUserInfoDepth)"
            + " call-depth=64 call-values=100000 call-payload=16777216 call-items=4096"), "\(report)")
        // The SDK reads the same table.
        let sdk = try await proxy.perform(appID: "org.example.limits", type: "host-limits", itemID: nil)
        #expect(sdk.message == "host 1.3 limits " + [
            ItemLimits.maximumItems, ItemLimits.maximumTypeBytes, ItemLimits.maximumIDBytes,
            ItemLimits.maximumTitleBytes, ItemLimits.maximumSubtitleBytes, ItemLimits.maximumIconBytes,
            ItemLimits.maximumUserInfoBytes, ItemLimits.maximumUserInfoDepth,
        ].map(String.init).joined(separator: " "))
    }

    /// The plugin tries each limit the table gives at the limit and one past it: the broker
    /// takes the first (status 0) and rejects the second (QA_STATUS_REJECTED, 2), so the
    /// figures the plugin reads are exactly those enforced.
    @Test(arguments: hostModes)
    func theLimitsInTheHostTableAreTheOnesTheBrokerEnforces(_ mode: [String]) async throws {
        let harness = try await BrokerHarness(bundles: [Self.bundle], arguments: mode)
        let client = try Connection(.address(harness.bus.address))
        defer { client.close() }
        // About 40 item sets, the largest thousands of items stored each time: a second or two
        // in a plain build, but more than a minute in the ASan lane of a loaded CI machine.
        let probe = try await BrokerProxy(connection: client).perform(
            appID: Self.app, type: "probe", itemID: nil, timeoutMilliseconds: 240_000)
        #expect(probe.success, "\(probe)")
        let items = ItemLimits.maximumItems, title = ItemLimits.maximumTitleBytes, depth = ItemLimits.maximumUserInfoDepth
        let prefix = "items \(items):0 \(items + 1):2 title \(title):0 \(title + 1):2 depth \(depth):0 \(depth + 1):2 "
            + "user-info-bytes "
        let message = probe.message ?? ""
        #expect(message.hasPrefix(prefix), "\(message)")
        // The largest byte string the broker took fits the user-info limit, one byte more does not.
        let largest = try #require(Int(message.dropFirst(prefix.count)), "\(message)")
        func item(_ length: Int) -> ShortcutItem {
            ShortcutItem(type: "t", title: "T", userInfo: ["b": .bytes([UInt8](repeating: 7, count: length))])
        }
        #expect(throws: Never.self) { try ItemLimits.validate(item(largest), index: 0) }
        #expect(throws: ItemLimitError.self) { try ItemLimits.validate(item(largest + 1), index: 0) }
    }

    @Test(arguments: hostModes)
    func aPluginOfAnotherMajorIsRefusedNamingItsVersion(_ mode: [String]) async throws {
        let harness = try await BrokerHarness(bundles: [Self.major2], arguments: mode)
        let client = try Connection(.address(harness.bus.address))
        defer { client.close() }
        do {
            let outcome = try await BrokerProxy(connection: client).perform(
                appID: "org.example.major2", type: "hello", itemID: nil)
            Issue.record("a plugin of ABI 2.0 performed: \(outcome)")
        } catch {
            #expect(error.name == "org.quickactions.Error.PluginFailed")
            #expect(error.message.contains("ABI mismatch: plugin built for 2.0, host serves ABI 1.x (itself 1.3)"),
                    "\(error.message)")
        }
        #expect(!harness.log.contains("init ran although"), "\(harness.log)")
    }
}
