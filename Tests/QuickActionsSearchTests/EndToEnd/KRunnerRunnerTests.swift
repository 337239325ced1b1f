import Foundation
import QuickActionsSearch
import QuickActionsTestSupport
import Testing

/// org.kde.krunner1 on a private bus, driven by gdbus and python3's dbus as KRunner's
/// DBusRunner drives it, against KDE's own interface file; the runner file; failures
/// reported through a notification server.
@Suite struct KRunnerRunnerTests {
    static let interface = "org.kde.krunner1"

    @Test func introspectionHasKDEsInterfaceExactly() async throws {
        let broker = try await SearchBroker()
        defer { broker.stop() }
        try await broker.waitForSearch()
        let live = try await Command.run("gdbus", ["introspect", "--address", broker.harness.bus.address, "--dest",
                                                   SearchBroker.search, "--object-path", SearchBroker.krunnerPath, "--xml"])
        #expect(live.status == 0, "\(live)")
        let official = try String(contentsOf: try await OfficialInterfaces.krunner1, encoding: .utf8)
        let kf5 = try InterfaceMembers.of(Self.interface, inXML: official)
        // KF5's file spells Config's a{sv} (QVariantMap) as "{sv}", which is no D-Bus type.
        #expect(kf5.contains("method Config(out {sv} config)"), "\(kf5)")
        let expected = Set(kf5.map { $0.replacingOccurrences(of: "out {sv} config", with: "out a{sv} config") })
        let served = try InterfaceMembers.of(Self.interface, inXML: live.stdout)
        #expect(served.isSuperset(of: expected), "missing: \(expected.subtracting(served))")
        #expect(served.subtracting(expected) == ["method SetActivationToken(in s token)"], "Plasma 6's one addition")
    }

    @Test func theRunnerFileIsWrittenPerUserAndMatchesTheInstalledOne() async throws {
        let broker = try await SearchBroker()
        defer { broker.stop() }
        try await broker.waitForSearch()
        let file = broker.harness.bus.directory.appendingPathComponent("data-home/krunner/dbusplugins/org.quickactions.Search1.desktop")
        #expect(try await broker.waitFor { FileManager.default.fileExists(atPath: file.path) }, "\(broker.harness.log)")
        let written = try String(contentsOf: file, encoding: .utf8)
        let shipped = try String(contentsOf: PackagePaths.root.appendingPathComponent("desktop/org.quickactions.Search1.krunner.desktop"),
                                 encoding: .utf8)
        #expect(written == shipped)
        #expect(written == KRunnerMetadata.contents)
        let keys = Dictionary(written.split(separator: "\n").compactMap { line -> (String, String)? in
            guard let equals = line.firstIndex(of: "=") else { return nil }
            return (String(line[..<equals]), String(line[line.index(after: equals)...]))
        }, uniquingKeysWith: { first, _ in first })
        #expect(keys["X-Plasma-API"] == "DBus2")
        #expect(keys["X-Plasma-DBusRunner-Service"] == SearchBroker.search)
        #expect(keys["X-Plasma-DBusRunner-Path"] == SearchBroker.krunnerPath)
    }

    @Test func noKRunnerMeansNoObjectAndNoFile() async throws {
        let broker = try await SearchBroker(arguments: ["--no-krunner"])
        defer { broker.stop() }
        try await broker.waitForSearch()
        let tree = try await broker.harness.busctl(["tree", "--list", SearchBroker.search])
        #expect(tree.stdout.contains(SearchBroker.gnomeShellPath) && !tree.stdout.contains(SearchBroker.krunnerPath), "\(tree)")
        let folder = broker.harness.bus.directory.appendingPathComponent("data-home/krunner")
        #expect(!FileManager.default.fileExists(atPath: folder.path))
    }

    @Test func noSearchServesNoName() async throws {
        let broker = try await SearchBroker(arguments: ["--no-search"])
        defer { broker.stop() }
        // The broker serves; its bridges never take their name.
        let status = try await broker.harness.busctl(["status", SearchBroker.search])
        #expect(status.status != 0, "\(status)")
        #expect(!broker.harness.log.contains("org.quickactions.Search1"), "\(broker.harness.log)")
    }

