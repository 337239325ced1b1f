import CQuickActionsPlugin
import Foundation
import QuickActionsABI
import QuickActionsModel
import Testing

@testable import QuickActionsHost

/// A plugin built for a newer minor of this major loads: its larger descriptor and items are
/// read only as far as this host's fields (their poisoned tails are never touched), and it
/// learns the host's own version and limits from the host table.
@Suite struct VersionNegotiationTests {
    @Test func aPluginOfANewerMinorLoadsAndItsDescriptorIsReadAsFarAsThisHostKnows() throws {
        let bundle = try TestBundle(plugin: TestPlugins.abiNewerMinor)
        defer { bundle.remove() }
        let recorder = Recorder()
        let plugin = try load(bundle, recorder: recorder)
        #expect(plugin.abiVersion == PluginABIVersion(major: 1, minor: 9))
        #expect(plugin.name == "ABINewerMinor")
        #expect(recorder.pluginLogs(containing: "abi-newer-minor: init").count == 1)
        let note = "(ABINewerMinor, ABI 1.9); this host serves ABI \(PluginABIVersion.current): fields and functions"
        #expect(recorder.loaderLogs(containing: note).count == 1, "\(recorder.logs)")
    }

    @Test func theNewerMinorsItemsAreReadWithoutTheirPoisonedTails() async throws {
        let bundle = try TestBundle(plugin: TestPlugins.abiNewerMinor)
        defer { bundle.remove() }
        let recorder = Recorder()
        let plugin = try load(bundle, recorder: recorder)
        #expect(await outcome(of: plugin, request("publish")) == PerformOutcome(success: true, message: "published"))
        #expect(recorder.lists == [[
            ShortcutItem(type: "future", title: "Ada", subtitle: "first", userInfo: ["n": .int(1)], id: "future-ada"),
            ShortcutItem(type: "future", title: "Bob", icon: .symbol("star")),
        ]])
    }

    @Test func theHostTableTellsTheHostsVersionAndTheLimitsItEnforces() async throws {
        let bundle = try TestBundle(plugin: TestPlugins.abiNewerMinor)
        defer { bundle.remove() }
        let plugin = try load(bundle, recorder: Recorder())
        let report = await outcome(of: plugin, request("report"))
        #expect(report == PerformOutcome(success: true, message: Self.expectedReport))
    }

    /// What the newer-minor plugin reports: this host's version, table and item sizes, and
    /// the limits of ItemLimits and ABIBounds that the broker and the decoder enforce.
    static var expectedReport: String {
        let bounds = ABIBounds()
        return "host \(PluginABIVersion.current) table=\(MemoryLayout<qa_host>.size) item=\(MemoryLayout<qa_item>.size)"
            + " limits items=\(ItemLimits.maximumItems) type=\(ItemLimits.maximumTypeBytes)"
            + " id=\(ItemLimits.maximumIDBytes) title=\(ItemLimits.maximumTitleBytes)"
            + " subtitle=\(ItemLimits.maximumSubtitleBytes) icon=\(ItemLimits.maximumIconBytes)"
            + " user-info-bytes=\(ItemLimits.maximumUserInfoBytes) depth=\(ItemLimits.maximumUserInfoDepth)"
            + " call-depth=\(bounds.maxDepth) call-values=\(bounds.maxValues)"
            + " call-payload=\(bounds.maxPayloadBytes) call-items=\(bounds.maxItems)"
    }

    struct DescriptorCase: Sendable, CustomStringConvertible {
        var size: Int
        var minor: UInt32
        var accepted: Bool
        var description: String { "struct_size \(size), minor \(minor)" }
    }

    /// A descriptor laid out in memory by hand: `size` bytes of a 1.x qa_plugin, then poison.
    @Test(arguments: [
        DescriptorCase(size: PluginDescriptor.sizeOfABI10, minor: 0, accepted: true),
        DescriptorCase(size: PluginDescriptor.sizeOfABI10 + 64, minor: 9, accepted: true),
        DescriptorCase(size: PluginDescriptor.sizeOfABI10 - 8, minor: 2, accepted: false),
        DescriptorCase(size: 17, minor: 2, accepted: false),
        DescriptorCase(size: 8, minor: 2, accepted: false),
        // struct_size SIZE_MAX: larger than anything known, read as far as known.
        DescriptorCase(size: -1, minor: 9, accepted: true),
    ])
    func aDescriptorIsReadUpToItsSizeAndOneSmallerThanABI10sIsRefusedNamingTheValue(_ test: DescriptorCase) throws {
        let capacity = PluginDescriptor.sizeOfABI10 + 64
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
        defer { buffer.deallocate() }
        buffer.initializeMemory(as: UInt8.self, repeating: 0xA5, count: capacity)
        var plugin = qa_plugin()
        plugin.struct_size = test.size
        plugin.abi_major = 1
        plugin.abi_minor = test.minor
        plugin.`init` = { _, _, _, _, _ in QA_STATUS_OK }
        withUnsafeBytes(of: plugin) { bytes in
            buffer.copyMemory(from: bytes.baseAddress!, byteCount: test.size < 0 ? bytes.count : min(test.size, bytes.count))
        }
        let pointer = UnsafePointer(buffer.assumingMemoryBound(to: qa_plugin.self))
        if test.accepted {
            let descriptor = try PluginDescriptor(reading: pointer, library: "/b/lib.so")
            #expect(descriptor.version == PluginABIVersion(major: 1, minor: test.minor))
            #expect(descriptor.name == nil && descriptor.launch == nil && descriptor.perform == nil)
        } else {
            let error = try #require(throws: PluginLoadError.self) {
                try PluginDescriptor(reading: pointer, library: "/b/lib.so")
            }
            guard case .invalidDescriptor(_, let reason) = error else {
                Issue.record("expected invalidDescriptor, got \(error)")
                return
            }
            #expect(reason.hasPrefix("struct_size \(test.size) is "), "\(reason)")
        }
    }
}
