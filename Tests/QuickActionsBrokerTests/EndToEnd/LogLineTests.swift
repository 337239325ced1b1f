import Foundation
import QuickActionsTestSupport
import Testing

/// The broker's log as an administrator reads it (issue 18, "Logs"): one line
/// per event with one level, plain words, and sd-daemon priorities when
/// stderr is the journal.
@Suite("log lines, end to end")
struct LogLineTests {
    /// A line whose message carries a second level after the first one.
    static func doubledLevel(_ line: Substring) -> Bool {
        ["error", "warning", "info", "debug"].contains { line.dropFirst().contains(": \($0): ") }
    }

    @Test("a load failure is one error line; a bad bundle is one line with one level; no NSError dumps")
    func loadFailuresAndBadBundles() async throws {
        // A JOURNAL_STREAM that is not fd 2: lines carry no priority prefix.
        let harness = try await BrokerHarness(bundles: [Fixtures.brokenApp], environment: ["JOURNAL_STREAM": "1:1"])
        defer { harness.stop() }
        // A library that is not a shared object, and a bundle whose Info.plist is cut short.
        var garbage = Fixtures.cApp
        garbage.appID = "org.example.garbage"
        let garbageBundle = try garbage.write(into: harness.pluginDirectory)
        let library = garbageBundle.appendingPathComponent(garbage.executable)
        try Data("not an ELF file".utf8).write(to: library)
        let cut = harness.pluginDirectory.appendingPathComponent("Cut.bundle")
        try FileManager.default.createDirectory(at: cut, withIntermediateDirectories: true)
        try Data("<plist><dict><key>x</key>".utf8).write(to: cut.appendingPathComponent("Info.plist"))
        // A broker that finds them at start, so one scan reports them (the
        // first broker's directory watcher may have rescanned meanwhile).
        try await harness.restart()

        let broken = try await harness.call("Perform", "ssa{sv}", ["org.example.broken", "hello", "0"])
        #expect(broken.status != 0 && broken.stderr.contains("init failed"), "\(broken)")
        let notLoadable = try await harness.call("Perform", "ssa{sv}", ["org.example.garbage", "succeed", "0"])
        #expect(notLoadable.status != 0 && notLoadable.stderr.contains("not loadable"), "\(notLoadable)")

        let lines = harness.log.split(separator: "\n")
        #expect(!lines.isEmpty)
        for line in lines {
            #expect(["error: ", "warning: ", "info: ", "debug: "].contains { line.hasPrefix($0) }, "\(line)")
            #expect(!Self.doubledLevel(line), "doubled level: \(line)")
            #expect(!line.contains("Error Domain=") && !line.contains("UserInfo="), "raw NSError: \(line)")
        }
        let initFailure = lines.filter { $0.contains("org.example.broken") && $0.contains("init failed") }
        #expect(initFailure.count == 1, "\(lines)")
        #expect(initFailure.first?.hasPrefix("error: ") == true)
        let garbageFailure = lines.filter { $0.contains(library.path) }
        #expect(garbageFailure.count == 1, "\(lines)")
        #expect(garbageFailure.first.map { $0.hasPrefix("error: ") && $0.contains("not loadable") } == true,
                "\(garbageFailure)")
        // The library's path once, not again from dlerror.
        #expect(garbageFailure.first.map { $0.components(separatedBy: library.path).count == 2 } == true,
                "\(garbageFailure)")
        let plist = cut.appendingPathComponent("Info.plist").path
        let cutLines = lines.filter { $0.contains(plist) }
        #expect(cutLines.count == 1, "\(lines)")
        #expect(cutLines.first?.hasPrefix("error: \(plist): ") == true, "\(cutLines)")
    }

    @Test("a bad bundle is said once however often the broker rescans, and again when it breaks anew")
    func aBadBundleIsOneLineAcrossRescans() async throws {
        let harness = try await BrokerHarness()
        defer { harness.stop() }
        let cut = harness.pluginDirectory.appendingPathComponent("Cut.bundle")
        let plist = cut.appendingPathComponent("Info.plist")
        let lines = { harness.log.split(separator: "\n").filter { $0.contains(plist.path) }.count }
        // Each broken bundle appears whole (made beside the folder, then renamed into it): the
        // folder watcher's own rescan must not catch a bundle without its Info.plist yet, a
        // different fault that would rightly be a line of its own.
        let staging = try TemporaryDirectory.make(prefix: "qa-cut")
        defer { try? FileManager.default.removeItem(at: staging) }
        func place(_ contents: String) throws {
            let made = staging.appendingPathComponent("Cut.bundle")
            try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true)
            try Data(contents.utf8).write(to: made.appendingPathComponent("Info.plist"))
            try FileManager.default.moveItem(at: made, to: cut)
        }
        try place("<plist><dict><key>x</key>")
        for round in 0..<3 {
            let reload = try await harness.call("Reload")
            #expect(reload.status == 0, "round \(round): \(reload)")
        }
        #expect(lines() == 1, "\(harness.log)")
        // Mended, then broken again: a new event, a new line. The bundle leaves whole too
        // (renamed out, then deleted): removing it in place unlinks its Info.plist first, and a
        // rescan in between would rightly log the bundle without one (CI, 93c25d2).
        let gone = staging.appendingPathComponent("Gone.bundle")
        try FileManager.default.moveItem(at: cut, to: gone)
        try FileManager.default.removeItem(at: gone)
        #expect(try await harness.call("Reload").status == 0)
        try place("<plist><dict>")
        #expect(try await harness.call("Reload").status == 0)
        #expect(try await harness.call("Reload").status == 0)
        #expect(lines() == 2, "\(harness.log)")
    }

    @Test("with stderr on the journal, every line starts with its sd-daemon priority")
    func journalPriorities() async throws {
        let bus = try await TestBus()
        defer { bus.stop() }
        let directory = try TemporaryDirectory.make(prefix: "qa-journal")
        defer { try? FileManager.default.removeItem(at: directory) }
        let plugins = directory.appendingPathComponent("plugins")
        let cut = plugins.appendingPathComponent("Cut.bundle")
        try FileManager.default.createDirectory(at: cut, withIntermediateDirectories: true)
        try Data("<plist><dict>".utf8).write(to: cut.appendingPathComponent("Info.plist"))
        // What systemd does: JOURNAL_STREAM names the device and inode of the stream on fd 2.
        let stderrFile = directory.appendingPathComponent("broker.stderr")
        try Data().write(to: stderrFile)
        var status = stat()
        try #require(stat(stderrFile.path, &status) == 0)
        let stream = "\(status.st_dev):\(status.st_ino)"
        let broker = try ManagedProcess(
            PackagePaths.executable("quickactionsd").path,
            ["--address", bus.address, "--plugins", plugins.path, "--state-dir", directory.appendingPathComponent("state").path],
            environment: bus.environment(["JOURNAL_STREAM": stream]), directory: directory, name: "broker")
        defer { broker.stop() }
        #expect(await eventually { broker.standardError.contains("serving ") }, "\(broker.standardError)")
        broker.signal(SIGTERM)
        _ = broker.waitForExit(timeout: .seconds(15))

        let lines = broker.standardError.split(separator: "\n")
        let prefixes = ["<3>error: ", "<4>warning: ", "<6>info: ", "<7>debug: "]
        for line in lines {
            #expect(prefixes.contains { line.hasPrefix($0) }, "\(line)")
        }
        #expect(lines.contains { $0.hasPrefix("<6>info: serving ") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("<3>error: \(cut.path)/Info.plist: ") }, "\(lines)")
    }
}
