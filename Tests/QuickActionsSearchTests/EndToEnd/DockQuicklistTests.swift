import DBus
import Foundation
import QuickActionsSearch
import QuickActionsTestSupport
import Testing

/// Which desktop entry is each app's, as the desktop-entry bridge would say.
struct FixedDesktopEntries: DesktopEntryLookup {
    let entries: [String: (desktopID: String, showsItems: Bool)]
    func desktopEntry(forApp appID: String) -> (desktopID: String, showsItems: Bool)? { entries[appID] }
}

/// Dock quicklists: the bridge in this process (with a desktop-entry lookup a test can set),
/// a real quickactionsd without bridges serving the broker, and libdbusmenu's own client.
@Suite struct DockQuicklistTests {
    static let lookup = FixedDesktopEntries(entries: [
        "com.example.contacts": ("com.example.contacts.desktop", false),
        // Its desktop entry shows the items already (desktop actions): no quicklist.
        "com.example.music": ("com.example.music.desktop", true),
    ])

    static func bridge(_ broker: SearchBroker, lookup: FixedDesktopEntries = lookup) async throws -> SearchService {
        let service = try SearchService(
            bus: .address(broker.harness.bus.address), options: SearchOptions(gnomeShell: false, krunner: false, dock: true),
            environment: broker.harness.bus.environment(), log: .silent, desktopEntries: lookup)
        try await service.start()
        return service
    }

    static let menuPath = "/org/quickactions/Search1/Dock/com_2eexample_2econtacts"

