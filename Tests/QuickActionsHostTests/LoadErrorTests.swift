import Foundation
import Testing

@testable import QuickActionsHost

/// Each way loading can fail is reported with its own case, the library's
/// path and the reason, and no plugin code runs past the point of failure.
@Suite struct LoadErrorTests {
    @Test func aMissingLibraryIsReportedAsFileMissing() throws {
        let bundle = try TestBundle(plugin: nil)
        defer { bundle.remove() }
        #expect(throws: PluginLoadError.fileMissing(library: bundle.library.path)) {
            try load(bundle, recorder: Recorder())
        }
    }

    @Test func aFileThatIsNotASharedObjectIsNotLoadableWithDlerrorsText() throws {
        let bundle = try TestBundle(plugin: nil)
        defer { bundle.remove() }
        try Data("not an ELF file, just text".utf8).write(to: bundle.library)
        try chmod(bundle.library, 0o755)
        let error = try #require(throws: PluginLoadError.self) { try load(bundle, recorder: Recorder()) }
        guard case .notLoadable(let library, let reason) = error else {
            Issue.record("expected notLoadable, got \(error)")
            return
        }
        #expect(library == bundle.library.path)
        // dlerror starts with the file it opened (/proc/self/fd/N); the error names
        // the real path once, as `library`, and the reason does not repeat it.
        #expect(!reason.contains(bundle.library.path), "reason: \(reason)")
        #expect(!reason.contains("/proc/self/fd"), "reason: \(reason)")
        #expect(error.description == "plugin \(bundle.library.path): not loadable: \(reason)")
        #expect(reason.contains("ELF") || reason.contains("too short"), "reason: \(reason)")
    }

    @Test func aLibraryWithoutTheEntrySymbolIsReportedAndUnloaded() throws {
        let bundle = try TestBundle(plugin: TestPlugins.noEntry)
        defer { bundle.remove() }
        #expect(throws: PluginLoadError.symbolMissing(library: bundle.library.path, symbol: "quickactions_plugin_entry")) {
            try load(bundle, recorder: Recorder())
        }
    }

    @Test func aPluginOfAnotherMajorIsRefusedNamingBothVersionsAndInitNeverRuns() throws {
        let bundle = try TestBundle(plugin: TestPlugins.abiMajor2)
        defer { bundle.remove() }
        let recorder = Recorder()
        let expected = PluginLoadError.abiMismatch(
            library: bundle.library.path, plugin: PluginABIVersion(major: 2, minor: 0), host: .current)
        #expect(throws: expected) { try load(bundle, recorder: recorder) }
        #expect(expected.description.contains("plugin built for 2.0, host serves ABI 1.x (itself \(PluginABIVersion.current))"),
                "\(expected)")
        #expect(expected.description.contains("update the broker"), "a newer plugin needs a newer broker")
        #expect(recorder.pluginLogs(containing: "init ran").isEmpty, "init ran: \(recorder.logs)")
    }

    @Test("an ABI mismatch says which side to update", arguments: [
        (PluginABIVersion(major: 2, minor: 0), "update the broker (quickactionsd) to one serving ABI 2.0"),
        (PluginABIVersion(major: 0, minor: 9), "rebuild the plugin against quickactions_plugin.h 1.2"),
    ])
    func anABIMismatchSaysWhichSideToUpdate(_ plugin: PluginABIVersion, _ remedy: String) {
        let error = PluginLoadError.abiMismatch(library: "/b/lib.so", plugin: plugin, host: PluginABIVersion(major: 1, minor: 2))
        #expect(error.reason == "ABI mismatch: plugin built for \(plugin), host serves ABI 1.x (itself 1.2); "
            + (plugin.major == 0 ? "the plugin is older than this broker: " : "the plugin is newer than this broker: ")
            + remedy)
    }

    @Test("a host loads every minor of its major and no other major", arguments: [
        (PluginABIVersion(major: 1, minor: 0), true), (PluginABIVersion(major: 1, minor: 2), true),
        (PluginABIVersion(major: 1, minor: 9), true), (PluginABIVersion(major: 1, minor: .max), true),
        (PluginABIVersion(major: 0, minor: 9), false), (PluginABIVersion(major: 2, minor: 0), false),
    ])
    func aHostLoadsEveryMinorOfItsMajor(_ plugin: PluginABIVersion, _ accepted: Bool) {
        #expect(PluginABIVersion(major: 1, minor: 2).accepts(plugin: plugin) == accepted)
    }

    @Test func aFailingCInitReportsItsMessage() throws {
        let bundle = try TestBundle(plugin: TestPlugins.initFails)
        defer { bundle.remove() }
        let recorder = Recorder()
        #expect(
            throws: PluginLoadError.initFailed(
                library: bundle.library.path, message: "contacts database is corrupt: contacts.db")
        ) {
            try load(bundle, recorder: recorder)
        }
        #expect(recorder.pluginLogs(containing: "init-fails: about to fail").count == 1)
        // Linked by swiftc (SwiftPM), it registered with the Swift runtime: never closed.
        #expect(isLoaded(bundle.library.path))
        #expect(recorder.loaderLogs(containing: "kept mapped").count == 1)
        // The caller logs the failure, once; the loader adds only that note, at debug level.
        #expect(recorder.logs.filter { $0.origin == .loader && $0.level > .debug }.isEmpty, "\(recorder.logs)")
    }

    /// Built by a C compiler alone, a plugin whose load fails is closed again.
    @Test(.enabled(if: CCompiler.path != nil, "needs a C compiler"), arguments: [
        "InitFails/init_fails.c", "NoEntry/no_entry.c", "ABIMajor2/abi_major2.c",
    ])
    func aPureCLibraryIsUnloadedWhenItsLoadFails(_ source: String) throws {
        let bundle = try TestBundle(plugin: nil)
        defer { bundle.remove() }
        try CCompiler.build(source, into: bundle.library)
        let recorder = Recorder()
        #expect(throws: PluginLoadError.self) { try load(bundle, recorder: recorder) }
        #expect(!isLoaded(bundle.library.path), "a C library whose load failed must be dlclose'd")
        #expect(recorder.loaderLogs(containing: "kept mapped").isEmpty)
    }

    @Test(.enabled(if: CCompiler.path != nil, "needs a C compiler"))
    func aPureCLibraryThatLoadsStaysMapped() throws {
        let bundle = try TestBundle(plugin: nil)
        defer { bundle.remove() }
        try CCompiler.build("CPlugin/c_plugin.c", into: bundle.library)
        let plugin = try load(bundle, recorder: Recorder())
        #expect(plugin.name == "CScenarios")
        #expect(isLoaded(bundle.library.path))
    }

    @Test func aFailingSwiftInitReportsItsErrorAndTheLibraryStaysMapped() throws {
        let bundle = try TestBundle(plugin: TestPlugins.swiftInitFails)
        defer { bundle.remove() }
        let recorder = Recorder()
        #expect(
            throws: PluginLoadError.initFailed(
                library: bundle.library.path, message: "no configuration file at /nonexistent/config.plist")
        ) {
            try load(bundle, recorder: recorder)
        }
        // Items set during init went through; Swift code is never unloaded.
        #expect(recorder.lists == [[]])
        #expect(isLoaded(bundle.library.path), "a library linking the Swift runtime must never be dlclose'd")
    }

    @Test func aSuccessfulLoadKeepsTheLibraryMappedAndReportsItsDescriptor() throws {
        let bundle = try TestBundle(plugin: TestPlugins.cPlugin)
        defer { bundle.remove() }
        let recorder = Recorder()
        let plugin = try load(bundle, recorder: recorder)
        #expect(plugin.name == "CScenarios")
        #expect(plugin.abiVersion == PluginABIVersion(major: 1, minor: 3))
        #expect(plugin.library == bundle.library.path)
        #expect(recorder.pluginLogs(containing: "c-plugin: init").count == 1)
        #expect(isLoaded(bundle.library.path))
    }

    /// `PluginEntry(SwiftTestPlugin.self)` gives no name: the SDK names the descriptor after the type.
    @Test func aSwiftPluginWithoutANameIsNamedAfterItsType() throws {
        let bundle = try TestBundle(plugin: TestPlugins.swiftPlugin)
        defer { bundle.remove() }
        let plugin = try load(bundle, recorder: Recorder())
        #expect(plugin.name == "SwiftTestPlugin")
    }

    @Test func errorDescriptionsNameThePathAndTheReason() {
        let error = PluginLoadError.initFailed(library: "/p/App.bundle/lib.so", message: "boom")
        #expect(error.description == "plugin /p/App.bundle/lib.so: init failed: boom")
        #expect(error.library == "/p/App.bundle/lib.so")
    }
}
