import Foundation
import Glibc
import QuickActionsBundles
import QuickActionsModel
import QuickActionsTestSupport
import Testing

/// Issue 13 §2: stored dynamic items are never deleted by accident. A bundle
/// the broker does not see at one moment leaves the API only; its items come
/// back, byte for byte, when the bundle does. Only the retention rule
/// (`--forget-unseen-days`, after a scan that read every plugin folder) and
/// ForgetApplication remove them.
///
/// The items are put in the store before the broker starts, so no plugin is
/// ever loaded (a loaded plugin would republish at will-resign) and what is
/// listed is exactly what is stored.
@Suite(.serialized) struct StoredItemsKeptTests {
    static let app = "org.example.swift"
    static let stored = [
        ShortcutItem(type: "kept-1", title: "Kept one", subtitle: "Ünïcode ✓", icon: .type(.compose),
                     userInfo: ["n": .int(-7), "ratio": .double(-0.0), "flag": .bool(true), "raw": .bytes([0, 255, 7]),
                                "nested": .dictionary(["list": .array([.string("a"), .int(1)])])]),
        ShortcutItem(type: "kept-2", title: "Kept two", icon: .symbol("mail-send")),
    ]

    /// The store's file of `app` in `harness`.
    static func itemsFile(_ harness: BrokerHarness, _ app: String = app) -> URL {
        harness.stateDirectory.appendingPathComponent("\(app).items")
    }

    static func lastSeenFile(_ harness: BrokerHarness, _ app: String = app) -> URL {
        harness.stateDirectory.appendingPathComponent("last-seen").appendingPathComponent(app)
    }

    /// Stops the harness's broker, writes `stored` as `apps`' stored items and
    /// restarts it. Returns the file's bytes.
    static func seed(_ harness: BrokerHarness, apps: [String] = [app], extraArguments: [String] = []) async throws -> Data {
        harness.process.stop()
        try FileManager.default.createDirectory(at: harness.stateDirectory, withIntermediateDirectories: true)
        let bytes = Data(try DynamicItemCoder.encode(stored))
        for app in apps {
            try bytes.write(to: itemsFile(harness, app))
        }
        try await restartAndSettle(harness, extraArguments: extraArguments)
        return bytes
    }

    /// GetItems through busctl, as its JSON text: the reply compared byte for byte.
    static func getItems(_ harness: BrokerHarness, _ app: String = app) async throws -> String {
        let result = try await harness.call("GetItems", "sa{sv}", [app, "0"])
        // The broker's log with it: a GetItems that finds no broker says what became of it.
        #expect(result.status == 0, "GetItems \(app): \(result)\n--- broker log ---\n\(harness.log.suffix(4000))")
        return result.stdout
    }

    static func applications(_ harness: BrokerHarness) async throws -> [String] {
        try await BrokerClient(harness).applicationIDs()
    }

    /// Restarts the harness's broker and waits until it has applied the retention rule to its
    /// initial scan, which it does on its scan queue once it has the name: a Reload, queued
    /// there behind it, returns after it.
    static func restartAndSettle(_ harness: BrokerHarness, extraArguments: [String] = []) async throws {
        try await harness.restart(extraArguments: extraArguments)
        try await reload(harness)
    }

    static func reload(_ harness: BrokerHarness) async throws {
        let result = try await harness.call("Reload")
        #expect(result.status == 0, "Reload: \(result)")
    }

    static func days(_ count: Double) -> Int64 { Int64(count * 86_400) }

    static func writeLastSeen(_ harness: BrokerHarness, _ app: String = app, secondsAgo: Int64) throws {
        let folder = harness.stateDirectory.appendingPathComponent("last-seen")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("\(Int64(time(nil)) - secondsAgo)\n".utf8).write(to: folder.appendingPathComponent(app))
    }

    @Test func aPluginFolderMovedAwayAndBackKeepsTheStoredItems() async throws {
        let harness = try await BrokerHarness(bundles: [Apps.swift])
        defer { harness.stop() }
        let bytes = try await Self.seed(harness)
        let before = try await Self.getItems(harness)
        #expect(before.contains("kept-1") && before.contains("kept-2"), "\(before)")

        let away = harness.directory.appendingPathComponent("plugins-away")
        try FileManager.default.moveItem(at: harness.pluginDirectory, to: away)
        try await Self.reload(harness)
        #expect(try await Self.applications(harness).isEmpty)
        #expect(harness.log.contains("removed \(Self.app)") && harness.log.contains("its stored items are kept"), "\(harness.log)")
        // A broker started while the folder is away keeps them too.
        try await harness.restart()
        #expect(try await Self.applications(harness).isEmpty)
        #expect(harness.log.contains("plugin directory \(harness.pluginDirectory.path) cannot be listed"), "\(harness.log)")
        #expect(try Data(contentsOf: Self.itemsFile(harness)) == bytes)

        try FileManager.default.moveItem(at: away, to: harness.pluginDirectory)
        try await Self.reload(harness)
        #expect(try await Self.applications(harness) == [Self.app])
        #expect(try await Self.getItems(harness) == before, "the items come back as they were, before the plugin loads")
        #expect(try Data(contentsOf: Self.itemsFile(harness)) == bytes)
        #expect(!harness.log.contains("error:"), "\(harness.log)")
    }