    @Test func pythonMatchesAndRunsTheSecondFavorite() async throws {
        let broker = try await SearchBroker()
        defer { broker.stop() }
        try await broker.loadContacts()
        try await broker.waitForSearch()
        let emma = try await broker.resultID(ofTitle: "Emma Wagner")
        let result = try await broker.python("krunner_client.py", ["wag", emma])
        #expect(result.status == 0, "\(result)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect((json["config"] as? [String: Int])?["MinLetterCount"] == 2)
        #expect((json["actions"] as? [Any])?.isEmpty == true)
        let matches = (json["matches"] as? [[String: Any]]) ?? []
        #expect(matches.count == 1, "\(matches)")
        let match = try #require(matches.first)
        #expect(match["id"] as? String == emma)
        #expect(match["text"] as? String == "Emma Wagner")
        #expect(match["icon"] as? String == "avatar-default")
        #expect(match["type"] as? Int == 30)
        #expect(match["subtext"] as? String == "Contacts — emma@example.org")
        #expect(match["category"] as? String == "Contacts")
        #expect((match["relevance"] as? Double).map { $0 > 0 && $0 <= 1 } == true)
        // Run answers at once; the Perform of exactly that item follows.
        let ran = try await broker.waitFor { try await broker.usedTitles() == ["Emma Wagner", "Search"] }
        let used = try await broker.usedTitles()
        #expect(ran, "used: \(used)")
        let exact = try await broker.python("krunner_client.py", ["emma wagner"])
        let exactMatches = (try JSONSerialization.jsonObject(with: Data(exact.stdout.utf8)) as? [String: Any])?["matches"] as? [[String: Any]]
        #expect(exactMatches?.first?["type"] as? Int == 100, "\(exact)")
    }

    @Test func gdbusMatchAndRun() async throws {
        let broker = try await SearchBroker()
        defer { broker.stop() }
        try await broker.loadContacts()
        try await broker.waitForSearch()
        let emma = try await broker.resultID(ofTitle: "Emma Wagner")
        let found = try await broker.gdbus(["--object-path", SearchBroker.krunnerPath, "--method", "org.kde.krunner1.Match", "wagner"])
        #expect(found.status == 0 && found.stdout.hasPrefix("([('\(emma)', 'Emma Wagner', 'avatar-default', 30, "), "\(found)")
        let run = try await broker.gdbus(["--object-path", SearchBroker.krunnerPath, "--method", "org.kde.krunner1.Run", emma, ""])
        #expect(run.status == 0 && run.stdout == "()\n", "\(run)")
        #expect(try await broker.waitFor { try await broker.usedTitles() == ["Emma Wagner", "Search"] })
        let junk = try await broker.gdbus(["--object-path", SearchBroker.krunnerPath, "--method", "org.kde.krunner1.Run", "junk", ""])
        #expect(junk.status != 0 && junk.stderr.contains("junk"), "\(junk)")
    }

    @Test func failedAndTimedOutRunsAreNotified() async throws {
        let harness = try await BrokerHarness(bundles: [TestApps.cApp, TestApps.swiftApp], arguments: ["--timeout-ms", "300"])
        defer { harness.stop() }
        let server = try await NotificationServer(bus: harness.bus)
        defer { server.stop() }
        func run(_ id: String) async throws {
            let result = try await Command.run("gdbus", ["call", "--address", harness.bus.address, "--dest", SearchBroker.search,
                                                         "--object-path", SearchBroker.krunnerPath, "--method",
                                                         "org.kde.krunner1.Run", id, ""])
            #expect(result.status == 0, "\(result)")
        }
        let search = SearchBrokerWait(harness: harness)
        try await search.waitForSearch()
        try await run("org.example.c/fail")
        try await run("org.example.swift/never")
        try await run("org.example.c/gone")
        #expect(try await search.waitFor { server.received.count == 3 }, "\(server.received) \(harness.log)")
        let bySummary = Dictionary(server.received.map { (($0["summary"] as? String) ?? "", $0) }, uniquingKeysWith: { a, _ in a })
        #expect((bySummary["Fail failed"]?["body"] as? String)?.hasPrefix("C Example: ") == true, "\(server.received)")
        #expect(bySummary["Never completes failed"]?["body"] as? String == "Swift Example: it did not complete in time",
                "\(server.received)")
        #expect(bySummary["Quick action not performed"]?["body"] as? String == "org.example.c no longer offers the item gone.")
        #expect(server.received.allSatisfy { $0["app_name"] as? String == "Quick Actions" && $0["urgency"] as? Int == 1 })

        // Without a notification server, the log says it.
        server.stop()
        try await run("org.example.c/fail")
        #expect(try await search.waitFor { harness.log.contains("Fail failed: C Example") && harness.log.contains("no notification server") },
                "\(harness.log)")
    }
}

/// Waiting helpers for a plain BrokerHarness.
struct SearchBrokerWait {
    let harness: BrokerHarness

    func waitForSearch() async throws {
        guard try await waitFor({ try await harness.busctl(["status", SearchBroker.search]).status == 0 }) else {
            throw TestSupportError("\(SearchBroker.search) has no owner: \(harness.log)")
        }
    }

    func waitFor(timeout: Duration = .seconds(20), _ condition: () async throws -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if try await condition() { return true }
            try await Task.sleep(for: .milliseconds(25))
        }
        return try await condition()
    }
}
