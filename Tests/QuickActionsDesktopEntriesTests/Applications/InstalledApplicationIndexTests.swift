import Foundation
import Glibc
import Locking
import QuickActionsDesktopEntries
import QuickActionsProviding
import QuickActionsTestSupport
import Testing

/// The installed-application index: which entries are applications, as the Desktop Entry
/// Specification (and GLib) say, read robustly and followed live.
@Suite struct InstalledApplicationIndexTests {
    @Test func homeComesFirstThenEachDataFolderInOrderAndTheFirstShadowsTheRest() throws {
        let folders = try AppFolders()
        try folders.write(AppFolders.entry(name: "Home Editor"), to: folders.homeApplications, "org.example.Editor.desktop")
        try folders.write(AppFolders.entry(name: "Local Editor"), to: folders.firstSystemApplications, "org.example.Editor.desktop")
        try folders.write(AppFolders.entry(name: "System Editor"), to: folders.lastSystemApplications, "org.example.Editor.desktop")
        try folders.write(AppFolders.entry(name: "Local Viewer"), to: folders.firstSystemApplications, "org.example.Viewer.desktop")
        try folders.write(AppFolders.entry(name: "System Viewer"), to: folders.lastSystemApplications, "org.example.Viewer.desktop")
        try folders.write(AppFolders.entry(name: "Mail"), to: folders.lastSystemApplications, "org.example.Mail.desktop")
        let index = InstalledApplicationIndex(environment: folders.environment(), log: folders.log, watching: false)
        let names = index.applications.mapValues(\.name.value)
        #expect(names == ["org.example.Editor": "Home Editor", "org.example.Viewer": "Local Viewer", "org.example.Mail": "Mail"])
        #expect(index.applications["org.example.Mail"]?.desktopID == "org.example.Mail.desktop")
        #expect(index.applications["org.example.Mail"]?.path == folders.lastSystemApplications + "/org.example.Mail.desktop")
    }

