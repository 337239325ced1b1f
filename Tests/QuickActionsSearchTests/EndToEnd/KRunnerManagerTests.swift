import Foundation
import Glibc
import QuickActionsTestSupport
import Testing

/// KRunner's own RunnerManager (KF5, libkf5runner-dev) loads the runner from the file the
/// broker writes, asks it over D-Bus and runs a match: the strongest proof that Plasma's
/// KRunner will load and use it. The harness (KRunnerHarness/krunner_harness.cpp) is built
/// with g++ into .build/krunner-harness on first use.
@Suite struct KRunnerManagerTests {
    static let header = "/usr/include/KF5/KRunner/KRunner/RunnerManager"
    static var available: Bool { FileManager.default.fileExists(atPath: header) && Command.exists("g++") }

    /// The harness binary, built once per test run when missing or older than its source:
    /// tests running side by side share the one build (one writing the binary while another
    /// starts it fails with ETXTBSY).
    static func harness() async throws -> URL { try await built.value }

    private static let built = Task { try await build() }

    private static func build() async throws -> URL {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("KRunnerHarness/krunner_harness.cpp")
        let folder = PackagePaths.root.appendingPathComponent(".build/krunner-harness")
        let binary = folder.appendingPathComponent("krunner_harness")
        let files = FileManager.default
        if let built = try? files.attributesOfItem(atPath: binary.path)[.modificationDate] as? Date,
           let written = try? files.attributesOfItem(atPath: source.path)[.modificationDate] as? Date, built > written {
            return binary
        }
        try files.createDirectory(at: folder, withIntermediateDirectories: true)
        let flags = try await Command.run("pkg-config", ["--cflags", "--libs", "Qt5Core", "Qt5DBus", "Qt5Gui"])
        guard flags.status == 0 else { throw TestSupportError("pkg-config found no Qt5: \(flags)") }
        let includes = ["KRunner", "", "Plasma", "KCoreAddons", "KConfigCore", "KService"].map { "-I/usr/include/KF5/\($0)" }
        let compiled = try await Command.run(
            "g++", ["-std=c++17", "-fPIC", "-w", "-o", binary.path + ".tmp", source.path] + includes
                + flags.stdout.split(whereSeparator: \.isWhitespace).map(String.init)
                + ["-lKF5Runner", "-lKF5CoreAddons", "-lKF5ConfigCore"],
            timeout: .seconds(300))
        guard compiled.status == 0 else { throw TestSupportError("the KRunner harness did not build: \(compiled)") }
        guard rename(binary.path + ".tmp", binary.path) == 0 else {
            throw TestSupportError("cannot rename the KRunner harness into \(binary.path): errno \(errno)")
        }
        return binary
    }

    /// The harness's environment: KDE's libraries read and write only below the test's
    /// folders; the runner file is in the XDG_DATA_HOME the broker got (the bus's data-home),
    /// and no system runner is seen.
    static func kdeEnvironment(_ broker: SearchBroker) throws -> [String: String] {
        let folder = broker.harness.bus.directory
        var environment = broker.harness.bus.environment()
        for (key, name) in [("XDG_CONFIG_HOME", "kde-config"), ("XDG_CACHE_HOME", "kde-cache"), ("HOME", "kde-home"),
                            ("XDG_DATA_DIRS", "no-system-data"), ("XDG_RUNTIME_DIR", "kde-runtime")] {
            let path = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: path, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            environment[key] = path.path
        }
        environment["QT_QPA_PLATFORM"] = "offscreen"
        return environment
    }

    /// The harness's "match" lines, split at tabs: id, text, subtext, relevance, runner id.
    static func matches(_ result: CommandResult) -> [[String]] {
        result.stdout.split(separator: "\n").filter { $0.hasPrefix("match\t") }
            .map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
    }

    @Test(.enabled(if: available, "needs libkf5runner-dev and g++ (scripts/ensure-deps.sh)"))
    func krunnersRunnerManagerFindsAnInstalledAppsDesktopActionAndRecentDocument() async throws {
        let binary = try await Self.harness()
        let apps = try await ProvidedApps(arguments: ["--no-gnome-shell", "--no-dock"])
        defer { apps.stop() }
        try await apps.waitForItems()
        try await apps.broker.waitForSearch()
        let environment = try Self.kdeEnvironment(apps.broker)

        let action = try await Command.run(binary.path, ["new win", "New Window"], environment: environment, timeout: .seconds(90))
        #expect(action.status == 0, "\(action)")
        let actionMatch = Self.matches(action).first { $0[2] == "New Window" }
        #expect(actionMatch?[1] == "\(ProvidedApps.editor)/new-window" || actionMatch?[1].hasSuffix("\(ProvidedApps.editor)/new-window") == true,
                "\(action)")
        #expect(actionMatch?[3] == "Editor", "\(action)")
        #expect(actionMatch?[5] == "org.quickactions.Search1", "\(action)")
        #expect(await eventually { apps.world.recorded()?.dropLast() == ["--new-window"] },
                "the action ran with its Exec's arguments: \(String(describing: apps.world.recorded())); \(apps.broker.harness.log)")

        try FileManager.default.removeItem(at: apps.world.record)
        let document = try await Command.run(binary.path, ["notes", "notes.txt"], environment: environment, timeout: .seconds(90))
        #expect(document.status == 0, "\(document)")
        let documentMatch = Self.matches(document).first { $0[2] == "notes.txt" }
        #expect(documentMatch?[3] == "Editor — ~/Documents", "\(document)")
        #expect(await eventually { apps.world.recorded()?.dropLast() == [apps.notes.absoluteString] },
                "the editor got the document's URI: \(String(describing: apps.world.recorded()))")
    }

    @Test(.enabled(if: available, "needs libkf5runner-dev and g++ (scripts/ensure-deps.sh)"))
    func krunnersRunnerManagerFindsAndRunsTheSecondFavorite() async throws {
        let binary = try await Self.harness()
        let broker = try await SearchBroker()
        defer { broker.stop() }
        try await broker.loadContacts()
        try await broker.waitForSearch()
        let environment = try Self.kdeEnvironment(broker)
        let result = try await Command.run(binary.path, ["wag", "Emma Wagner"], environment: environment, timeout: .seconds(90))
        #expect(result.status == 0, "\(result)")
        let matches = Self.matches(result)
        #expect(matches.count == 1, "\(result)")
        #expect(matches.first?[2] == "Emma Wagner" && matches.first?[3] == "Contacts — emma@example.org", "\(result)")
        #expect(matches.first?[5] == "org.quickactions.Search1", "\(result)")
        #expect(result.stdout.contains("ran\tEmma Wagner"), "\(result)")
        #expect(try await broker.waitFor { try await broker.usedTitles() == ["Emma Wagner", "Search"] },
                "the run reached the plugin as that item")
    }
}
