import Foundation
import QuickActionsDesktopEntries
import QuickActionsTestSupport
import Testing

/// The index shows the applications GLib shows (GNOME Shell's app grid): the visibility
/// rules and shadowing of InstalledApplicationIndexTests, judged by Gio.AppInfo itself.
@Suite struct InstalledApplicationsGLibTests {
    @Test(arguments: [nil, "GNOME", "KDE", "ubuntu:GNOME", "Unity:GNOME", "X-Cinnamon:KDE"])
    func theIndexShowsWhatGLibShows(_ desktop: String?) async throws {
        let folders = try AppFolders()
        FileManager.default.createFile(atPath: folders.bin + "/qa-present", contents: Data("#!/bin/sh\n".utf8), attributes: [.posixPermissions: 0o755])
        let rules = InstalledApplicationIndexTests.visibility.map(\.extra)
        for (number, extra) in rules.enumerated() {
            var text = AppFolders.entry(name: "App \(number)", extra: extra)
            if extra.hasPrefix("Type=") { text = text.replacingOccurrences(of: "Type=Application\n", with: "") }
            try folders.write(text, to: folders.lastSystemApplications, "rule\(number).desktop")
        }
        // Shadowing: a hidden and a NoDisplay copy in the home, a subfolder, a same id lower down.
        try folders.write(AppFolders.entry(name: "Editor"), to: folders.lastSystemApplications, "editor.desktop")
        try folders.write(AppFolders.entry(name: "Editor", extra: "Hidden=true"), to: folders.homeApplications, "editor.desktop")
        try folders.write(AppFolders.entry(name: "Viewer"), to: folders.lastSystemApplications, "viewer.desktop")
        try folders.write(AppFolders.entry(name: "Viewer", extra: "NoDisplay=true"), to: folders.homeApplications, "viewer.desktop")
        try folders.write(AppFolders.entry(name: "Dolphin"), to: folders.lastSystemApplications, "kde/dolphin.desktop")
        try folders.write(AppFolders.entry(name: "Local"), to: folders.firstSystemApplications, "local.desktop")
        try folders.write(AppFolders.entry(name: "Local below", extra: "NoDisplay=true"), to: folders.lastSystemApplications, "local.desktop")

        let environment = folders.environment(desktop: desktop)
        let index = InstalledApplicationIndex(environment: environment, log: folders.log, watching: false)
        var gioEnvironment = EntryTools.environment(home: folders.home, dirs: folders.system, path: environment["PATH"])
        gioEnvironment["HOME"] = environment["HOME"]
        gioEnvironment["XDG_CONFIG_HOME"] = folders.root + "/home/.config"
        gioEnvironment["XDG_CACHE_HOME"] = folders.root + "/home/.cache"
        gioEnvironment["XDG_CURRENT_DESKTOP"] = desktop
        if desktop == nil { gioEnvironment.removeValue(forKey: "XDG_CURRENT_DESKTOP") }
        let script = PackagePaths.root.appendingPathComponent("Tests/QuickActionsDesktopEntriesTests/Scripts/gio_shown.py").path
        let result = try await Command.run("/usr/bin/python3", [script], environment: gioEnvironment, timeout: .seconds(90))
        #expect(result.status == 0, "\(result)")
        let glib = try JSONDecoder().decode([String].self, from: Data(result.stdout.utf8))
        #expect(glib.contains("kde-dolphin.desktop") && glib.contains("local.desktop"), "GLib read the folders: \(glib)")
        #expect(index.applications.values.map(\.desktopID).sorted() == glib)
    }
}
