import Foundation
import QuickActionsProviders

/// Writes desktop entries for the provider benchmarks (issue 33 §6): `count` installed
/// applications as distributions ship them, each with a Name and four translations, a
/// GenericName and Comment (translated too), Exec with a field code, Icon, Categories,
/// MimeType, Keywords and two or three `[Desktop Action]` groups with their own translated
/// names; every tenth in a vendor subfolder (desktop file id `vendor-…`), every twentieth
/// with a `TryExec` that is found (`sh`). Every entry is shown, so every one is an app.
enum InstalledEntriesGenerator {
    static let languages = ["de", "fr", "es", "ja"]

    /// The desktop file id (without `.desktop`, i.e. the app id) of entry `index`.
    static func appID(_ index: Int) -> String {
        let name = "org.quickactions.bench.Installed\(String(format: "%04d", index))"
        return index % 10 == 9 ? "vendor-\(name)" : name
    }

    /// The program entry `index` runs (the basename bookmarks name).
    static func program(_ index: Int) -> String { "bench-installed-\(index)" }

    /// Actions of entry `index`: two, or three on every third.
    static func actionCount(_ index: Int) -> Int { index % 3 == 0 ? 3 : 2 }

    static func entry(_ index: Int) -> String {
        let program = program(index)
        let actions = [("new-window", "New Window", "--new-window"),
                       ("new-document", "New Document", "--new-document"),
                       ("preferences", "Preferences", "--preferences")].prefix(actionCount(index))
        var lines = [
            "[Desktop Entry]",
            "Type=Application",
            "Version=1.5",
            "Name=Bench Application \(index)",
        ]
        lines += languages.map { "Name[\($0)]=Bench Anwendung \(index) (\($0))" }
        lines += ["GenericName=Text Editor"] + languages.map { "GenericName[\($0)]=Texteditor (\($0))" }
        lines += ["Comment=Edit text files of every kind, number \(index)"]
            + languages.map { "Comment[\($0)]=Textdateien bearbeiten, Nummer \(index) (\($0))" }
        lines += [
            "Exec=\(program) %U",
            "Icon=\(program)",
            "Terminal=false",
            "StartupNotify=true",
            "Categories=GTK;Utility;TextEditor;",
            "MimeType=text/plain;text/x-csrc;text/x-python;application/x-shellscript;image/png;",
            "Keywords=text;editor;plaintext;write;",
            "Actions=\(actions.map(\.0).joined(separator: ";"));",
        ]
        if index % 20 == 7 { lines.append("TryExec=sh") }
        for (id, name, flag) in actions {
            lines += ["", "[Desktop Action \(id)]", "Name=\(name)"]
            lines += languages.map { "Name[\($0)]=\(name) (\($0))" }
            lines += ["Exec=\(program) \(flag)", "Icon=\(program)-\(id)"]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Writes `count` entries into `dataFolder`/applications (and its `vendor` subfolder).
    static func write(count: Int, into dataFolder: URL) throws(BenchError) {
        let applications = dataFolder.appendingPathComponent("applications", isDirectory: true)
        let vendor = applications.appendingPathComponent("vendor", isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: vendor, withIntermediateDirectories: true)
        } catch {
            throw .file(path: vendor.path, reason: "cannot create the folder: \(error)")
        }
        for index in 0..<count {
            let id = appID(index)
            let file = id.hasPrefix("vendor-")
                ? vendor.appendingPathComponent(String(id.dropFirst("vendor-".count)) + ".desktop")
                : applications.appendingPathComponent(id + ".desktop")
            do {
                try Data(entry(index).utf8).write(to: file)
            } catch {
                throw .file(path: file.path, reason: "cannot write the entry: \(error)")
            }
        }
    }

    /// A `recently-used.xbel` of `count` bookmarks of local files that exist (written into
    /// `documents`), registered by the programs of the first `apps` entries in turn.
    static func writeBookmarks(count: Int, apps: Int, documents: URL, to file: URL) throws(BenchError) {
        do {
            try FileManager.default.createDirectory(at: documents, withIntermediateDirectories: true)
            for index in 0..<count {
                try Data("document \(index)\n".utf8).write(to: documents.appendingPathComponent("document \(index).txt"))
            }
        } catch {
            throw .file(path: documents.path, reason: "cannot write the documents: \(error)")
        }
        let programs = (0..<max(apps, 1)).map(program)
        let bytes = BookmarkFileSample.xbel(count: count, folder: documents.path, applications: programs)
        do {
            try Data(bytes).write(to: file)
        } catch {
            throw .file(path: file.path, reason: "cannot write the bookmarks: \(error)")
        }
    }
}
