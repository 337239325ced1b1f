import Foundation
import QuickActionsDesktopEntries
import QuickActionsProviding
import QuickActionsTestSupport
import Testing

/// The command lines we start for an entry equal the ones GLib's `Gio.DesktopAppInfo` starts
/// (`launch_uris`, `launch_action`: what GNOME Shell and GTK use), for a set of tricky `Exec`
/// lines. GLib launches a recorder (Scripts/gio_exec.py) that writes the arguments it got;
/// everything happens in a temporary folder with its own HOME and XDG folders, and no bus.
@Suite struct ExecLineGLibTests {
    struct Case: Sendable, CustomStringConvertible {
        /// The `Exec=` value as written in the file (string escapes still in), after the program.
        let arguments: String
        var uris: [String] = []
        /// Whether desktop-file-validate accepts it (some lines are there because they are not
        /// by the book, to see that we read them as GLib does).
        var valid = true
        var description: String { arguments }
    }

    /// Files for %f/%F/%u/%U: a path with spaces, one with unicode.
    static let files = ["file:///tmp/qa%20glib/a%20b.txt", "file:///tmp/%C3%A9t%C3%A9%20%E6%97%A5%E6%9C%AC.txt"]

    static let cases: [Case] = [
        Case(arguments: "--new-window"),
        Case(arguments: #""two words" "say \\"hi\\"" "back\\\\slash""#),
        Case(arguments: #""\\$(rm -rf ~)" "\\`id\\`""#),
        Case(arguments: #""$(rm -rf ~)" "`id`""#, valid: false),
        Case(arguments: "%i --name=%c %k %%"),
        Case(arguments: "--open %U", uris: files),
        Case(arguments: "%F", uris: files),
        Case(arguments: "--one %f", uris: files),
        Case(arguments: "%u", uris: [files[0]]),
        Case(arguments: "--no-code", uris: files),
        Case(arguments: "%f %F %u %U --nothing-given", valid: false),
        Case(arguments: "env FOO=1 BAR=\"a b\""),
        Case(arguments: #""/path with spaces/file" ünïcødé "日本語 テキスト""#),
        Case(arguments: "%d %D %n %N %v %m --deprecated-gone", valid: false),
        Case(arguments: #"a  b   "" "%c""#),
        Case(arguments: #"sh -c "exec app %f""#, uris: [files[0]]),
        Case(arguments: #""it's" "100%%""#),
        Case(arguments: #"\s--after-an-escaped-space "a\ttab" "new\nline""#),
    ]

    /// A temporary world for GLib and us: folders, the recorder, the environment.
    final class World: Sendable {
        let root: String
        let applications: String
        let records: String
        let environment: [String: String]

        init() throws {
            root = try TemporaryDirectory.make(prefix: "qa-glib-exec").path
            applications = root + "/data/applications"
            records = root + "/records"
            let bin = root + "/bin"
            for folder in [applications, records, bin, root + "/home", root + "/config", root + "/cache", root + "/runtime"] {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            }
            let recorder = """
                #!/bin/sh
                out="$QA_RECORD_DIR/$$"
                if [ $# -eq 0 ]; then : > "$out.part"; else printf '%s\\0' "$@" > "$out.part"; fi
                mv "$out.part" "$out"
                """
            FileManager.default.createFile(atPath: bin + "/qa-record", contents: Data(recorder.utf8), attributes: [.posixPermissions: 0o755])
            var environment = ProcessInfo.processInfo.environment
            environment["HOME"] = root + "/home"
            environment["XDG_DATA_HOME"] = root + "/data"
            environment["XDG_DATA_DIRS"] = root + "/none"
            environment["XDG_CONFIG_HOME"] = root + "/config"
            environment["XDG_CACHE_HOME"] = root + "/cache"
            environment["XDG_RUNTIME_DIR"] = root + "/runtime"
            environment["PATH"] = bin + ":/usr/bin:/bin"
            environment["QA_RECORD_DIR"] = records
            environment["LANGUAGE"] = "C"
            environment["LC_ALL"] = "C.UTF-8"
            environment["GIO_USE_VFS"] = "local"
            environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=/nonexistent"
            environment.removeValue(forKey: "DBUS_STARTER_ADDRESS")
            environment.removeValue(forKey: "XDG_CURRENT_DESKTOP")
            self.environment = environment
        }

        deinit { try? FileManager.default.removeItem(atPath: root) }

        /// The entry's file: its main Exec and one action's, both `qa-record <arguments>`.
        func write(_ arguments: String, id: String) throws -> String {
            let path = applications + "/\(id).desktop"
            let text = """
                [Desktop Entry]
                Type=Application
                Name=Text Editor
                Icon=org.example.Icon
                Exec=qa-record \(arguments)
                X-GIO-NoFuse=true
                Actions=act;

                [Desktop Action act]
                Name=New Window
                Exec=qa-record --action \(arguments)

                """
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }

        /// What GLib starts: the recorded arguments (without argv[0]) of each process.
        func glib(_ path: String, action: String?, uris: [String]) async throws -> [[String]] {
            let script = PackagePaths.root.appendingPathComponent("Tests/QuickActionsDesktopEntriesTests/Scripts/gio_exec.py").path
            let result = try await Command.run(
                "/usr/bin/python3", [script, path, action ?? "-", records] + uris, environment: environment, timeout: .seconds(90))
            guard result.status == 0 else { throw TestSupportError("gio_exec.py \(path): \(result)") }
            return try JSONDecoder().decode([[String]].self, from: Data(result.stdout.utf8))
        }
    }

    @Test(arguments: cases.enumerated().map { $0 })
    func theMainExecStartsWhatGLibStarts(_ numbered: (offset: Int, element: Case)) async throws {
        try await compare(numbered.element, number: numbered.offset, action: nil)
    }

    @Test(arguments: cases.enumerated().map { $0 })
    func theActionsExecStartsWhatGLibsLaunchActionStarts(_ numbered: (offset: Int, element: Case)) async throws {
        // launch_action passes no files.
        try await compare(
            Case(arguments: numbered.element.arguments, valid: numbered.element.valid), number: numbered.offset, action: "act")
    }

    private func compare(_ testCase: Case, number: Int, action: String?) async throws {
        let world = try World()
        let path = try world.write(testCase.arguments, id: "case\(number)")
        if testCase.valid { try await EntryTools.expectValid(path) }
        let index = InstalledApplicationIndex(environment: world.environment, log: { _ in }, watching: false)
        let app = try #require(index.applications["case\(number)"], "our index reads \(path)")
        let exec = try #require(action == nil ? app.exec : app.actions.first?.exec)
        let ours = try ExecLine(exec, entry: path).expand(
            ExecLine.Fields(icon: app.icon, name: app.name.resolved(for: "C"), entryPath: app.path, uris: testCase.uris), entry: path)
        let glib = try await world.glib(path, action: action, uris: testCase.uris)
        #expect(ours.map(\.first) == Array(repeating: "qa-record", count: ours.count))
        #expect(ours.map { Array($0.dropFirst()) } == glib, "Exec=\(exec)")
    }
}
