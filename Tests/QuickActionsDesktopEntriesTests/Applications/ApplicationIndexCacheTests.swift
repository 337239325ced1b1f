import Foundation
import Glibc
import QuickActionsDesktopEntries
import QuickActionsProviding
import QuickActionsTestSupport
import Testing

/// The index's cache: a later start reads only what changed since, and a cache that cannot be
/// used (damaged, of the wrong kind, for another environment) costs only a full read.
@Suite struct ApplicationIndexCacheTests {
    /// Folders with a few kinds of entry: shown, in a subfolder, hidden, shadowed, refused, and
    /// one with a TryExec (found in PATH), which is read at every start.
    static func folders() throws -> AppFolders {
        let folders = try AppFolders()
        try folders.write(AppFolders.entry(name: "Editor", extra: "Icon=editor\nActions=new;\n\n[Desktop Action new]\nName=New\nName[de]=Neu\nExec=true --new"),
                          to: folders.lastSystemApplications, "org.example.Editor.desktop")
        try folders.write(AppFolders.entry(name: "Dolphin", extra: "Name[de]=Delfin\nTerminal=true\nMimeType=text/plain;inode/directory;"),
                          to: folders.lastSystemApplications, "kde/dolphin.desktop")
        try folders.write(AppFolders.entry(name: "Hidden", extra: "NoDisplay=true"), to: folders.lastSystemApplications, "hidden.desktop")
        try folders.write(AppFolders.entry(name: "Shadowed"), to: folders.lastSystemApplications, "mail.desktop")
        try folders.write(AppFolders.entry(name: "Mail"), to: folders.homeApplications, "mail.desktop")
        try folders.write("no group at all\n", to: folders.lastSystemApplications, "broken.desktop")
        FileManager.default.createFile(atPath: folders.bin + "/qa-tool", contents: Data("#!/bin/sh\n".utf8),
                                       attributes: [.posixPermissions: 0o755])
        try folders.write(AppFolders.entry(name: "Tool", extra: "TryExec=qa-tool"), to: folders.lastSystemApplications, "tool.desktop")
        return folders
    }

    static let files = 7

    static func index(_ folders: AppFolders, desktop: String? = nil) -> InstalledApplicationIndex {
        InstalledApplicationIndex(environment: folders.environment(desktop: desktop), log: folders.log, watching: false)
    }

    static func cache(_ folders: AppFolders) -> String { folders.root + "/home/.cache/quickactions/applications.cache" }

    @Test func aSecondStartReadsOnlyTheEntryWithATryExecAndKnowsTheSame() throws {
        let folders = try Self.folders()
        let first = Self.index(folders)
        #expect(first.filesRead == Self.files)
        #expect(Set(first.applications.keys) == ["org.example.Editor", "kde-dolphin", "mail", "tool"])
        #expect(FileManager.default.fileExists(atPath: Self.cache(folders)))
        folders.logged.withLock { $0.removeAll() }
        let second = Self.index(folders)
        #expect(second.filesRead == 1, "only tool.desktop, for its TryExec")
        #expect(second.applications == first.applications)
        #expect(second.applications["org.example.Editor"]?.actions.first?.name.resolved(for: "de_DE") == "Neu")
        #expect(second.applications["kde-dolphin"]?.terminal == true)
        #expect(second.applications["kde-dolphin"]?.mimeTypes == ["text/plain", "inode/directory"])
        // Every start still says which files are no application.
        #expect(folders.logged.withLock { $0 }.contains { $0.contains("broken.desktop") && $0.contains("not an installed application") })
    }

    @Test func aFileChangedAddedOrRemovedSinceIsReadOrForgottenAlone() throws {
        let folders = try Self.folders()
        _ = Self.index(folders)
        try folders.write(AppFolders.entry(name: "Editor 2"), to: folders.lastSystemApplications, "org.example.Editor.desktop")
        try folders.write(AppFolders.entry(name: "Viewer"), to: folders.lastSystemApplications, "viewer.desktop")
        #expect(unlink(folders.homeApplications + "/mail.desktop") == 0)
        let second = Self.index(folders)
        #expect(second.filesRead == 3, "the changed, the new and the TryExec entry")
        #expect(second.applications["org.example.Editor"]?.name.value == "Editor 2")
        #expect(second.applications["viewer"]?.name.value == "Viewer")
        #expect(second.applications["mail"]?.name.value == "Shadowed", "the home copy went; the one below shows")
        #expect(Self.index(folders).filesRead == 1, "and the next start knows all of that")
    }