    @Test func theDefaultsAreTheBaseDirectorySpecificationsOnesAndEachFolderCountsOnce() throws {
        // Asked without reading: the host's folders stay out of the tests.
        #expect(InstalledApplicationIndex.dataFolders(for: ["HOME": "/nonexistent-home"])
            == ["/nonexistent-home/.local/share", "/usr/local/share", "/usr/share"])
        #expect(InstalledApplicationIndex.dataFolders(for: ["HOME": "/h", "XDG_DATA_HOME": "/d", "XDG_DATA_DIRS": "/a:relative:/b/:/a:/d"])
            == ["/d", "/a", "/b"])
        let folders = try AppFolders()
        let index = InstalledApplicationIndex(environment: folders.environment(), log: folders.log, watching: false)
        #expect(index.folders == [folders.homeApplications, folders.firstSystemApplications, folders.lastSystemApplications])
    }

    @Test func subfoldersJoinTheDesktopFileIDWithDashes() throws {
        let folders = try AppFolders()
        try folders.write(AppFolders.entry(name: "Dolphin"), to: folders.lastSystemApplications, "kde4/dolphin.desktop")
        try folders.write(AppFolders.entry(name: "Deep"), to: folders.lastSystemApplications, "a/b/c.desktop")
        let index = InstalledApplicationIndex(environment: folders.environment(), log: folders.log, watching: false)
        #expect(Set(index.applications.keys) == ["kde4-dolphin", "a-b-c"])
        #expect(index.applications["kde4-dolphin"]?.desktopID == "kde4-dolphin.desktop")
    }

    struct Visibility: Sendable, CustomStringConvertible {
        let extra: String
        let desktop: String?
        let shown: Bool
        var description: String { "\(extra.replacingOccurrences(of: "\n", with: " ")) on \(desktop ?? "no desktop")" }
    }

    static let visibility: [Visibility] = [
        Visibility(extra: "", desktop: nil, shown: true),
        Visibility(extra: "Hidden=true", desktop: nil, shown: false),
        Visibility(extra: "NoDisplay=true", desktop: nil, shown: false),
        Visibility(extra: "NoDisplay=false", desktop: nil, shown: true),
        Visibility(extra: "OnlyShowIn=GNOME;", desktop: "GNOME", shown: true),
        Visibility(extra: "OnlyShowIn=GNOME;", desktop: "KDE", shown: false),
        Visibility(extra: "OnlyShowIn=GNOME;", desktop: nil, shown: false),
        Visibility(extra: "OnlyShowIn=GNOME;", desktop: "ubuntu:GNOME", shown: true),
        Visibility(extra: "NotShowIn=KDE;", desktop: "KDE", shown: false),
        Visibility(extra: "NotShowIn=KDE;", desktop: "GNOME", shown: true),
        Visibility(extra: "NotShowIn=KDE;", desktop: "X-Cinnamon:KDE", shown: false),
        // The first current desktop either list names decides (GLib's order).
        Visibility(extra: "OnlyShowIn=GNOME;\nNotShowIn=Unity;", desktop: "GNOME:Unity", shown: true),
        Visibility(extra: "OnlyShowIn=GNOME;\nNotShowIn=Unity;", desktop: "Unity:GNOME", shown: false),
        Visibility(extra: "TryExec=qa-present", desktop: nil, shown: true),
        Visibility(extra: "TryExec=qa-absent", desktop: nil, shown: false),
        Visibility(extra: "TryExec=/bin/sh", desktop: nil, shown: true),
        Visibility(extra: "TryExec=/nonexistent/program", desktop: nil, shown: false),
        Visibility(extra: "TryExec=qa-not-executable", desktop: nil, shown: false),
        Visibility(extra: "Type=Link\nURL=https://example.com", desktop: nil, shown: false),
    ]

    @Test(arguments: visibility)
    func shownAsTheSpecificationSays(_ rule: Visibility) throws {
        let folders = try AppFolders()
        FileManager.default.createFile(atPath: folders.bin + "/qa-present", contents: Data("#!/bin/sh\n".utf8), attributes: [.posixPermissions: 0o755])
        FileManager.default.createFile(atPath: folders.bin + "/qa-not-executable", contents: Data(), attributes: [.posixPermissions: 0o644])
        var text = AppFolders.entry(name: "App", extra: rule.extra)
        if rule.extra.hasPrefix("Type=") { text = text.replacingOccurrences(of: "Type=Application\n", with: "") }
        try folders.write(text, to: folders.lastSystemApplications, "app.desktop")
        let index = InstalledApplicationIndex(environment: folders.environment(desktop: rule.desktop), log: folders.log, watching: false)
        #expect((index.applications["app"] != nil) == rule.shown)
    }

    @Test func aHiddenEntryInTheHomeHidesTheSystemsAsGLibDoes() throws {
        let folders = try AppFolders()
        try folders.write(AppFolders.entry(name: "Editor"), to: folders.lastSystemApplications, "editor.desktop")
        try folders.write(AppFolders.entry(name: "Editor", extra: "Hidden=true"), to: folders.homeApplications, "editor.desktop")
        try folders.write(AppFolders.entry(name: "Viewer"), to: folders.lastSystemApplications, "viewer.desktop")
        try folders.write(AppFolders.entry(name: "Viewer", extra: "NoDisplay=true"), to: folders.homeApplications, "viewer.desktop")
        let index = InstalledApplicationIndex(environment: folders.environment(), log: folders.log, watching: false)
        #expect(index.applications.isEmpty)
    }

    @Test func theBridgesGeneratedEntriesAreNeverApplicationsAndShadowNothing() throws {
        let folders = try AppFolders()
        try folders.write(AppFolders.entry(name: "Contacts"), to: folders.lastSystemApplications, "org.example.Contacts.desktop")
        let generated = try GeneratedMark.marked(
            DesktopEntryParser.parse(AppFolders.entry(name: "Contacts copy", exec: "quickactions invoke")), app: "org.example.Contacts")
        try folders.write(generated, to: folders.homeApplications, "org.example.Contacts.desktop")
        try folders.write(generated, to: folders.homeApplications, "org.example.Only.desktop")
        let index = InstalledApplicationIndex(environment: folders.environment(), log: folders.log, watching: false)
        #expect(index.applications.mapValues(\.name.value) == ["org.example.Contacts": "Contacts"])
    }

    @Test func everyFieldIsReadWithItsTranslationsAndTheListedActionsInOrder() throws {
        let folders = try AppFolders()
        let text = #"""
            [Desktop Entry]
            Type=Application
            Name=Text Editor
            Name[de]=Texteditor
            Name[pt_BR]=Editor de texto
            Icon=org.gnome.TextEditor
            Exec=gnome-text-editor "two words" %U
            Path=/tmp
            Terminal=true
            DBusActivatable=true
            MimeType=text/plain;text/x-c\;odd;
            Actions=new-window;missing;unnamed;new-document;new-window;

            [Desktop Action new-window]
            Name=New Window
            Name[de]=Neues Fenster
            Exec=gnome-text-editor --new-window
            Icon=window-new

            [Desktop Action new-document]
            Name=New Document
            Exec=gnome-text-editor --new-document

            [Desktop Action unnamed]
            Exec=nothing

            [Desktop Action unlisted]
            Name=Unlisted
            Exec=nothing
            """#
        try folders.write(text, to: folders.lastSystemApplications, "org.gnome.TextEditor.desktop")
        let index = InstalledApplicationIndex(environment: folders.environment(), log: folders.log, watching: false)
        let app = try #require(index.applications["org.gnome.TextEditor"])
        #expect(app.name == LocalizedText("Text Editor", translations: ["de": "Texteditor", "pt_BR": "Editor de texto"]))
        #expect(app.name.resolved(for: "de_DE.UTF-8") == "Texteditor")
        #expect(app.icon == "org.gnome.TextEditor")
        #expect(app.exec == #"gnome-text-editor "two words" %U"#)
        #expect(app.workingDirectory == "/tmp")
        #expect(app.terminal && app.dbusActivatable)
        #expect(app.mimeTypes == ["text/plain", "text/x-c;odd"])
        #expect(app.actions.map(\.id) == ["new-window", "new-document"])
        #expect(app.actions.first?.name.resolved(for: "de") == "Neues Fenster")
        #expect(app.actions.first?.icon == "window-new")
        #expect(app.actions.last?.exec == "gnome-text-editor --new-document")
        #expect(folders.logged.withLock { $0 }.contains { $0.contains("unnamed") && $0.contains("no Name") })
    }

    @Test func aHugeNameRefusesTheEntryWithAReasonNamingTheFileAndABoundedPrefix() throws {
        let folders = try AppFolders()
        let huge = String(repeating: "N", count: 64 * 1024)
        let path = try folders.write(AppFolders.entry(name: huge), to: folders.lastSystemApplications, "huge.desktop")
        let actionHuge = AppFolders.entry(name: "Fine", extra: "Actions=big;ok;\n\n[Desktop Action big]\nName=\(huge)\nExec=x\n\n[Desktop Action ok]\nName=OK\nExec=y")
        try folders.write(actionHuge, to: folders.lastSystemApplications, "fine.desktop")
        let index = InstalledApplicationIndex(environment: folders.environment(), log: folders.log, watching: false)
        #expect(index.applications["huge"] == nil)
        #expect(index.applications["fine"]?.actions.map(\.id) == ["ok"])
        let logged = folders.logged.withLock { $0 }
        let line = try #require(logged.first { $0.contains(path) })
        #expect(line.contains("Name has 65536 bytes"))
        #expect(line.count < 400, "the log line quotes a bounded prefix: \(line.count) characters")
        #expect(logged.contains { $0.contains("fine.desktop") && $0.contains("big") && $0.count < 400 })
    }

    @Test func aFileOverOneMebibyteIsRefusedUnreadAndNonRegularFilesAreSkipped() throws {
        let folders = try AppFolders()
        let big = folders.lastSystemApplications + "/big.desktop"
        try folders.write(AppFolders.entry(name: "Big"), to: folders.lastSystemApplications, "big.desktop")
        #expect(truncate(big, 1 << 30) == 0, "a 1 GiB sparse file")
        #expect(mkfifo(folders.lastSystemApplications + "/fifo.desktop", 0o644) == 0)
        try FileManager.default.createDirectory(atPath: folders.lastSystemApplications + "/folder.desktop", withIntermediateDirectories: false)
        try folders.write(AppFolders.entry(name: "Fine"), to: folders.lastSystemApplications, "fine.desktop")
        let index = InstalledApplicationIndex(environment: folders.environment(), log: folders.log, watching: false)
        #expect(Set(index.applications.keys) == ["fine"])
        let logged = folders.logged.withLock { $0 }
        #expect(logged.contains { $0.contains(big) && $0.contains("more than the 1048576") })
        #expect(logged.contains { $0.contains("fifo.desktop") && $0.contains("not a regular file") })
    }

    @Test func anUnreadableFileIsSkippedWithALogLine() throws {
        let folders = try AppFolders()
        let path = try folders.write(AppFolders.entry(name: "Secret"), to: folders.lastSystemApplications, "secret.desktop")
        try folders.write(AppFolders.entry(name: "Fine"), to: folders.lastSystemApplications, "fine.desktop")
        #expect(chmod(path, 0) == 0)
        // Root reads anything: then there is nothing to check.
        guard getuid() != 0 else { return }
        let index = InstalledApplicationIndex(environment: folders.environment(), log: folders.log, watching: false)
        #expect(Set(index.applications.keys) == ["fine"])
        #expect(folders.logged.withLock { $0 }.contains { $0.contains(path) && $0.contains("cannot be opened") })
    }

    @Test func aSymbolicLinkLoopIsReadOnceAndEnds() throws {
        let folders = try AppFolders()
        try folders.write(AppFolders.entry(name: "Fine"), to: folders.lastSystemApplications, "sub/fine.desktop")
        #expect(symlink(folders.lastSystemApplications, folders.lastSystemApplications + "/sub/loop") == 0)
        #expect(symlink(folders.lastSystemApplications + "/sub", folders.lastSystemApplications + "/sub/self") == 0)
        let index = InstalledApplicationIndex(environment: folders.environment(), log: folders.log, watching: false)
        #expect(Set(index.applications.keys) == ["sub-fine"])
        #expect(folders.logged.withLock { $0 }.contains { $0.contains("loop") })
    }

    @Test func badEntriesAreRefusedWithTheirReasonAndNothingCrashes() throws {
        let folders = try AppFolders()
        let cases = [
            "not a desktop entry at all\u{0}\u{1}",
            "[Desktop Entry]\nType=Application\n",
            "[Desktop Entry]\nName=No type\nExec=x\n",
            "[Other]\nName=x\n",
            "[Desktop Entry]\nType=Application\nName=No exec\n",
            "[Desktop Entry]\nType=Application\nName=Bad [group\n[Desktop Entry\n",
            "[Desktop Entry]\nType=Application\nName=Dup\nExec=x\n[Desktop Entry]\n",
            "\u{FEFF}[Desktop Entry]\nType=Application\n",
        ]
        for (number, text) in cases.enumerated() {
            try folders.write(text, to: folders.lastSystemApplications, "bad\(number).desktop")
        }
        FileManager.default.createFile(atPath: folders.lastSystemApplications + "/binary.desktop", contents: Data([0xFF, 0xFE, 0x00, 0x80]))
        let index = InstalledApplicationIndex(environment: folders.environment(), log: folders.log, watching: false)
        #expect(index.applications.isEmpty)
        #expect(folders.logged.withLock { $0 }.contains { $0.contains("binary.desktop") && $0.contains("UTF-8") })
    }
}