    /// Without Reload: the watcher sees the folder go, and sees a new one
    /// made in its place (it waits on the parent while the folder is missing).
    @Test func aPluginFolderRemovedAndMadeAgainIsSeenWithoutAReload() async throws {
        let harness = try await BrokerHarness(bundles: [Apps.swift])
        defer { harness.stop() }
        let bytes = try await Self.seed(harness)
        let before = try await Self.getItems(harness)
        let saved = harness.directory.appendingPathComponent("plugins-copy")
        try FileManager.default.copyItem(at: harness.pluginDirectory, to: saved)
        try FileManager.default.removeItem(at: harness.pluginDirectory)
        #expect(await eventually { (try? await Self.applications(harness))?.isEmpty == true }, "\(harness.log)")
        try FileManager.default.createDirectory(at: harness.pluginDirectory, withIntermediateDirectories: false)
        let bundle = "\(Self.app).bundle"
        try FileManager.default.copyItem(at: saved.appendingPathComponent(bundle),
                                         to: harness.pluginDirectory.appendingPathComponent(bundle))
        #expect(await eventually { (try? await Self.applications(harness)) == [Self.app] }, "\(harness.log)")
        #expect(try await Self.getItems(harness) == before)
        #expect(try Data(contentsOf: Self.itemsFile(harness)) == bytes)
    }

    @Test func aBrokerWithFewerPluginFoldersNeverDeletesTheOthersItems() async throws {
        let extra = try TemporaryDirectory.make(prefix: "qa-extra-plugins")
        defer { try? FileManager.default.removeItem(at: extra) }
        let other = Apps.fast("org.example.other")
        try other.write(into: extra)
        let harness = try await BrokerHarness(bundles: [Apps.swift], arguments: ["--plugins", extra.path])
        defer { harness.stop() }
        let bytes = try await Self.seed(harness, apps: [Self.app, other.appID])
        let before = try await Self.getItems(harness, other.appID)
        #expect(before.contains("kept-1"), "\(before)")
        // The full broker saw it 29 days ago; the one with fewer folders
        // never sees it, and must not move that record.
        try Self.writeLastSeen(harness, other.appID, secondsAgo: Self.days(29))
        let record = try Data(contentsOf: Self.lastSeenFile(harness, other.appID))

        let fewer = try ManagedProcess(
            PackagePaths.executable("quickactionsd").path,
            ["--address", harness.bus.address, "--plugins", harness.pluginDirectory.path,
             "--state-dir", harness.stateDirectory.path, "--replace", "--forget-unseen-days", "30"],
            environment: harness.bus.environment(), directory: harness.directory, name: "fewer")
        defer { fewer.stop() }
        #expect(await eventually { (try? await Self.applications(harness)) == [Self.app] })
        let client = try BrokerClient(harness)
        _ = try await client.call("Reload")
        fewer.stop()
        #expect(!fewer.standardError.contains("removed the"), "\(fewer.standardError)")
        #expect(try Data(contentsOf: Self.itemsFile(harness, other.appID)) == bytes)
        #expect(try Data(contentsOf: Self.lastSeenFile(harness, other.appID)) == record, "an unseen app's record never moves")

        try await Self.restartAndSettle(harness)
        #expect(try await Self.applications(harness) == [Self.app, other.appID].sorted())
        #expect(try await Self.getItems(harness, other.appID) == before)
        #expect(try Data(contentsOf: Self.itemsFile(harness, other.appID)) == bytes)
        let seen = try String(contentsOf: Self.lastSeenFile(harness, other.appID), encoding: .utf8)
        #expect(Data(seen.utf8) != record, "the full broker moves the record forward")
    }

    /// A plugin folder that cannot be listed, or a bundle that cannot be read:
    /// its apps are unknown, not absent, and nothing counts towards removal.
    struct Unreadable: Sendable, CustomStringConvertible {
        var description: String
        var reason: String
        /// Breaks the harness's plugin folder (or the bundle in it).
        var make: @Sendable (_ plugins: URL, _ bundle: URL) throws -> Void
    }

