import DBus
import Foundation
import Glibc
import QuickActionsModel
import QuickActionsTestSupport
import Testing

/// Issue 13 §3: bad state never stops the broker. Every state file or folder
/// that is of the wrong kind, corrupt or cannot be written is moved aside or
/// bypassed with a log line naming it and why, and the broker serves the
/// rest; a clean stop logs no error.
@Suite(.serialized) struct BadStateTests {
    struct Damage: Sendable, CustomStringConvertible {
        var description: String
        /// The state entry to damage, relative to the state directory.
        var entry: String
        /// What the log line naming the entry must say.
        var reason: String
        var make: @Sendable (URL) throws -> Void
    }

    static func fifo(_ url: URL) throws {
        guard mkfifo(url.path, 0o600) == 0 else { throw TestSupportError("mkfifo \(url.path): \(errno)") }
    }

    static func folder(_ url: URL) throws {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    static func symlink(_ url: URL) throws {
        let target = url.deletingLastPathComponent().appendingPathComponent("elsewhere-\(url.lastPathComponent)")
        try Data("org.example.swift 9 x\n".utf8).write(to: target)
        try FileManager.default.createSymbolicLink(at: url, withDestinationURL: target)
    }

    static let damages: [Damage] = [
        Damage(description: "crash journal a FIFO", entry: "running-plugins", reason: "not a regular file", make: fifo),
        Damage(description: "crash journal a folder", entry: "running-plugins", reason: "not a regular file", make: folder),
        Damage(description: "crash journal a symlink", entry: "running-plugins", reason: "symbolic link", make: symlink),
        Damage(description: "crash journal of the wrong size", entry: "running-plugins", reason: "is not a crash journal") { url in
            try Data(repeating: 1, count: 1000).write(to: url)
        },
        Damage(description: "crash counts a FIFO", entry: "crashes", reason: "not a regular file", make: fifo),
        Damage(description: "crash counts a folder", entry: "crashes", reason: "not a regular file", make: folder),
        Damage(description: "crash counts a symlink", entry: "crashes", reason: "symbolic link", make: symlink),
        Damage(description: "crash counts not UTF-8", entry: "crashes", reason: "not UTF-8") { url in
            try Data([0xFF, 0xFE, 0x0A]).write(to: url)
        },
        Damage(description: "last-seen records a file", entry: "last-seen", reason: "cannot record which apps were seen") { url in
            try Data("x".utf8).write(to: url)
        },
        Damage(description: "an app's items a FIFO", entry: "org.example.swift.items", reason: "not a regular file", make: fifo),
    ]

    @Test(arguments: damages)
    func theBrokerStartsAndServesDespiteABadStateEntry(_ damage: Damage) async throws {
        let harness = try await BrokerHarness(bundles: [Apps.swift])
        defer { harness.stop() }
        harness.process.stop()
        let path = harness.stateDirectory.appendingPathComponent(damage.entry)
        try? FileManager.default.removeItem(at: path)
        try damage.make(path)
        try await harness.restart()
        // The last-seen records are written on the scan queue once the broker has its name; a
        // Reload, queued behind them, returns after them.
        _ = try await harness.call("Reload")

        let items = try await BrokerClient(harness).items(Apps.swift.appID)
        #expect(items.map { $0["type"]?.string } == ["hello", "echo-items"], "the static items are served")
        let line = harness.log.split(separator: "\n").first { $0.contains(damage.reason) }
        #expect(line != nil, "no log line says \(damage.reason): \(harness.log)")
        if damage.entry != "last-seen" {
            #expect(line?.contains(path.path) == true, "the line names \(path.path): \(String(describing: line))")
        }
        // The plugin still loads and performs, and what it sets is listed.
        let client = try BrokerClient(harness)
        #expect(try await client.perform(Apps.swift.appID, "echo-items").success)
        #expect(try await client.items(Apps.swift.appID).count == 4)
        try await harness.restart()
        #expect(!harness.log.contains("error:"), "\(harness.log)")
    }

    /// The state directory cannot hold files: a file in its place, or a
    /// read-only bind mount (root ignores mode bits, not a read-only mount).
    @Test func aStateDirectoryReplacedByAFileStillServes() async throws {
        let harness = try await BrokerHarness(bundles: [Apps.swift])
        defer { harness.stop() }
        harness.process.stop()
        try FileManager.default.removeItem(at: harness.stateDirectory)
        try Data("not a folder".utf8).write(to: harness.stateDirectory)
        try await harness.restart()
        try await Self.expectServedWithoutPersisting(harness)
    }

    static let canMountReadOnly: Bool = {
        guard geteuid() == 0, let probe = try? TemporaryDirectory.make(prefix: "qa-ro-probe") else { return false }
        defer { try? FileManager.default.removeItem(at: probe) }
        guard let mounted = try? Command.runBlocking("mount", ["--bind", "-o", "ro", probe.path, probe.path]),
              mounted.status == 0 else { return false }
        _ = try? Command.runBlocking("umount", [probe.path])
        return true
    }()

    @Test(.enabled(if: canMountReadOnly, "needs root and mount --bind -o ro"))
    func aReadOnlyStateDirectoryStillServes() async throws {
        let harness = try await BrokerHarness(bundles: [Apps.swift])
        defer { harness.stop() }
        let client = try BrokerClient(harness)
        #expect(try await client.perform(Apps.swift.appID, "echo-items").success)
        harness.process.stop()
        // Its will-resign left one item, "resigned", stored.
        let stored = try Data(contentsOf: harness.stateDirectory.appendingPathComponent("org.example.swift.items"))
        let mounted = try await Command.run("mount", ["--bind", "-o", "ro", harness.stateDirectory.path, harness.stateDirectory.path])
        try #require(mounted.status == 0, "\(mounted)")
        defer { _ = try? Command.runBlocking("umount", [harness.stateDirectory.path]) }
        try await harness.restart()
        let items = try await BrokerClient(harness).items(Apps.swift.appID)
        #expect(items.map { $0["type"]?.string } == ["hello", "echo-items", "resigned"],
                "the stored items are listed from the read-only folder")
        try await Self.expectServedWithoutPersisting(harness)
        #expect(try Data(contentsOf: harness.stateDirectory.appendingPathComponent("org.example.swift.items")) == stored)
    }

