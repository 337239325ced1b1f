import Foundation
import QuickActionsDesktopEntries
import QuickActionsTestSupport
import Testing

/// The bridge inside a real quickactionsd, judged by desktop-file-validate and by GLib's
/// Gio.DesktopAppInfo (what GNOME Shell and the docks use), launching actions for real.
@Suite struct DesktopEntriesEndToEndTests {
    static let contactsEntry = "\(DesktopBroker.contacts).desktop"

    /// Loads Contacts (its favorites appear) and waits for the entry to show all four items.
    @discardableResult
    static func contactsWithFavorites(_ broker: DesktopBroker) async throws -> String {
        try await broker.perform(DesktopBroker.contacts, "SearchAction")
        return try await broker.waitForFile(contactsEntry, "has the favorites") { $0.contains("Name=Emma Wagner") }
    }

    @Test func glibResolvesTheUsersCopyListsTheItemsLocalisedAndLaunchesTheSecondFavorite() async throws {
        let broker = try await DesktopBroker(originals: [Self.contactsEntry: DesktopBroker.original(name: "Contacts", extra: "Name[de]=Kontakte")])
        defer { broker.stop() }
        let text = try await Self.contactsWithFavorites(broker)
        try await EntryTools.expectValid(broker.userPath(Self.contactsEntry))
        // Each action has its item's icon, as the broker lists it.
        let file = try DesktopEntryParser.parse(text)
        let listed = try await broker.listedIcons(DesktopBroker.contacts)
        #expect(listed.count == 4 && listed.allSatisfy { $0 != nil })
        #expect((1...4).map { file.group("Desktop Action quickactions-\($0)")?.value("Icon") } == listed)
        // Every line of the original is kept.
        for line in DesktopBroker.original(name: "Contacts", extra: "Name[de]=Kontakte").split(separator: "\n") {
            #expect(text.contains(line + "\n"), "lost \(line)")
        }

        let info = try await EntryTools.info(["info", Self.contactsEntry], environment: broker.gioEnvironment())
        #expect(info.filename == broker.userPath(Self.contactsEntry))
        #expect(info.actions?.map(\.name) == ["Search", "Share", "Mia Schneider", "Emma Wagner"])
        let german = try await EntryTools.info(["info", Self.contactsEntry], environment: broker.gioEnvironment(language: "de"))
        #expect(german.name == "Kontakte")
        #expect(german.actions?.map(\.name) == ["Suchen", "Teilen", "Mia Schneider", "Emma Wagner"])

        let output = broker.root.appendingPathComponent("launched.out").path
        let launched = try await EntryTools.python(
            ["launch", Self.contactsEntry, try #require(info.actions?[3].id), output], environment: broker.gioEnvironment())
        #expect(launched.status == 0, "\(launched)")
        let said = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        #expect(said.contains("FavoriteAction triggered for Emma Wagner"), "the launched action said: \(said)")
    }

    @Test func appInfoMonitorFiresAfterADynamicChangeAndTheFileHoldsTheNewActions() async throws {
        let broker = try await DesktopBroker()
        defer { broker.stop() }
        _ = try await Self.contactsWithFavorites(broker)
        let directory = broker.root.appendingPathComponent("monitor")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let monitor = try ManagedProcess(
            "/usr/bin/python3", [EntryTools.script, "monitor", Self.contactsEntry, "60"], environment: broker.gioEnvironment(),
            directory: directory, name: "monitor")
        defer { monitor.stop() }
        try await broker.waitUntil("the monitor is ready") { monitor.standardOutput.hasPrefix("ready\n") }
        try await broker.perform(DesktopBroker.contacts, "ShareAction", arguments: [("contact", "s", "Noah Becker"), ("favorite", "b", "true")])
        try await broker.waitUntil("the monitor saw the change") { !monitor.isRunning }
        #expect(monitor.exitStatus == 0, "\(monitor.standardError)")
        let json = monitor.standardOutput.dropFirst("ready\n".count)
        let info = try JSONDecoder().decode(EntryTools.AppInfo.self, from: Data(json.utf8))
        #expect(info.actions?.map(\.name) == ["Search", "Share", "Mia Schneider", "Noah Becker", "Emma Wagner"])
        try await EntryTools.expectValid(broker.userPath(Self.contactsEntry))
    }

    @Test func hostileTitlesValidateAreListedExactlyAndEachLaunchPerformsThatItemOnly() async throws {
        let broker = try await DesktopBroker(bundles: [DesktopBroker.titlesBundle()])
        defer { broker.stop() }
        let canary = broker.root.appendingPathComponent("pwned").path
        let titles = [
            "Line one\nline two",
            "[Desktop Action x]",
            "Exec=touch \(canary)",
            "x\n[Desktop Action evil]\nName=Evil\nExec=touch \(canary)",
            "\"double\" and 'single' quotes",
            "$(touch \(canary))",
            "`touch \(canary)`",
            "%f %u %U %%",
            "semi;colon;",
            "back\\slash \\n",
            "  spaces  ",
        ]
        try await broker.setTitles(titles)
        let entry = "\(DesktopBroker.titles).desktop"
        try await broker.waitForFile(entry, "has the titles") { $0.contains("spaces\\s\\s") }
        try await EntryTools.expectValid(broker.userPath(entry))
        let info = try await EntryTools.info(["info", entry], environment: broker.gioEnvironment())
        #expect(info.filename == broker.userPath(entry))
        #expect(info.actions?.map(\.name) == ["Set titles"] + titles)
        let german = try await EntryTools.info(["info", entry], environment: broker.gioEnvironment(language: "de"))
        #expect(german.actions?.first?.name == "Titel setzen")

        let actions = try #require(info.actions).dropFirst()
        for (index, action) in actions.enumerated() {
            let output = broker.root.appendingPathComponent("launch-\(index).out").path
            let launched = try await EntryTools.python(["launch", entry, action.id, output], environment: broker.gioEnvironment())
            #expect(launched.status == 0, "\(launched)")
            let said = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
            #expect(said.hasPrefix("performed \(index): "), "action \(action.id) said: \(said)")
        }
        let performed = broker.harness.stateDirectory.appendingPathComponent("data/\(DesktopBroker.titles)/performed")
        let lines = try String(contentsOf: performed, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines == titles.indices.map(String.init), "each item once, in order, and nothing else")
        #expect(!FileManager.default.fileExists(atPath: canary), "a title ran a command")
    }

    @Test func aBurstOfChangesIsWrittenFewerTimesAndEndsWithTheLast() async throws {
        let broker = try await DesktopBroker(bundles: [DesktopBroker.titlesBundle()])
        defer { broker.stop() }
        let entry = "\(DesktopBroker.titles).desktop"
        try await broker.setTitles(["first"])
        try await broker.waitForFile(entry, "has the first list") { $0.contains("Name=first") }
        // The bridge logs "wrote" just after renaming the file into place: counted once logged.
        let wrote = "wrote \(broker.userPath(entry))"
        try await broker.waitUntil("the first write is logged") { broker.harness.log.contains(wrote) }
        let writesBefore = broker.harness.log.components(separatedBy: wrote).count
        let rounds = 8
        try await withThrowingTaskGroup(of: Void.self) { group in
            for round in 1...rounds {
                group.addTask { try await broker.setTitles(["burst \(round)"]) }
            }
            try await group.waitForAll()
        }
        try await broker.setTitles(["last"])
        try await broker.waitForFile(entry, "has the last list") { $0.contains("Name=last") && !$0.contains("Name=burst") }
        try await broker.waitUntil("the last write is logged") {
            broker.harness.log.components(separatedBy: wrote).count > writesBefore
        }
        let writes = broker.harness.log.components(separatedBy: wrote).count - writesBefore
        #expect(writes >= 1 && writes < rounds + 1, "\(rounds + 1) changes written \(writes) times")
        try await EntryTools.expectValid(broker.userPath(entry))
    }

    @Test func anOriginalUpdatedIsRederivedAndRemovedTakesTheCopyWithIt() async throws {
        let name = "org.example.TitlesApp.desktop"
        let broker = try await DesktopBroker(
            bundles: [DesktopBroker.titlesBundle(desktopEntry: "org.example.TitlesApp")],
            originals: [name: DesktopBroker.original(name: "Titles 1.0")])
        defer { broker.stop() }
        try await broker.setTitles(["One"])
        try await broker.waitForFile(name, "copies 1.0") { $0.contains("Name=Titles 1.0") && $0.contains("Name=One") }
        #expect(broker.userFile("\(DesktopBroker.titles).desktop") == nil, "the bundle names its entry: no entry of our own")

        try broker.installOriginal(name, DesktopBroker.original(name: "Titles 2.0", extra: "Keywords=updated;"))
        let updated = try await broker.waitForFile(name, "copies 2.0") { $0.contains("Name=Titles 2.0") }
        #expect(updated.contains("Keywords=updated;") && updated.contains("Name=One") && !updated.contains("Titles 1.0"))
        try await EntryTools.expectValid(broker.userPath(name))
        let info = try await EntryTools.info(["info", name], environment: broker.gioEnvironment())
        #expect(info.name == "Titles 2.0")
        #expect(info.actions?.map(\.name) == ["Set titles", "One"])

        try broker.removeOriginal(name)
        try await broker.waitUntil("the copy is gone") { broker.userFile(name) == nil }
        #expect(try await EntryTools.info(["info", name], environment: broker.gioEnvironment()).missing == true)
    }

    @Test func ourOwnCopySeenThroughAnotherDataFolderIsNoOriginal() async throws {
        let name = "\(DesktopBroker.titles).desktop"
        let broker = try await DesktopBroker(
            bundles: [DesktopBroker.titlesBundle()], originals: [name: DesktopBroker.original(name: "Titles")], homeAlsoInDataDirs: true)
        defer { broker.stop() }
        try await broker.setTitles(["One"])
        try await broker.waitForFile(name, "copies the original") { $0.contains("Name=One") && $0.contains("Comment=An application") }
        try await broker.setTitles(["Two"])
        let text = try await broker.waitForFile(name, "has the second list") { $0.contains("Name=Two") }
        #expect(text.contains("Comment=An application") && text.components(separatedBy: "X-QuickActions-Generated=").count == 2)
        #expect(!broker.harness.log.contains("removed \(broker.userPath(name))"), "\(broker.harness.log)")
        try await EntryTools.expectValid(broker.userPath(name))
        let info = try await EntryTools.info(["info", name], environment: broker.gioEnvironment())
        #expect(info.actions?.map(\.name) == ["Set titles", "Two"], "a copy of our copy would keep the old actions")
    }

    @Test func anOriginalInstalledAsASymbolicLinkIsCopied() async throws {
        let name = "\(DesktopBroker.titles).desktop"
        let broker = try await DesktopBroker(
            bundles: [DesktopBroker.titlesBundle()], originals: ["titles-real.desktop.in": DesktopBroker.original(name: "Linked Titles")])
        defer { broker.stop() }
        try FileManager.default.createSymbolicLink(
            atPath: broker.system.appendingPathComponent("applications/\(name)").path, withDestinationPath: "titles-real.desktop.in")
        try await broker.setTitles(["One"])
        let text = try await broker.waitForFile(name, "copies the linked original") { $0.contains("Name=One") }
        #expect(text.contains("Name=Linked Titles"))
        try await EntryTools.expectValid(broker.userPath(name))
    }

    @Test func aDBusActivatableOriginalIsSkippedAndSaysWhyOnce() async throws {
        let name = "\(DesktopBroker.titles).desktop"
        let broker = try await DesktopBroker(
            bundles: [DesktopBroker.titlesBundle()],
            originals: [name: DesktopBroker.original(name: "Titles", extra: "DBusActivatable=true")])
        defer { broker.stop() }
        try await broker.setTitles(["One"])
        try await broker.setTitles(["Two"])
        try await broker.waitUntil("the broker says why") { broker.harness.log.contains("DBusActivatable=true") }
        // Contacts, synced in the same rounds, shows the bridge did run.
        try await Self.contactsWithFavorites(broker)
        #expect(broker.userFile(name) == nil)
        #expect(broker.harness.log.components(separatedBy: "DBusActivatable=true").count == 2, "said once: \(broker.harness.log)")
    }

    @Test func aFileTheUserEditedOrWroteIsLeftAlone() async throws {
        let foreign = "\(DesktopBroker.titles).desktop"
        let mine = "[Desktop Entry]\nType=Application\nName=My own Titles\nExec=true\n"
        let broker = try await DesktopBroker(bundles: [DesktopBroker.titlesBundle()])
        defer { broker.stop() }
        // The user's own entry for Titles, written before any item exists.
        try FileManager.default.createDirectory(at: broker.home.appendingPathComponent("applications"), withIntermediateDirectories: true)
        try mine.write(toFile: broker.userPath(foreign), atomically: true, encoding: .utf8)
        try await broker.setTitles(["One"])
        try await broker.waitUntil("the broker says it is not ours") { broker.harness.log.contains("\(broker.userPath(foreign)) is not ours") }
        #expect(broker.userFile(foreign) == mine)

        // Our Contacts entry, edited by the user: kept as edited when the items change.
        let written = try await Self.contactsWithFavorites(broker)
        let edited = written.replacingOccurrences(of: "Name=Mia Schneider", with: "Name=Mia (my edit)")
        try edited.write(toFile: broker.userPath(Self.contactsEntry), atomically: true, encoding: .utf8)
        try await broker.perform(DesktopBroker.contacts, "ShareAction", arguments: [("contact", "s", "Noah Becker"), ("favorite", "b", "true")])
        try await broker.waitUntil("the broker says it was edited") { broker.harness.log.contains("was edited since we wrote it") }
        #expect(broker.userFile(Self.contactsEntry) == edited)
    }

    @Test func turnedOffItRemovesWhatItWroteAndNothingElse() async throws {
        let broker = try await DesktopBroker(bundles: [DesktopBroker.titlesBundle()])
        defer { broker.stop() }
        try await broker.setTitles(["One"])
        let titlesEntry = "\(DesktopBroker.titles).desktop"
        let written = try await broker.waitForFile(titlesEntry, "has the item") { $0.contains("Name=One") }
        try await Self.contactsWithFavorites(broker)
        let edited = written + "# my note\n"
        try edited.write(toFile: broker.userPath(titlesEntry), atomically: true, encoding: .utf8)

        try await broker.harness.restart(extraArguments: ["--no-desktop-entries"])
        try await broker.waitUntil("our unedited entry is removed") { broker.userFile(Self.contactsEntry) == nil }
        #expect(broker.userFile(titlesEntry) == edited, "the edited file is the user's now")
        // Off, nothing is written as items change.
        try await broker.setTitles(["Two"])
        try await broker.perform(DesktopBroker.contacts, "SearchAction")
        #expect(broker.userFile(Self.contactsEntry) == nil)
    }

    @Test func anAppThatGoesAwayTakesItsEntryAndEntriesOfGoneAppsGoAtStart() async throws {
        let gone = "org.example.gone.desktop"
        let ours = try GeneratedMark.marked(
            EntryComposer(command: "true").generated(app: "org.example.gone", name: "Gone", icon: nil,
                                                     items: [ActionItem(itemID: "x", type: "x", title: "X")]).file,
            app: "org.example.gone")
        let editedGone = "org.example.gone-edited.desktop"
        let edited = ours.replacingOccurrences(of: "Name=X", with: "Name=Mine")
        let broker = try await DesktopBroker(bundles: [DesktopBroker.titlesBundle()], userFiles: [gone: ours, editedGone: edited])
        defer { broker.stop() }
        try await broker.waitUntil("the gone app's entry is removed") { broker.userFile(gone) == nil }
        #expect(broker.userFile(editedGone) == edited, "an edited file is the user's, app or not")

        try await broker.setTitles(["One"])
        let entry = "\(DesktopBroker.titles).desktop"
        try await broker.waitForFile(entry, "has the item") { $0.contains("Name=One") }
        try FileManager.default.removeItem(at: broker.harness.pluginDirectory.appendingPathComponent("\(DesktopBroker.titles).bundle"))
        try await broker.waitUntil("the removed app's entry is gone") { broker.userFile(entry) == nil }
        #expect(broker.userFile(Self.contactsEntry) != nil, "another app's entry stays")
    }

    @Test func whatACrashLeftMidWriteIsSortedAtStartAndNoUsersFileIsLost() async throws {
        let ours = try GeneratedMark.marked(
            EntryComposer(command: "true").generated(app: "org.example.gone", name: "Gone", icon: nil,
                                                     items: [ActionItem(itemID: "x", type: "x", title: "X")]).file,
            app: "org.example.gone")
        let edited = ours.replacingOccurrences(of: "Name=X", with: "Name=Mine")
        // Left by a crash between a conditional write's two steps: our temporary file, an empty
        // placeholder, and a user's edited entry swapped out of its name.
        let scratch = ".quickactions"
        let broker = try await DesktopBroker(bundles: [DesktopBroker.titlesBundle()], userFiles: [
            "\(scratch)/.org.example.a.desktop.qa-Ab12Cd": ours,
            "\(scratch)/.org.example.b.desktop.qa-Ef34Gh": "",
            "\(scratch)/.org.example.mine.desktop.qa-Ij56Kl": edited,
        ])
        defer { broker.stop() }
        try await broker.waitUntil("the user's entry is back") { broker.userFile("org.example.mine.desktop") == edited }
        try await broker.waitUntil("the scratch folder is emptied") {
            ((try? FileManager.default.contentsOfDirectory(
                atPath: broker.home.appendingPathComponent("applications/\(scratch)").path)) ?? []).isEmpty
        }
        #expect(broker.userFile("org.example.a.desktop") == nil, "our temporary file is not an entry")
        #expect(broker.userFile("org.example.b.desktop") == nil)
        // The line follows the rename, so it may reach the log a moment after the file is back.
        try await broker.waitUntil("the broker says what it put back") { broker.harness.log.contains("put back") }
    }

    @Test func theEnvironmentTurnsItOffToo() async throws {
        let broker = try await DesktopBroker(bundles: [DesktopBroker.titlesBundle()], environment: ["QUICKACTIONS_DESKTOP_ENTRIES": "0"])
        defer { broker.stop() }
        try await broker.perform(DesktopBroker.contacts, "SearchAction")
        try await broker.setTitles(["One"])
        try await broker.waitUntil("the broker has seen the change") { broker.harness.log.contains("set 1 dynamic item") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: broker.home.appendingPathComponent("applications").path) == [])
        // Off means not started at all: the broker has its one connection, no bridge's.
        #expect(try await broker.connectionsOfTheBroker() == 1)
    }

    @Test func anAppWithoutAnEntryGetsOneOfItsOwnThatPicksItsItems() async throws {
        // A German broker: the entry's plain Name is still the bundle's own, Name[de] the German.
        let broker = try await DesktopBroker(environment: ["LC_ALL": "de_DE.UTF-8"])
        defer { broker.stop() }
        let text = try await Self.contactsWithFavorites(broker)
        #expect(try await broker.connectionsOfTheBroker() == 2, "the broker's and its bridge's")
        try await EntryTools.expectValid(broker.userPath(Self.contactsEntry))
        #expect(text.contains("Name=Contacts\n") && text.contains("Icon=x-office-address-book\n"))
        let cli = PackagePaths.executable("quickactions").path
        #expect(text.contains("Exec=\(cli) pick \(DesktopBroker.contacts)\n"), "\(text)")
        let info = try await EntryTools.info(["info", Self.contactsEntry], environment: broker.gioEnvironment())
        #expect(info.filename == broker.userPath(Self.contactsEntry))
        #expect(info.name == "Contacts")
        #expect(info.actions?.map(\.name) == ["Search", "Share", "Mia Schneider", "Emma Wagner"])
        let german = try await EntryTools.info(["info", Self.contactsEntry], environment: broker.gioEnvironment(language: "de"))
        #expect(german.name == "Kontakte")
        #expect(german.actions?.map(\.name) == ["Suchen", "Teilen", "Mia Schneider", "Emma Wagner"])
    }
}