    static let unreadable: [Unreadable] = [
        Unreadable(description: "the folder replaced by a file", reason: "not a folder") { plugins, _ in
            try Data("x".utf8).write(to: plugins)
        },
        Unreadable(description: "the folder replaced by a FIFO", reason: "not a folder") { plugins, _ in
            guard mkfifo(plugins.path, 0o600) == 0 else { throw TestSupportError("mkfifo failed") }
        },
        Unreadable(description: "the folder missing", reason: "No such file or directory") { _, _ in },
        Unreadable(description: "the bundle's Info.plist a symlink loop", reason: "Too many levels of symbolic links") { plugins, bundle in
            try FileManager.default.createDirectory(at: plugins, withIntermediateDirectories: true)
            let copy = plugins.appendingPathComponent(bundle.lastPathComponent)
            try FileManager.default.copyItem(at: bundle, to: copy)
            let info = copy.appendingPathComponent("Info.plist")
            try FileManager.default.removeItem(at: info)
            try FileManager.default.createSymbolicLink(atPath: info.path, withDestinationPath: "Info.plist")
        },
    ]

    @Test(arguments: unreadable)
    func aFailedListingNeverCountsAsNotSeen(_ damage: Unreadable) async throws {
        let harness = try await BrokerHarness(bundles: [Apps.swift])
        defer { harness.stop() }
        let bytes = try await Self.seed(harness, extraArguments: ["--forget-unseen-days", "30"])
        let before = try await Self.getItems(harness)
        // Last seen long ago: only the failed listing stands between the items and the rule.
        harness.process.stop()
        try Self.writeLastSeen(harness, secondsAgo: Self.days(40))
        let record = try Data(contentsOf: Self.lastSeenFile(harness))
        let saved = harness.directory.appendingPathComponent("plugins-saved")
        try FileManager.default.moveItem(at: harness.pluginDirectory, to: saved)
        try damage.make(harness.pluginDirectory, saved.appendingPathComponent("\(Self.app).bundle"))

        try await harness.restart(extraArguments: ["--forget-unseen-days", "30"])
        try await Self.reload(harness)
        #expect(try await Self.applications(harness).isEmpty)
        #expect(harness.log.contains(damage.reason), "the log says why: \(harness.log)")
        #expect(!harness.log.contains("removed the"), "\(harness.log)")
        #expect(try Data(contentsOf: Self.itemsFile(harness)) == bytes)
        #expect(try Data(contentsOf: Self.lastSeenFile(harness)) == record)

        try? FileManager.default.removeItem(at: harness.pluginDirectory)
        try FileManager.default.moveItem(at: saved, to: harness.pluginDirectory)
        try await Self.reload(harness)
        #expect(try await Self.applications(harness) == [Self.app])
        #expect(try await Self.getItems(harness) == before)
        #expect(try Data(contentsOf: Self.itemsFile(harness)) == bytes)
    }

