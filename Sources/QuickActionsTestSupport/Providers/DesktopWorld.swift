import Foundation
import Glibc

/// A private desktop for a test of the item providers (issue 33): an `XDG_DATA_DIRS` folder
/// whose `applications` holds the installed applications, a config home, a home with the
/// documents, and programs the entries' `Exec` lines run. Nothing of the host's is seen: no
/// system applications, no `~/.config`, no recent files.
///
/// `XDG_DATA_HOME` is the bus's own (``TestBus/dataHome``) unless a test sets it: KRunner
/// finds the broker's runner file there, and `recently-used.xbel` goes there too, written
/// after the broker started (the recent-documents provider watches for it).
public struct DesktopWorld: Sendable {
    public let root: URL
    public var dataDirs: URL { root.appendingPathComponent("data-dirs") }
    /// The installed applications' folder.
    public var applications: URL { dataDirs.appendingPathComponent("applications") }
    public var configHome: URL { root.appendingPathComponent("config-home") }
    public var home: URL { root.appendingPathComponent("home") }
    public var documents: URL { home.appendingPathComponent("Documents") }
    /// Where the recorder writes what it saw.
    public var record: URL { root.appendingPathComponent("record") }
    /// Writes its arguments, one a line, then its working folder, to ``record`` (by rename).
    public var recorder: URL { root.appendingPathComponent("bin/recorder") }
    /// Where the long runner writes its pid.
    public var pidFile: URL { root.appendingPathComponent("long-runner.pid") }
    /// Writes its pid (and its arguments) to ``pidFile``, then becomes `sleep 300`: an app that
    /// keeps running.
    public var longRunner: URL { root.appendingPathComponent("bin/long-runner") }

    public init(prefix: String = "qa-desktop") throws {
        root = try TemporaryDirectory.make(prefix: prefix)
        for folder in ["data-dirs/applications", "config-home", "home/Documents", "bin"] {
            try FileManager.default.createDirectory(
                at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        try Self.script(at: recorder, """
            #!/bin/sh
            { printf '%s\\n' "$@"; pwd; } > "\(record.path).tmp" && mv "\(record.path).tmp" "\(record.path)"
            """)
        try Self.script(at: longRunner, """
            #!/bin/sh
            echo "$$" > "\(pidFile.path).tmp" && mv "\(pidFile.path).tmp" "\(pidFile.path)"
            exec sleep 300
            """)
    }

    private static func script(at url: URL, _ text: String) throws {
        try Data((text + "\n").utf8).write(to: url)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
    }

    /// The broker's environment: providers on, this world's folders; `extra` wins.
    public func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = [
            "QUICKACTIONS_PROVIDERS": "1", "XDG_DATA_DIRS": dataDirs.path, "XDG_CONFIG_HOME": configHome.path,
            "HOME": home.path, "XDG_CURRENT_DESKTOP": "GNOME", "LANG": "C.UTF-8",
        ]
        for (key, value) in extra { environment[key] = value }
        return environment
    }

    /// Installs a desktop entry (by rename, as package managers do).
    public func entry(_ desktopID: String, _ text: String) throws {
        let temporary = applications.appendingPathComponent(".\(desktopID).tmp")
        try Data(text.utf8).write(to: temporary)
        guard rename(temporary.path, applications.appendingPathComponent(desktopID).path) == 0 else {
            throw TestSupportError("cannot install \(desktopID): errno \(errno)")
        }
    }

    /// An editor entry: opens files with the recorder (`Exec=<recorder> %U`) and has one
    /// desktop action, "New Window" (`new-window`), that runs `<recorder> --new-window`.
    public func editor(name: String = "Editor", actionExec: String? = nil) -> String {
        """
        [Desktop Entry]
        Type=Application
        Name=\(name)
        Icon=accessories-text-editor
        Exec=\(recorder.path) %U
        MimeType=text/plain;
        Actions=new-window;

        [Desktop Action new-window]
        Name=New Window
        Exec=\(actionExec ?? "\(recorder.path) --new-window")

        """
    }

    /// A document in the home's Documents folder; returns its file.
    @discardableResult
    public func document(_ name: String, _ text: String = "text\n") throws -> URL {
        let file = documents.appendingPathComponent(name)
        try Data(text.utf8).write(to: file)
        return file
    }

    /// Writes `dataHome/recently-used.xbel` with GLib's own code: each document used by the
    /// program `program` (the name of the app's `Exec`), most recent first by their order.
    public func recentlyUsed(_ documents: [URL], by program: String, name: String, into dataHome: URL) async throws {
        try FileManager.default.createDirectory(at: dataHome, withIntermediateDirectories: true)
        let now = Int(Date().timeIntervalSince1970)
        let entries = documents.enumerated().map { index, file in
            GLibBookmarkFile.Entry(
                uri: file.absoluteURL.absoluteString, mime: "text/plain",
                applications: [GLibBookmarkFile.Application(name: name, exec: "\(program) %u", modified: now - index * 60)])
        }
        try await GLibBookmarkFile.write(entries, to: dataHome.appendingPathComponent("recently-used.xbel").path)
    }

    /// What the recorder last saw: its arguments, then its folder; nil before it ran.
    public func recorded() -> [String]? {
        guard let text = try? String(contentsOf: record, encoding: .utf8) else { return nil }
        return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    /// The long runner's pid, once it wrote it.
    public func longRunnerPID() -> pid_t? {
        guard let text = try? String(contentsOf: pidFile, encoding: .utf8) else { return nil }
        return pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    public func remove() { try? FileManager.default.removeItem(at: root) }
}