    @Test func whatAWatchingIndexFollowsIsWhatTheNextStartKnows() async throws {
        let folders = try Self.folders()
        let watching = InstalledApplicationIndex(environment: folders.environment(), log: folders.log)
        defer { watching.stop() }
        try folders.write(AppFolders.entry(name: "Editor 3"), to: folders.lastSystemApplications, "org.example.Editor.desktop")
        #expect(await eventually { watching.applications["org.example.Editor"]?.name.value == "Editor 3" })
        // The change was saved when it was followed: the next start reads only the TryExec entry.
        #expect(await eventually {
            let next = Self.index(folders)
            return next.filesRead == 1 && next.applications["org.example.Editor"]?.name.value == "Editor 3"
        })
    }

    @Test func anotherDesktopOrPathIsAnotherReading() throws {
        let folders = try Self.folders()
        try folders.write(AppFolders.entry(name: "Settings", extra: "OnlyShowIn=KDE;"), to: folders.lastSystemApplications, "settings.desktop")
        #expect(Self.index(folders, desktop: "GNOME").applications["settings"] == nil)
        let kde = Self.index(folders, desktop: "KDE")
        #expect(kde.filesRead == Self.files + 1)
        #expect(kde.applications["settings"]?.name.value == "Settings")
        #expect(folders.logged.withLock { $0 }.contains { $0.contains("other current desktops") })
    }

    struct Damage: Sendable, CustomStringConvertible {
        let description: String
        let named: String
        let apply: @Sendable (String) throws -> Void
    }

    static let damages: [Damage] = [
        Damage(description: "cut short", named: "is damaged") { path in
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: path))
        },
        Damage(description: "one byte flipped", named: "is damaged") { path in
            var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            bytes[bytes.count / 2] ^= 0x20
            try Data(bytes).write(to: URL(fileURLWithPath: path))
        },
        Damage(description: "garbage", named: "is not an index cache") { path in
            try Data("[Desktop Entry]\n".utf8).write(to: URL(fileURLWithPath: path))
        },
        Damage(description: "empty", named: "is not an index cache") { path in
            try Data().write(to: URL(fileURLWithPath: path))
        },
        Damage(description: "a folder in its place", named: "not a regular file") { path in
            try FileManager.default.removeItem(atPath: path)
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        },
        Damage(description: "a FIFO in its place", named: "not a regular file") { path in
            try FileManager.default.removeItem(atPath: path)
            guard mkfifo(path, 0o600) == 0 else { throw CocoaError(.fileWriteUnknown) }
        },
        Damage(description: "unreadable", named: "cannot be opened") { path in
            guard chmod(path, 0) == 0 else { throw CocoaError(.fileWriteUnknown) }
        },
    ]

    @Test(arguments: damages)
    func aCacheThatCannotBeUsedCostsAFullReadAndSaysWhy(_ damage: Damage) throws {
        let folders = try Self.folders()
        let expected = Self.index(folders).applications
        try damage.apply(Self.cache(folders))
        folders.logged.withLock { $0.removeAll() }
        let index = Self.index(folders)
        if damage.named == "cannot be opened" && getuid() == 0 {
            // root reads a file of mode 0 all the same: then it is simply used.
            #expect(index.applications == expected)
            return
        }
        #expect(index.filesRead == Self.files)
        #expect(index.applications == expected)
        let logged = folders.logged.withLock { $0 }
        #expect(logged.contains { $0.contains(Self.cache(folders)) && $0.contains(damage.named) }, "\(logged)")
        if damage.description.contains("folder") {
            // A folder cannot be renamed over; the index still serves, and says it keeps no cache.
            #expect(logged.contains { $0.contains("the index cache is not kept") }, "\(logged)")
        } else {
            #expect(Self.index(folders).filesRead == 1, "a good cache was written again")
        }
    }
}