    /// The broker out of file descriptors (EMFILE) while it rescans: the
    /// listing fails, the app stays as it was, and nothing moves towards
    /// removal. The broker's RLIMIT_NOFILE is lowered with prlimit to its
    /// lowest free descriptor, so its very next open fails.
    @Test func aListingThatRunsOutOfDescriptorsKeepsTheAppAndItsItems() async throws {
        let harness = try await BrokerHarness(bundles: [Apps.swift])
        defer { harness.stop() }
        let bytes = try await Self.seed(harness, extraArguments: ["--forget-unseen-days", "30"])
        let before = try await Self.getItems(harness)
        harness.process.stop()
        try Self.writeLastSeen(harness, secondsAgo: Self.days(40))
        try await Self.restartAndSettle(harness, extraArguments: ["--forget-unseen-days", "30"])
        // The restart saw the app: its record is now. Age it again while it runs.
        try Self.writeLastSeen(harness, secondsAgo: Self.days(40))
        let record = try Data(contentsOf: Self.lastSeenFile(harness))
        let pid = try #require(harness.process.pid)
        let open = Set(try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").compactMap(Int.init))
        let lowestFree = (0...).first { !open.contains($0) } ?? open.count
        let original = try await Command.run("prlimit", ["--pid", "\(pid)", "--nofile", "--output=SOFT", "--noheadings", "--raw"])
        let soft = original.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try #require(original.status == 0 && !soft.isEmpty, "\(original)")
        // Only the soft limit: raising it back needs no privilege.
        let limited = try await Command.run("prlimit", ["--pid", "\(pid)", "--nofile=\(lowestFree):"])
        try #require(limited.status == 0, "\(limited)")

        try await Self.reload(harness)
        #expect(harness.log.contains("cannot be listed: Too many open files"), "\(harness.log)")
        #expect(try await Self.applications(harness) == [Self.app], "an unlisted folder's app stays")
        #expect(try await Self.getItems(harness) == before)
        #expect(!harness.log.contains("removed"), "\(harness.log)")

        let restored = try await Command.run("prlimit", ["--pid", "\(pid)", "--nofile=\(soft):"])
        try #require(restored.status == 0, "\(restored)")
        #expect(try Data(contentsOf: Self.itemsFile(harness)) == bytes)
        #expect(try Data(contentsOf: Self.lastSeenFile(harness)) == record, "no sighting was recorded while blind")
        try await Self.reload(harness)
        #expect(harness.log.contains("can be listed again"), "\(harness.log)")
        #expect(try await Self.getItems(harness) == before)
        #expect(try Data(contentsOf: Self.itemsFile(harness)) == bytes)
    }

    /// The rule at its edge: unseen for just under the period, kept; just
    /// over, removed with a log line naming the app, its last sighting and
    /// the option.
    @Test func theRetentionRuleRemovesOnlyWhatNoBrokerSawForMoreThanTheGivenDays() async throws {
        let harness = try await BrokerHarness(bundles: [Apps.swift])
        defer { harness.stop() }
        let under = "org.example.under", over = "org.example.over"
        let bytes = try await Self.seed(harness, apps: [Self.app, under, over])
        harness.process.stop()
        let minute: Int64 = 60
        try Self.writeLastSeen(harness, under, secondsAgo: Self.days(3) - minute)
        try Self.writeLastSeen(harness, over, secondsAgo: Self.days(3) + minute)
        try Self.writeLastSeen(harness, Self.app, secondsAgo: Self.days(300))

        // A plugin folder no broker ever listed holds nothing: it does not stop the rule.
        let neverThere = harness.directory.appendingPathComponent("never-there").path
        try await Self.restartAndSettle(harness, extraArguments: ["--forget-unseen-days", "3", "--plugins", neverThere])
        #expect(harness.log.contains("plugin directory \(neverThere) cannot be listed: No such file or directory"))
        #expect(try Data(contentsOf: Self.itemsFile(harness, under)) == bytes)
        #expect(FileManager.default.fileExists(atPath: Self.lastSeenFile(harness, under).path))
        #expect(!FileManager.default.fileExists(atPath: Self.itemsFile(harness, over).path))
        #expect(!FileManager.default.fileExists(atPath: Self.lastSeenFile(harness, over).path))
        let line = harness.log.split(separator: "\n").first { $0.contains("removed the 2 stored dynamic item(s) of \(over)") }
        #expect(line?.contains("more than 3 days (--forget-unseen-days)") == true, "\(harness.log)")
        // An installed app is seen, whatever its record said.
        #expect(try Data(contentsOf: Self.itemsFile(harness)) == bytes)
        let seen = try String(contentsOf: Self.lastSeenFile(harness), encoding: .utf8)
        let seconds = try #require(Int64(seen.dropLast()))
        #expect(abs(seconds - Int64(time(nil))) < 600, "the installed app's record is moved to now: \(seen)")

        // 0 keeps everything for ever.
        try Self.writeLastSeen(harness, under, secondsAgo: Self.days(10_000))
        try await Self.restartAndSettle(harness, extraArguments: ["--forget-unseen-days", "0"])
        #expect(try Data(contentsOf: Self.itemsFile(harness, under)) == bytes)
    }

    @Test func forgetApplicationRemovesOnlyAnUninstalledAppsItems() async throws {
        let harness = try await BrokerHarness(bundles: [Apps.swift])
        defer { harness.stop() }
        let gone = "org.example.gone"
        let bytes = try await Self.seed(harness, apps: [Self.app, gone])

        let installed = try await harness.call("ForgetApplication", "s", [Self.app])
        #expect(installed.status != 0)
        #expect(installed.stderr.contains("is installed"), "\(installed)")
        #expect(try Data(contentsOf: Self.itemsFile(harness)) == bytes)

        let unknown = try await harness.call("ForgetApplication", "s", ["org.example.never"])
        #expect(unknown.stderr.contains("no stored items or record of \"org.example.never\""), "\(unknown)")
        let invalid = try await harness.call("ForgetApplication", "s", ["not an id"])
        #expect(invalid.stderr.contains("is not an app id"), "\(invalid)")

        // gdbus, another client, forgets the uninstalled one.
        let forgot = try await Command.run("gdbus", [
            "call", "--address", harness.bus.address, "--dest", BrokerHarness.busName,
            "--object-path", BrokerHarness.rootPath, "--method", "\(BrokerHarness.interface).ForgetApplication", gone,
        ])
        #expect(forgot.status == 0, "\(forgot)")
        #expect(forgot.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "(uint32 2,)", "\(forgot)")
        #expect(!FileManager.default.fileExists(atPath: Self.itemsFile(harness, gone).path))
        #expect(!FileManager.default.fileExists(atPath: Self.lastSeenFile(harness, gone).path))
        #expect(harness.log.contains("forgot \(gone): removed its 2 stored dynamic item(s)"), "\(harness.log)")
        let again = try await harness.call("ForgetApplication", "s", [gone])
        #expect(again.stderr.contains("no stored items or record"), "\(again)")
    }
}
