import Foundation
import Synchronization

/// A private dbus-daemon for one test, configured by dbus/test-bus.conf.
///
/// It never touches the host's session bus. Each bus has its own temporary
/// folder, with a `services` directory the daemon reads activation files
/// from. `stop()` (or releasing the bus) ends the daemon and removes the folder.
public final class TestBus: Sendable {
    /// The bus address, for `Connection(.address(_))`, busctl's `--address`,
    /// gdbus's `--address` and DBUS_SESSION_BUS_ADDRESS.
    public let address: String
    /// The test's temporary folder.
    public let directory: URL
    /// Where activation `.service` files go.
    public let serviceDirectory: URL
    private let daemon: ManagedProcess
    private let released = Atomic<Bool>(false)

    /// Starts the daemon. At most `BusBudget.limit` test buses exist at once
    /// (each with its daemon, broker and their inotify instances); a test
    /// waits here for a free place.
    public init() async throws {
        await BusBudget.shared.acquire()
        do {
            (directory, serviceDirectory, daemon, address) = try Self.start()
        } catch {
            BusBudget.shared.release()
            throw error
        }
    }

    private static func start() throws -> (URL, URL, ManagedProcess, String) {
        let directory = try TemporaryDirectory.make(prefix: "qa-bus")
        let serviceDirectory = directory.appendingPathComponent("services")
        try FileManager.default.createDirectory(at: serviceDirectory, withIntermediateDirectories: true)
        let config = directory.appendingPathComponent("bus.conf")
        let base = PackagePaths.root.appendingPathComponent("dbus/test-bus.conf").path
        try """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <include>\(base)</include>
              <servicedir>\(serviceDirectory.path)</servicedir>
            </busconfig>
            """.write(to: config, atomically: true, encoding: .utf8)
        // Brokers it activates inherit its environment: their desktop entries go to the
        // bus's own data folder, never the host's ~/.local/share/applications.
        var daemonEnvironment = ProcessInfo.processInfo.environment
        daemonEnvironment["XDG_DATA_HOME"] = dataHome(in: directory).path
        let daemon = try ManagedProcess(
            "dbus-daemon", ["--nofork", "--print-address=1", "--config-file=\(config.path)"],
            environment: daemonEnvironment, directory: directory, name: "dbus-daemon")
        let deadline = ContinuousClock.now + .seconds(15)
        var found: String?
        while found == nil && ContinuousClock.now < deadline {
            let line = daemon.standardOutput.split(separator: "\n").first.map(String.init)
            if let line, !line.isEmpty {
                found = line
            } else if !daemon.isRunning {
                break
            } else {
                usleep(5_000)
            }
        }
        guard let found else {
            let log = daemon.standardError
            daemon.stop()
            try? FileManager.default.removeItem(at: directory)
            throw TestSupportError("dbus-daemon did not print its address: \(log)")
        }
        return (directory, serviceDirectory, daemon, found)
    }

    deinit {
        stop()
    }

    /// Stops the daemon and removes the bus's folder.
    public func stop() {
        daemon.stop()
        try? FileManager.default.removeItem(at: directory)
        if !released.exchange(true, ordering: .acquiringAndReleasing) {
            BusBudget.shared.release()
        }
    }

    /// The bus's own `$XDG_DATA_HOME`, so nothing a test starts writes into the host's (the
    /// broker's desktop entries go to its `applications` folder).
    public var dataHome: URL { Self.dataHome(in: directory) }

    static func dataHome(in directory: URL) -> URL { directory.appendingPathComponent("data-home") }

    /// An environment whose session bus is this one (for busctl --user,
    /// gdbus --session, python's SessionBus, and our own executables), and whose
    /// `$XDG_DATA_HOME` is ``dataHome`` and `$XDG_CACHE_HOME` a folder of the bus's own
    /// unless `extra` sets them.
    public func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["DBUS_SESSION_BUS_ADDRESS"] = address
        env["XDG_DATA_HOME"] = dataHome.path
        env.removeValue(forKey: "DBUS_STARTER_ADDRESS")
        env.removeValue(forKey: "DBUS_STARTER_BUS_TYPE")
        // quickactionsd writes KRunner's runner file into $XDG_DATA_HOME: the bus's folder, never the host's.
        env["XDG_DATA_HOME"] = directory.appendingPathComponent("data-home").path
        // The installed-application index keeps its cache in $XDG_CACHE_HOME: the bus's folder too.
        env["XDG_CACHE_HOME"] = directory.appendingPathComponent("cache-home").path
        for (key, value) in extra { env[key] = value }
        return env
    }
}

public struct TestSupportError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Temporary folders under $TMPDIR (or /tmp).
public enum TemporaryDirectory {
    public static func make(prefix: String) throws -> URL {
        let base = ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp"
        var template = Array("\(base)/\(prefix).XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.flatMap { mkdtemp($0) }.map { String(cString: $0) }
        }
        guard let made else {
            throw TestSupportError("mkdtemp in \(base) failed: errno \(errno)")
        }
        return URL(fileURLWithPath: made)
    }
}

/// Where the package and its build products are.
public enum PackagePaths {
    /// The package root (the folder holding Package.swift).
    public static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The folder holding the build products (executables, plugin libraries):
    /// the folder of the running test bundle.
    public static let products: URL = {
        let executable = URL(fileURLWithPath: CommandLine.arguments.first ?? "")
        var folder = executable.deletingLastPathComponent()
        // Swift Testing on Linux runs `<products>/<Package>PackageTests.xctest`.
        if folder.pathExtension == "xctest" { folder = folder.deletingLastPathComponent() }
        return folder
    }()

    /// A built executable of this package, e.g. "quickactionsd".
    public static func executable(_ name: String) -> URL {
        products.appendingPathComponent(name)
    }
}

/// How many test buses may exist at once. Tests run in parallel; without a
/// bound, a full run starts enough dbus-daemons and brokers to exhaust the
/// per-user inotify instances (128 by default) and to thrash two cores.
/// `QA_TEST_MAX_BUSES` overrides the default of 12.
public actor BusBudget {
    public static let shared = BusBudget(
        limit: Int(ProcessInfo.processInfo.environment["QA_TEST_MAX_BUSES"] ?? "") ?? 12)

    private var available: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(limit: Int) {
        available = max(1, limit)
    }

    func acquire() async {
        if available > 0 {
            available -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    nonisolated func release() {
        Task { await self.giveBack() }
    }

    private func giveBack() {
        if waiting.isEmpty {
            available += 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}
