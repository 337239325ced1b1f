import Foundation
import QuickActionsTestSupport
import Testing

/// The real tools that judge what the bridge writes: desktop-file-validate and GLib's
/// Gio.DesktopAppInfo (through Scripts/gio_entries.py and /usr/bin/python3).
enum EntryTools {
    static let script = PackagePaths.root
        .appendingPathComponent("Tests/QuickActionsDesktopEntriesTests/Scripts/gio_entries.py").path

    /// desktop-file-validate's verdict: nil when the file passes with nothing to say, else its output.
    static func validationProblems(_ path: String) async throws -> String? {
        let result = try await Command.run("desktop-file-validate", [path], timeout: .seconds(30))
        let output = (result.stdout + result.stderr).trimmingCharacters(in: .whitespacesAndNewlines)
        return result.status == 0 && output.isEmpty ? nil : "status \(result.status): \(output)"
    }

    /// Records an issue with desktop-file-validate's words unless the file passes.
    static func expectValid(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        if let problems = try await validationProblems(path) {
            Issue.record("desktop-file-validate \(path): \(problems)", sourceLocation: sourceLocation)
        }
    }

    /// What GLib shows of one app.
    struct AppInfo: Decodable, Equatable {
        struct Action: Decodable, Equatable {
            var id: String
            var name: String
        }
        var missing: Bool?
        var filename: String?
        var name: String?
        var actions: [Action]?
    }

    /// An environment for python: these data folders, this language, this bus.
    static func environment(
        home: String, dirs: [String], language: String = "C", bus: String? = nil, path: String? = nil
    ) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["XDG_DATA_HOME"] = home
        env["XDG_DATA_DIRS"] = dirs.joined(separator: ":")
        // GLib picks Name[xx] by g_get_language_names(), which reads LANGUAGE first; a UTF-8
        // LC_ALL keeps the titles' non-ASCII characters as they are.
        env["LANGUAGE"] = language
        env["LC_ALL"] = "C.UTF-8"
        env["LANG"] = "C.UTF-8"
        // GLib would otherwise try the host's session bus for its own services.
        env["DBUS_SESSION_BUS_ADDRESS"] = bus ?? "unix:path=/nonexistent"
        env.removeValue(forKey: "DBUS_STARTER_ADDRESS")
        env["GIO_USE_VFS"] = "local"
        if let path { env["PATH"] = path }
        return env
    }

    static func python(_ arguments: [String], environment: [String: String]) async throws -> CommandResult {
        try await Command.run("/usr/bin/python3", [script] + arguments, environment: environment, timeout: .seconds(90))
    }

    static func info(_ arguments: [String], environment: [String: String]) async throws -> AppInfo {
        let result = try await python(arguments, environment: environment)
        guard result.status == 0 else { throw TestSupportError("gio_entries.py \(arguments) failed: \(result)") }
        return try JSONDecoder().decode(AppInfo.self, from: Data(result.stdout.utf8))
    }
}
