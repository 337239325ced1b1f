import DBus
import Foundation
import Glibc
import QuickActionsTestSupport
import Testing

/// Issue 7 item 9, seen from the bus: a plugin file the loader refuses
/// gives PluginFailed naming the file and the reason, and none of its code
/// runs: its init never logs, its library is never mapped into the broker.
/// (QuickActionsHostTests/SecurityTests checks the loader itself, including
/// the swap between check and load.)
@Suite(.serialized) struct PluginRefusalTests {
    struct Refusal: Sendable, CustomStringConvertible {
        var description: String
        var bundle: TestBundle
        /// Breaks the written bundle; returns the path the reason must name.
        var prepare: @Sendable (_ bundle: URL, _ library: URL) throws -> String
        var reason: String
        /// What the plugin's init logs if it runs.
        var initLogs: String
        /// Whether fixing the modes makes it load (a positive control for the checks).
        var fixable = true
        /// Whether the file gets mapped: an ABI mismatch can only be seen by
        /// loading the library and calling its entry symbol (which must be
        /// free of side effects); init is what must not run. A library
        /// linked by swiftc (every SwiftPM product, C ones too) then stays
        /// mapped, as the loader never unloads what registered with the
        /// Swift runtime.
        var mapped = false
    }

    static func chmod(_ url: URL, _ mode: Int) throws {
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: url.path)
    }

    static let refusals: [Refusal] = [
        Refusal(description: "group-writable library", bundle: Apps.c,
                prepare: { try chmod($1, 0o775); return $1.path }, reason: "group-writable (mode 0775)",
                initLogs: "c-plugin: init"),
        Refusal(description: "world-writable library", bundle: Apps.c,
                prepare: { try chmod($1, 0o757); return $1.path }, reason: "world-writable (mode 0757)",
                initLogs: "c-plugin: init"),
        Refusal(description: "group-writable bundle folder", bundle: Apps.c,
                prepare: { bundle, _ in try chmod(bundle, 0o775); return bundle.path }, reason: "group-writable (mode 0775)",
                initLogs: "c-plugin: init"),
        Refusal(description: "world-writable bundle folder", bundle: Apps.c,
                prepare: { bundle, _ in try chmod(bundle, 0o777); return bundle.path }, reason: "world-writable (mode 0777)",
                initLogs: "c-plugin: init"),
        Refusal(description: "library is a symlink", bundle: Apps.c, prepare: { bundle, library in
            let real = bundle.appendingPathComponent("real.so")
            try FileManager.default.moveItem(at: library, to: real)
            try FileManager.default.createSymbolicLink(at: library, withDestinationURL: real)
            return library.path
        }, reason: "is a symlink", initLogs: "c-plugin: init", fixable: false),
        // Issue 13: nothing put where the library belongs can make a load wait.
        Refusal(description: "library is a FIFO", bundle: Apps.c, prepare: { _, library in
            try FileManager.default.removeItem(at: library)
            guard mkfifo(library.path, 0o644) == 0 else { throw TestSupportError("mkfifo \(library.path) failed") }
            return library.path
        }, reason: "is not a regular file but a FIFO", initLogs: "c-plugin: init", fixable: false),
        Refusal(description: "ABI major version 2",
                bundle: TestBundle(appID: "org.example.c", library: "QATestABIMajor2", name: "Future",
                                   items: [TestBundle.item("succeed", "Succeed")]),
                prepare: { $1.path }, reason: "ABI mismatch: plugin built for 2.0",
                initLogs: "abi-major2: init ran", fixable: false, mapped: true),
    ]

    @Test(arguments: refusals)
    func aRefusedPluginGivesPluginFailedNamingWhyAndNoneOfItsCodeRuns(_ refusal: Refusal) async throws {
        let harness = try await BrokerHarness(bundles: [refusal.bundle])
        defer { harness.stop() }
        let bundle = harness.pluginDirectory.appendingPathComponent("org.example.c.bundle")
        let library = bundle.appendingPathComponent(refusal.bundle.executable)
        let culprit = try refusal.prepare(bundle, library)
        let client = try BrokerClient(harness)
        _ = try await client.call("Reload")
        let pid = try #require(harness.process.pid)
        do {
            let reply = try await client.perform("org.example.c", "succeed")
            Issue.record("a refused plugin performed: \(reply)")
        } catch {
            #expect(error.name.rawValue == "org.quickactions.Error.PluginFailed")
            #expect(error.message.contains("org.example.c"), "\(error.message)")
            #expect(error.message.contains(culprit), "\(error.message)")
            #expect(error.message.contains(refusal.reason), "\(error.message)")
        }
        #expect(!harness.log.contains(refusal.initLogs), "plugin code ran: \(harness.log)")
        if !refusal.mapped {
            #expect(try !ProcessMemory.mapsOfProcessOrChildren(pid, contain: library.path),
                    "the refused library is mapped: \(harness.log)")
        }
        #expect(try await client.applicationIDs() == ["org.example.c"], "the app is still listed")

        guard refusal.fixable else { return }
        // Once the modes are right the same file loads: the checks, not the file, refused it.
        try Self.chmod(bundle, 0o755)
        try Self.chmod(library, 0o755)
        _ = try await client.call("Reload")
        let performed = try await client.perform("org.example.c", "succeed")
        #expect(performed.success)
        #expect(harness.log.contains(refusal.initLogs))
        #expect(try ProcessMemory.mapsOfProcessOrChildren(pid, contain: library.path),
                "the loaded library shows in the maps of the broker or its plugin host")
    }
}