    @Test func libdbusmenuReadsTheQuicklistAndItsClickPerformsThatItem() async throws {
        let broker = try await SearchBroker(examples: ["Contacts", "Music"], arguments: ["--no-search"])
        defer { broker.stop() }
        try await broker.loadContacts()
        let service = try await Self.bridge(broker)
        defer { service.stop() }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Scripts/dock_client.py").path
        let result = try await Command.run(
            "/usr/bin/python3", [script, "application://com.example.contacts.desktop", "Emma Wagner", "Noah Becker"],
            environment: broker.harness.bus.environment(), timeout: .seconds(90))
        #expect(result.status == 0, "\(result)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(json["labels"] as? [String] == ["Search", "Share", "Mia Schneider", "Emma Wagner"], "\(json)")
        // Icons as served (libdbusmenu's client keeps only the properties it renders itself).
        #expect((json["direct"] as? String)?.contains("'label': <'Emma Wagner'>, 'enabled': <true>, 'visible': <true>, 'icon-name': <'avatar-default'>") == true,
                "\(json)")
        #expect(json["labels_after"] as? [String] == ["Search", "Share", "Mia Schneider", "Noah Becker", "Emma Wagner"])
        let updates = (json["updates"] as? [String]) ?? []
        #expect(updates.contains("application://com.example.contacts.desktop"))
        #expect(!updates.contains("application://com.example.music.desktop"), "its desktop entry shows its items: \(updates)")
        #expect(json["quicklists"] as? [String] == [Self.menuPath])
        // Owning com.canonical.Unity made the bridge send the Update again.
        #expect(updates.filter { $0 == "application://com.example.contacts.desktop" }.count >= 1)
        // The click reached the plugin as exactly that item (the broker counted its use by id).
        #expect(try await broker.waitFor { try await broker.usedTitles().contains("Emma Wagner") })
        #expect(!(try await broker.usedTitles()).contains("Mia Schneider"))
    }

    @Test func aDockStartedLaterGetsEveryUpdateAgain() async throws {
        let broker = try await SearchBroker(examples: ["Contacts"], arguments: ["--no-search"])
        defer { broker.stop() }
        let service = try await Self.bridge(broker)
        defer { service.stop() }
        // Once the menu is served its first Update has gone out; listen, then take
        // com.canonical.Unity: only the re-sent Update can arrive.
        #expect(try await broker.waitFor {
            try await Command.run("gdbus", ["call", "--address", broker.harness.bus.address, "--dest", service.connection.uniqueName,
                                            "--object-path", Self.menuPath, "--method", "com.canonical.dbusmenu.AboutToShow", "0"]).status == 0
        })
        let monitor = try ManagedProcess(
            "dbus-monitor", ["--address", broker.harness.bus.address,
                             "type='signal',interface='com.canonical.Unity.LauncherEntry',member='Update'"],
            directory: broker.harness.bus.directory, name: "monitor")
        defer { monitor.stop() }
        #expect(try await broker.waitFor { monitor.standardOutput.contains("member=NameAcquired") || monitor.standardOutput.contains("signal") })
        let owner = try Connection(.address(broker.harness.bus.address))
        defer { owner.close() }
        _ = try await owner.requestName("com.canonical.Unity")
        #expect(try await broker.waitFor { monitor.standardOutput.contains("application://com.example.contacts.desktop") },
                "\(monitor.standardOutput)")
        #expect(monitor.standardOutput.contains("object path \"\(Self.menuPath)\""), "\(monitor.standardOutput)")
    }

    @Test func anAppThatGoesAwayLosesItsQuicklist() async throws {
        let broker = try await SearchBroker(examples: ["Contacts"], arguments: ["--no-search"])
        defer { broker.stop() }
        let service = try await Self.bridge(broker)
        defer { service.stop() }
        func aboutToShow() async throws -> CommandResult {
            try await Command.run("gdbus", ["call", "--address", broker.harness.bus.address, "--dest", service.connection.uniqueName,
                                            "--object-path", Self.menuPath, "--method", "com.canonical.dbusmenu.AboutToShow", "0"])
        }
        #expect(try await broker.waitFor { try await aboutToShow().status == 0 })
        let monitor = try ManagedProcess(
            "dbus-monitor", ["--address", broker.harness.bus.address,
                             "type='signal',interface='com.canonical.Unity.LauncherEntry',member='Update'"],
            directory: broker.harness.bus.directory, name: "monitor-removal")
        defer { monitor.stop() }
        #expect(try await broker.waitFor { monitor.standardOutput.contains("NameAcquired") })
        // The bundle goes: the broker rescans (its directory watch), says ApplicationsChanged.
        try FileManager.default.removeItem(at: broker.plugins.appendingPathComponent("Contacts.bundle"))
        #expect(try await broker.waitFor { monitor.standardOutput.contains("object path \"/\"") }, "\(monitor.standardOutput)")
        #expect(monitor.standardOutput.contains("application://com.example.contacts.desktop"))
        #expect(try await broker.waitFor { try await aboutToShow().status != 0 }, "the menu is no longer served")
    }

    @Test func gdbusCallsEveryDbusmenuMethod() async throws {
        let broker = try await SearchBroker(examples: ["Contacts"], arguments: ["--no-search"])
        defer { broker.stop() }
        try await broker.loadContacts()
        let service = try await Self.bridge(broker)
        defer { service.stop() }
        func call(_ method: String, _ arguments: [String]) async throws -> CommandResult {
            try await Command.run("gdbus", ["call", "--address", broker.harness.bus.address, "--dest", service.connection.uniqueName,
                                            "--object-path", Self.menuPath, "--method", "com.canonical.dbusmenu.\(method)"] + arguments)
        }
        #expect(try await broker.waitFor { (try await call("GetLayout", ["0", "@i -1", "[]"])).stdout.contains("Emma Wagner") })
        let layout = try await call("GetLayout", ["0", "@i -1", "['label']"])
        #expect(layout.stdout.contains("{'label': <'Mia Schneider'>}") && !layout.stdout.contains("icon-name"), "\(layout)")
        let shallow = try await call("GetLayout", ["0", "0", "[]"])
        #expect(shallow.stdout.contains("'children-display': <'submenu'>}, @av [])"), "\(shallow)")
        let group = try await call("GetGroupProperties", ["[4]", "['label', 'icon-name']"])
        #expect(group.stdout == "([(4, {'label': <'Emma Wagner'>, 'icon-name': <'avatar-default'>})],)\n", "\(group)")
        let property = try await call("GetProperty", ["3", "label"])
        #expect(property.stdout == "(<'Mia Schneider'>,)\n", "\(property)")
        #expect(try await call("AboutToShow", ["0"]).stdout == "(false,)\n")
        #expect(try await call("AboutToShowGroup", ["[0, 3, 99]"]).stdout == "(@ai [], [99])\n")
        let events = try await call("EventGroup", ["[(4, 'clicked', <0>, 0), (99, 'clicked', <0>, 0)]"])
        #expect(events.stdout == "([99],)\n", "\(events)")
        #expect(try await broker.waitFor { try await broker.usedTitles().contains("Emma Wagner") })
        #expect(try await call("Event", ["3", "hovered", "<0>", "0"]).status == 0)
        let unknown = try await call("Event", ["99", "clicked", "<0>", "0"])
        #expect(unknown.status != 0 && unknown.stderr.contains("no item 99"), "\(unknown)")
        let noProperty = try await call("GetProperty", ["3", "nothing"])
        #expect(noProperty.status != 0 && noProperty.stderr.contains("nothing"), "\(noProperty)")
        let version = try await Command.run("gdbus", ["call", "--address", broker.harness.bus.address, "--dest",
                                                      service.connection.uniqueName, "--object-path", Self.menuPath, "--method",
                                                      "org.freedesktop.DBus.Properties.Get", "com.canonical.dbusmenu", "Version"])
        #expect(version.stdout == "(<uint32 3>,)\n", "\(version)")
        #expect(!(try await broker.usedTitles()).contains("Mia Schneider"), "hovering is not a click")
    }

    @Test func labelsShowUnderscoresAsTyped() {
        #expect(DbusMenu.label("Save_as _Draft") == "Save__as __Draft")
    }
}
