import Foundation
import Glibc
import Testing

@testable import QuickActionsHost

/// Plugin files are refused before any of their code runs, and what is
/// loaded is the very file that was checked.
@Suite struct SecurityTests {
    struct RefusalCase: Sendable, CustomStringConvertible {
        var name: String
        /// Breaks the bundle; returns the path the reason must name.
        var prepare: @Sendable (TestBundle) throws -> String
        var reason: String
        var description: String { name }
    }

    static let refusals: [RefusalCase] = [
        RefusalCase(name: "world-writable library", prepare: { try chmod($0.library, 0o757); return $0.library.path },
            reason: "world-writable (mode 0757)"),
        RefusalCase(name: "group-writable library", prepare: { try chmod($0.library, 0o775); return $0.library.path },
            reason: "group-writable (mode 0775)"),
        RefusalCase(name: "group-writable bundle folder", prepare: { try chmod($0.bundle, 0o775); return $0.bundle.path },
            reason: "group-writable (mode 0775)"),
        RefusalCase(name: "world-writable bundle folder", prepare: { try chmod($0.bundle, 0o777); return $0.bundle.path },
            reason: "world-writable (mode 0777)"),
        RefusalCase(
            name: "library is a symlink",
            prepare: { bundle in
                let real = try bundle.add(plugin: TestPlugins.cPlugin, as: "real.so")
                try FileManager.default.removeItem(at: bundle.library)
                try FileManager.default.createSymbolicLink(atPath: bundle.library.path, withDestinationPath: real.path)
                return bundle.library.path
            }, reason: "is a symlink"),
        RefusalCase(
            name: "library is a folder",
            prepare: { bundle in
                try FileManager.default.removeItem(at: bundle.library)
                try FileManager.default.createDirectory(at: bundle.library, withIntermediateDirectories: false)
                try chmod(bundle.library, 0o755)
                return bundle.library.path
            }, reason: "is not a regular file"),
        // Nothing here may block: a FIFO's open would wait for a writer for ever.
        RefusalCase(
            name: "library is a FIFO",
            prepare: { bundle in
                try FileManager.default.removeItem(at: bundle.library)
                guard mkfifo(bundle.library.path, 0o644) == 0 else { throw POSIXError(.EIO) }
                return bundle.library.path
            }, reason: "is not a regular file but a FIFO"),
        RefusalCase(
            name: "library is a socket",
            prepare: { bundle in
                try FileManager.default.removeItem(at: bundle.library)
                try bindSocket(at: bundle.library.path)
                return bundle.library.path
            }, reason: "is not a regular file but a socket"),
        RefusalCase(
            name: "library is a character device",
            prepare: { bundle in
                try FileManager.default.removeItem(at: bundle.library)
                // /dev/null's numbers; making a device node needs root, which the tests run as.
                guard mknod(bundle.library.path, S_IFCHR | 0o644, dev_t((1 << 8) | 3)) == 0 else {
                    throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
                }
                return bundle.library.path
            }, reason: "is not a regular file but a character device"),
    ]

    /// Leaves a Unix socket file at `path`.
    static func bindSocket(at path: String) throws {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { throw POSIXError(.ENAMETOOLONG) }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }

    @Test(arguments: refusals)
    func refusedBeforeAnyCodeRuns(_ refusal: RefusalCase) throws {
        let bundle = try TestBundle(plugin: TestPlugins.cPlugin)
        defer { bundle.remove() }
        let culprit = try refusal.prepare(bundle)
        let recorder = Recorder()
        let error = try #require(throws: PluginLoadError.self) { try load(bundle, recorder: recorder) }
        guard case .refused(let library, let reason) = error else {
            Issue.record("expected refused, got \(error)")
            return
        }
        #expect(library == bundle.library.path)
        #expect(reason.contains(culprit), "reason \"\(reason)\" does not name \(culprit)")
        #expect(reason.contains(refusal.reason), "reason \"\(reason)\" does not say \(refusal.reason)")
        #expect(recorder.logs.filter { $0.origin == .plugin }.isEmpty, "plugin code ran: \(recorder.logs)")
        #expect(!isLoaded(bundle.library.path))
    }

    @Test func aBundleFolderThatIsASymlinkIsRefused() throws {
        let real = try TestBundle(plugin: TestPlugins.cPlugin)
        defer { real.remove() }
        let link = real.root.appendingPathComponent("Link.bundle")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: real.bundle.path)
        let library = link.appendingPathComponent("libplugin.so")
        let error = try #require(throws: PluginLoadError.self) {
            try LoadedPlugin.load(
                library: library.path, bundle: link.path, appID: "org.example.test", dataDirectory: real.dataDirectory.path,
                callbacks: Recorder().callbacks)
        }
        #expect(error == .refused(library: library.path, reason: "bundle folder \(link.path) is a symlink"))
    }

    @Test func aLibraryOutsideItsBundleIsRefused() throws {
        let bundle = try TestBundle(plugin: TestPlugins.cPlugin)
        defer { bundle.remove() }
        let outside = bundle.root.appendingPathComponent("libplugin.so")
        try FileManager.default.copyItem(at: bundle.library, to: outside)
        let error = try #require(throws: PluginLoadError.self) {
            try LoadedPlugin.load(
                library: outside.path, bundle: bundle.bundle.path, appID: "org.example.test",
                dataDirectory: bundle.dataDirectory.path, callbacks: Recorder().callbacks)
        }
        #expect(error == .refused(library: outside.path, reason: "it is not inside its bundle \(bundle.bundle.path)"))
    }

    @Test(.enabled(if: geteuid() == 0, "changing a file's owner needs root"), arguments: [false, true])
    func aFileOwnedBySomeoneElseIsRefused(folder: Bool) throws {
        let bundle = try TestBundle(plugin: TestPlugins.cPlugin)
        defer { bundle.remove() }
        let culprit = folder ? bundle.bundle : bundle.library
        try chown(culprit, uid: 65534)
        let error = try #require(throws: PluginLoadError.self) { try load(bundle, recorder: Recorder()) }
        let what = folder ? "bundle folder" : "library"
        #expect(
            error == .refused(
                library: bundle.library.path,
                reason: "\(what) \(culprit.path) is owned by uid 65534, not by uid 0 (the broker's user) or root"))
    }

    /// The check and the load use one open descriptor: a different library
    /// moved over the path, or a symlink put there, after the check is not
    /// what gets loaded.
    @Test(arguments: ["rename", "symlink"])
    func aFileSwappedAfterTheCheckIsNotWhatGetsLoaded(swap: String) throws {
        let bundle = try TestBundle(plugin: TestPlugins.cPlugin)
        defer { bundle.remove() }
        let other = try bundle.add(plugin: TestPlugins.initFails, as: "other.so")
        let swapped = Counter()
        let hooks = LoaderHooks(afterCheck: { path in
            if swap == "rename" {
                _ = rename(other.path, path)
            } else {
                _ = unlink(path)
                _ = symlink(other.path, path)
            }
            swapped.increment()
        })
        let recorder = Recorder()
        let plugin = keepLoaded(
            try LoadedPlugin.load(
                library: bundle.library.path, bundle: bundle.bundle.path, appID: "org.example.test",
                dataDirectory: bundle.dataDirectory.path, callbacks: recorder.callbacks, hooks: hooks))
        #expect(swapped.value == 1)
        // InitFails would have failed to load; what was checked (CScenarios) was loaded.
        #expect(plugin.name == "CScenarios")
        #expect(recorder.pluginLogs(containing: "init-fails").isEmpty)
        #expect(recorder.pluginLogs(containing: "c-plugin: init").count == 1)
    }
}
