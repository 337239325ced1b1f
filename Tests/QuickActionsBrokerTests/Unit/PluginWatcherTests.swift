import Foundation
import Locking
import QuickActionsBundles
import QuickActionsTestSupport
import Testing
@testable import QuickActionsBroker

/// What the plugin-folder watch sees: the plugin directory's entries from the start, and each
/// bundle folder and `.lproj` folder once a scan has read it (the scan adds their watches just
/// before reading them, instead of the watcher listing every bundle again).
@Suite struct PluginWatcherTests {
    final class Counter: Sendable {
        private let count = Locked(0)
        func bump() { count.withLock { $0 += 1 } }
        func take() -> Int { count.withLock { value in defer { value = 0 }; return value } }
    }

    static func write(_ text: String, to url: URL) throws {
        try Data(text.utf8).write(to: url)
    }

    @Test func changesInsideABundleAreSeenOnceAScanHasReadIt() async throws {
        let root = try TemporaryDirectory.make(prefix: "qa-watch")
        defer { try? FileManager.default.removeItem(at: root) }
        let plugins = root.appendingPathComponent("plugins", isDirectory: true)
        let bundle = plugins.appendingPathComponent("org.example.app.bundle", isDirectory: true)
        let english = bundle.appendingPathComponent("en.lproj", isDirectory: true)
        try FileManager.default.createDirectory(at: english, withIntermediateDirectories: true)
        try Self.write("""
            <plist><dict><key>CFBundleIdentifier</key><string>org.example.app</string>
            <key>CFBundleExecutable</key><string>libapp.so</string></dict></plist>
            """, to: bundle.appendingPathComponent("Info.plist"))
        let library = bundle.appendingPathComponent("libapp.so")
        try Self.write("first build", to: library)

        let changes = Counter()
        let watcher = try PluginWatcher(directories: [plugins]) { changes.bump() }
        defer { watcher.stop() }
        var read: [String] = []
        let scan = PluginDirectories.scan([plugins]) { folder in
            read.append(folder.lastPathComponent)
            watcher.watchFolder(folder)
        }
        #expect(scan.bundles.map(\.appID.rawValue) == ["org.example.app"])
        #expect(read == ["org.example.app.bundle", "en.lproj"], "each folder once, the bundle's before its table's")

        // A library replaced in place: written over, not renamed in (the plugin directory's own
        // watch sees nothing of it).
        try Self.write("second build", to: library)
        #expect(await eventually(.seconds(5)) { changes.take() > 0 }, "the library written in place went unseen")
        // A table added to an .lproj folder.
        try await Task.sleep(for: .milliseconds(300))
        _ = changes.take()
        try Self.write("\"CFBundleDisplayName\" = \"App\";\n", to: english.appendingPathComponent("InfoPlist.strings"))
        #expect(await eventually(.seconds(5)) { changes.take() > 0 }, "the table added went unseen")
        // A new bundle folder in the plugin directory.
        try await Task.sleep(for: .milliseconds(300))
        _ = changes.take()
        try FileManager.default.createDirectory(
            at: plugins.appendingPathComponent("org.example.other.bundle"), withIntermediateDirectories: false)
        #expect(await eventually(.seconds(5)) { changes.take() > 0 }, "the new bundle folder went unseen")
    }

    @Test func aBundleFolderNoScanHasReadIsNotListedByTheWatcher() async throws {
        let root = try TemporaryDirectory.make(prefix: "qa-watch")
        defer { try? FileManager.default.removeItem(at: root) }
        let plugins = root.appendingPathComponent("plugins", isDirectory: true)
        let bundle = plugins.appendingPathComponent("org.example.app.bundle", isDirectory: true)
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        let changes = Counter()
        let watcher = try PluginWatcher(directories: [plugins]) { changes.bump() }
        defer { watcher.stop() }
        // Not read by a scan, so not watched: the scan that reads it (after the event that
        // made it appear) is what watches it.
        try Self.write("x", to: bundle.appendingPathComponent("Info.plist"))
        try await Task.sleep(for: .milliseconds(500))
        #expect(changes.take() == 0)
    }
}