    static func expectServedWithoutPersisting(_ harness: BrokerHarness) async throws {
        let client = try BrokerClient(harness)
        let items = try await client.items(Apps.swift.appID)
        #expect(items.prefix(2).map { $0["type"]?.string } == ["hello", "echo-items"])
        #expect(harness.log.contains("state directory \(harness.stateDirectory.path)"), "\(harness.log)")
        #expect(harness.log.contains("dynamic items will not persist"), "\(harness.log)")
        let performed = try await client.perform(Apps.swift.appID, "echo-items", BrokerClient.options([
            ("arguments", BrokerClient.options([("k", .string("fresh"))])),
        ]))
        #expect(performed.success, "\(performed)")
        let after = try await client.items(Apps.swift.appID)
        #expect(after.count == 4, "the new dynamic items are served from memory: \(after)")
        #expect(harness.log.contains("are served but will not persist"), "\(harness.log)")
    }

    @Test(arguments: [SIGTERM, SIGINT])
    func aCleanStopLogsNoError(_ signal: Int32) async throws {
        let harness = try await BrokerHarness(bundles: [Apps.swift])
        defer { harness.stop() }
        #expect(try await BrokerClient(harness).perform(Apps.swift.appID, "hello").success)
        harness.process.signal(signal)
        #expect(harness.process.waitForExit(timeout: .seconds(20)) == 0)
        #expect(harness.log.contains("stopped"), "\(harness.log)")
        #expect(!harness.log.contains("error:"), "\(harness.log)")
        #expect(!harness.log.contains("lost the bus"), "\(harness.log)")
    }

    /// A SIGTERM that reaches the broker while it starts (before its signal sources exist)
    /// still stops it: the wrapper blocks SIGTERM, sends it to itself and execs the broker,
    /// which so starts with the signal pending. Setting SIG_IGN used to discard it.
    @Test func aStopSignalSentDuringStartUpIsNotLost() async throws {
        let harness = try await BrokerHarness(bundles: [Apps.swift])
        defer { harness.stop() }
        let wrapper = """
            import os, signal, sys
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})
            os.kill(os.getpid(), signal.SIGTERM)
            os.execv(sys.argv[1], sys.argv[1:])
            """
        let broker = PackagePaths.executable("quickactionsd").path
        let early = try ManagedProcess("/usr/bin/python3", ["-c", wrapper, broker] + harness.arguments + ["--replace"],
                                       environment: harness.bus.environment(), directory: harness.directory,
                                       name: "started-with-SIGTERM")
        defer { early.stop() }
        #expect(early.waitForExit(timeout: .seconds(20)) == 0, "\(early.standardError)")
        #expect(early.standardError.contains("received SIGTERM while starting; stopping"), "\(early.standardError)")
        #expect(early.standardError.contains("stopped"), "\(early.standardError)")
    }

    @Test func aBrokerReplacedByAnotherLogsNoError() async throws {
        let harness = try await BrokerHarness(bundles: [Apps.swift])
        defer { harness.stop() }
        let first = harness.process
        let replacement = try ManagedProcess(PackagePaths.executable("quickactionsd").path, harness.arguments + ["--replace"],
                                             environment: harness.bus.environment(), directory: harness.directory,
                                             name: "replacement")
        defer { replacement.stop() }
        #expect(first.waitForExit(timeout: .seconds(20)) == 0)
        #expect(first.standardError.contains("another broker took"), "\(first.standardError)")
        #expect(!first.standardError.contains("error:"), "\(first.standardError)")
        replacement.signal(SIGTERM)
        #expect(replacement.waitForExit(timeout: .seconds(20)) == 0)
        #expect(!replacement.standardError.contains("error:"), "\(replacement.standardError)")
    }
}
