import Foundation
import Glibc

/// Finds the test plugins the package builds (`lib<Name>.so`, dynamic
/// library products declared in Package.swift) and assembles them into
/// bundles in temporary folders.
enum TestPlugins {
    static let swiftPlugin = "QATestSwiftPlugin"
    static let swiftInitFails = "QATestSwiftInitFails"
    static let cPlugin = "QATestCPlugin"
    static let initFails = "QATestInitFails"
    static let noEntry = "QATestNoEntry"
    static let abiMajor2 = "QATestABIMajor2"
    static let abiNewerMinor = "QATestABINewerMinor"

    /// The folder holding the built libraries: `$QUICKACTIONS_TEST_PLUGINS`
    /// if set, else the folder of the running test executable (SwiftPM puts
    /// products and the test bundle side by side), else `.build/debug`
    /// under the package root.
    static let directory: URL = {
        var candidates: [URL] = []
        if let override = ProcessInfo.processInfo.environment["QUICKACTIONS_TEST_PLUGINS"] {
            candidates.append(URL(fileURLWithPath: override))
        }
        candidates.append(URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent())
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        candidates.append(root.appendingPathComponent(".build/debug"))
        return candidates.first { FileManager.default.fileExists(atPath: $0.appendingPathComponent("lib\(cPlugin).so").path) }
            ?? candidates[candidates.count - 1]
    }()

    static func library(_ name: String) -> URL {
        directory.appendingPathComponent("lib\(name).so")
    }
}

/// A plugin bundle in a fresh temporary folder: `<root>/App.bundle/libplugin.so`,
/// a copy of a built test plugin (so every test has its own file, inode and
/// modes). Folder 0755, library 0755. ``remove()`` deletes it all.
struct TestBundle {
    let root: URL
    let bundle: URL
    let library: URL
    let dataDirectory: URL

    init(plugin: String?, fileName: String = "libplugin.so") throws {
        root = FileManager.default.temporaryDirectory
            .appendingPathComponent("qa-host-tests-\(UUID().uuidString)", isDirectory: true)
        bundle = root.appendingPathComponent("App.bundle", isDirectory: true)
        library = bundle.appendingPathComponent(fileName)
        dataDirectory = root.appendingPathComponent("data/App", isDirectory: true)
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        try chmod(bundle, 0o755)
        if let plugin {
            try FileManager.default.copyItem(at: TestPlugins.library(plugin), to: library)
            try chmod(library, 0o755)
        }
    }

    /// Writes an (empty) icon file at `path` inside the bundle: a dynamic item's icon file
    /// must exist there.
    @discardableResult
    func addIcon(_ path: String) throws -> URL {
        let url = bundle.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data().write(to: url)
        return url
    }

    /// Copies another built plugin into the bundle's folder under `name`.
    func add(plugin: String, as name: String) throws -> URL {
        let url = bundle.appendingPathComponent(name)
        try FileManager.default.copyItem(at: TestPlugins.library(plugin), to: url)
        try chmod(url, 0o755)
        return url
    }

    func remove() {
        try? FileManager.default.removeItem(at: root)
    }
}

struct SystemCallError: Error, CustomStringConvertible {
    var call: String
    var path: String
    var code: Int32
    var description: String { "\(call) \(path): \(String(cString: strerror(code)))" }
}

func chmod(_ url: URL, _ mode: mode_t) throws {
    guard Glibc.chmod(url.path, mode) == 0 else { throw SystemCallError(call: "chmod", path: url.path, code: errno) }
}

func chown(_ url: URL, uid: uid_t) throws {
    guard lchown(url.path, uid, gid_t(uid)) == 0 else { throw SystemCallError(call: "chown", path: url.path, code: errno) }
}

/// The (device, inode) of a file, to recognise it among loaded objects.
func fileIdentity(_ path: String) -> (dev_t, ino_t)? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return (info.st_dev, info.st_ino)
}

/// Whether the file at `path` is currently mapped into this process, by
/// device and inode as /proc/self/maps lists them (the loader loads through
/// `/proc/self/fd/N`, so names would not tell).
func isLoaded(_ path: String) -> Bool {
    // FileHandle reads to the end; String(contentsOfFile:) stops early on procfs files.
    guard let (rawDevice, inode) = fileIdentity(path), let handle = FileHandle(forReadingAtPath: "/proc/self/maps")
    else { return false }
    defer { try? handle.close() }
    let maps = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
    let device = UInt64(rawDevice)
    let major = ((device >> 8) & 0xfff) | ((device >> 32) & ~UInt64(0xfff))
    let minor = (device & 0xff) | ((device >> 12) & ~UInt64(0xff))
    let wanted = String(format: "%02x:%02x", major, minor)
    // address perms offset dev inode path
    return maps.split(separator: "\n").contains { line in
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        return fields.count >= 5 && fields[3] == wanted && fields[4] == "\(inode)"
    }
}

/// Builds C test plugins the way a C author would (a C compiler, no swiftc),
/// so the library does not register with the Swift runtime and may be
/// unloaded after a failed init.
enum CCompiler {
    /// `clang` or `cc` from PATH, if any.
    static let path: String? = {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":")
        for name in ["clang", "cc", "gcc"] {
            for folder in folders where access("\(folder)/\(name)", X_OK) == 0 {
                return "\(folder)/\(name)"
            }
        }
        return nil
    }()

    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Compiles `Tests/Plugins/<folder>/<file>` into `output` as a shared library.
    static func build(_ source: String, into output: URL) throws {
        guard let path else { throw SystemCallError(call: "find a C compiler", path: "PATH", code: ENOENT) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = [
            "-std=c99", "-shared", "-fPIC", "-Wall",
            "-I", packageRoot.appendingPathComponent("Sources/CQuickActionsPlugin/include").path,
            "-o", output.path, packageRoot.appendingPathComponent("Tests/Plugins/\(source)").path,
        ]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw SystemCallError(call: "\(path) \(source)", path: output.path, code: EIO)
        }
        try chmod(output, 0o755)
    }
}

