import Foundation
import QuickActionsTestSupport
import Testing

/// An installed application's desktop action and recent document (issue 33) reach GNOME
/// Shell's search provider and the dock quicklists as their real clients see them.
@Suite struct ProvidedSearchTests {
    static let method = "org.gnome.Shell.SearchProvider2."

    @Test func gnomeShellFindsTheDesktopActionAndTheRecentDocumentAndActivatesThem() async throws {
        let apps = try await ProvidedApps()
        defer { apps.stop() }
        try await apps.waitForItems()
        try await apps.broker.waitForSearch()
        let broker = apps.broker
        let action = try await apps.resultID("New Window")
        let document = try await apps.resultID("notes.txt")
        #expect(document == "\(ProvidedApps.editor)/\(apps.notes.absoluteString)", "the document's id is its URI")

        let windows = try await broker.gdbus(["--object-path", SearchBroker.gnomeShellPath,
                                              "--method", Self.method + "GetInitialResultSet", "['window']"])
        #expect(windows.stdout == "(['\(action)'],)\n", "\(windows)")
        let notes = try await broker.gdbus(["--object-path", SearchBroker.gnomeShellPath,
                                            "--method", Self.method + "GetInitialResultSet", "['notes']"])
        #expect(notes.stdout == "(['\(document)'],)\n", "\(notes)")
        let metas = try await broker.gdbus(["--object-path", SearchBroker.gnomeShellPath,
                                            "--method", Self.method + "GetResultMetas", "['\(action)', '\(document)']"])
        #expect(metas.stdout.contains("'name': <'New Window'>") && metas.stdout.contains("'name': <'notes.txt'>"), "\(metas)")
        #expect(metas.stdout.contains("~/Documents"), "the document's folder, home as ~: \(metas)")

        let ranAction = try await broker.gdbus(["--object-path", SearchBroker.gnomeShellPath,
                                                "--method", Self.method + "ActivateResult", action, "['window']", "0"])
        #expect(ranAction.status == 0, "\(ranAction)")
        #expect(await eventually { apps.world.recorded()?.dropLast() == ["--new-window"] },
                "\(String(describing: apps.world.recorded()))")
        try FileManager.default.removeItem(at: apps.world.record)
        let ranDocument = try await broker.gdbus(["--object-path", SearchBroker.gnomeShellPath,
                                                  "--method", Self.method + "ActivateResult", document, "['notes']", "0"])
        #expect(ranDocument.status == 0, "\(ranDocument)")
        #expect(await eventually { apps.world.recorded()?.dropLast() == [apps.notes.absoluteString] },
                "the editor got the file's URI: \(String(describing: apps.world.recorded()))")
    }

    /// Whether the dock bridge serves a menu object for `appID`.
    static func servesQuicklist(_ broker: SearchBroker, _ appID: String) async throws -> Bool {
        let tree = try await broker.harness.busctl(["tree", "--list", SearchBroker.search])
        let escaped = appID.replacingOccurrences(of: ".", with: "_2e").replacingOccurrences(of: "-", with: "_2d")
        return tree.stdout.split(separator: "\n").contains { $0 == "/org/quickactions/Search1/Dock/\(escaped)" }
    }

    @Test func theQuicklistCarriesTheRecentDocumentNotTheDesktopAction() async throws {
        // The desktop-entry bridge stays off (the harness's default): the lookup is the original entries.
        let apps = try await ProvidedApps(arguments: ["--no-gnome-shell", "--no-krunner"])
        defer { apps.stop() }
        try await apps.waitForItems()
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Scripts/dock_quicklist.py").path
        let result = try await Command.run(
            "/usr/bin/python3", [script, "application://\(ProvidedApps.editor).desktop", "notes.txt"],
            environment: apps.broker.harness.bus.environment(), timeout: .seconds(90))
        #expect(result.status == 0, "\(result)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(json["labels"] as? [String] == ["notes.txt"], "the document, and not New Window: \(json)")
        // The app that brings only its own actions: no quicklist ("/" or no Update at all).
        let updates = (json["updates"] as? [[String]]) ?? []
        let actionsOnly = updates.filter { $0.first == "application://\(ProvidedApps.actionsOnly).desktop" }
        #expect(actionsOnly.allSatisfy { $0.last == "/" }, "\(updates)")
        #expect(try await Self.servesQuicklist(apps.broker, ProvidedApps.editor))
        #expect(try await !Self.servesQuicklist(apps.broker, ProvidedApps.actionsOnly), "\(apps.broker.harness.log)")
    }

    /// An application installed in a subfolder (vendor/writer.desktop, desktop id
    /// vendor-writer.desktop) gets its quicklist with the desktop-entry bridge off too: the
    /// lookup asks the installed applications, not a file named after the app id.
    @Test func anApplicationInASubfolderGetsItsQuicklist() async throws {
        let world = try DesktopWorld(prefix: "qa-search-subfolder")
        defer { world.remove() }
        let vendor = world.applications.appendingPathComponent("vendor")
        try FileManager.default.createDirectory(at: vendor, withIntermediateDirectories: true)
        try Data(world.editor(name: "Writer").utf8).write(to: vendor.appendingPathComponent("writer.desktop"))
        let notes = try world.document("draft.txt")
        let broker = try await SearchBroker(
            examples: [], arguments: ["--no-gnome-shell", "--no-krunner"], environment: world.environment())
        defer { broker.stop() }
        try await world.recentlyUsed([notes], by: world.recorder.path, name: "Recorder", into: broker.harness.bus.dataHome)
        #expect(try await broker.waitFor { try await broker.items("vendor-writer").map(\.title).contains("draft.txt") },
                "\(broker.harness.log)")
        #expect(try await broker.waitFor { try await Self.servesQuicklist(broker, "vendor-writer") }, "\(broker.harness.log)")
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Scripts/dock_quicklist.py").path
        let result = try await Command.run(
            "/usr/bin/python3", [script, "application://vendor-writer.desktop", "draft.txt"],
            environment: broker.harness.bus.environment(), timeout: .seconds(90))
        #expect(result.status == 0, "\(result)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(json["labels"] as? [String] == ["draft.txt"], "\(json)")
    }
}
