import Foundation
import Glibc
import QuickActionsProviding
import QuickActionsTestSupport

/// A temporary folder for launch tests: a `bin` with the recorder program `qa-app`, a folder
/// its records go to, and the environment launches get. The recorder writes what it was
/// started with (arguments, folder, tokens, standard streams, its /proc stat line) to
/// `records/<pid>` and then stays alive while the test process lives and the records folder
/// is there, until `stop()` (or the end of the test process) ends it: no launched process
/// outlives its test, even one that had not written its record yet.
final class LaunchWorld: @unchecked Sendable {
    // @unchecked Sendable: every property is set in init and never changes.
    let root: String
    let bin: String
    let records: String
    let environment: [String: String]

    static let recorder = """
        #!/bin/sh
        out="$QA_RECORD_DIR/$$"
        in0=$(/bin/readlink /proc/$$/fd/0)
        out1=$(/bin/readlink /proc/$$/fd/1)
        err2=$(/bin/readlink /proc/$$/fd/2)
        here=$(/bin/pwd)
        stat=$(/bin/cat /proc/$$/stat)
        /bin/ls -l /proc/$$/fd/ > "$out.fds"
        if [ $# -eq 0 ]; then : > "$out.args"; else printf '%s\\0' "$@" > "$out.args"; fi
        printf 'cwd=%s\\ntoken=%s\\nstartup=%s\\nstdin=%s\\nstdout=%s\\nstderr=%s\\nstat=%s\\n' \\
            "$here" "${XDG_ACTIVATION_TOKEN-<unset>}" "${DESKTOP_STARTUP_ID-<unset>}" "$in0" "$out1" "$err2" "$stat" > "$out.part"
        /bin/mv "$out.part" "$out"
        while kill -0 "$QA_TEST_PID" 2>/dev/null && [ -d "$QA_RECORD_DIR" ] && [ ! -e "$QA_RECORD_DIR/stop" ]; do /bin/sleep 0.1; done
        """

    init() throws {
        root = try TemporaryDirectory.make(prefix: "qa-launch").path
        bin = root + "/bin"
        records = root + "/records"
        for folder in [bin, records, root + "/home", root + "/work dir"] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        try Self.writeProgram(bin + "/qa-app")
        environment = [
            "PATH": bin + ":/usr/bin:/bin", "HOME": root + "/home", "QA_RECORD_DIR": records,
            "QA_TEST_PID": String(getpid()), "LANG": "C.UTF-8",
        ]
    }

    deinit { stop() }

    /// Ends every recorder and removes the folder.
    func stop() {
        FileManager.default.createFile(atPath: records + "/stop", contents: Data())
        for record in self.recordedPIDs() {
            kill(record, SIGTERM)
        }
        try? FileManager.default.removeItem(atPath: root)
    }

    /// Adds a program to `bin` that records like `qa-app` (a fake terminal, say).
    func addRecorder(named name: String) throws {
        try Self.writeProgram(bin + "/" + name)
    }

    /// Writes the recorder with a close-on-exec descriptor, so a program another test starts
    /// meanwhile does not inherit it open for writing (which makes running it fail with
    /// ETXTBSY).
    static func writeProgram(_ path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
        guard fd >= 0 else { throw TestSupportError("open \(path): errno \(errno)") }
        defer { close(fd) }
        let bytes = Array(recorder.utf8)
        guard bytes.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) == bytes.count else {
            throw TestSupportError("write \(path): errno \(errno)")
        }
    }

    func recordedPIDs() -> [pid_t] {
        ((try? FileManager.default.contentsOfDirectory(atPath: records)) ?? []).compactMap { pid_t($0) }
    }

    /// One launched process's record.
    struct Record: Sendable {
        let pid: pid_t
        let arguments: [String]
        let fields: [String: String]

        /// /proc/<pid>/stat's fields after the command: state, ppid, pgrp, session, …
        var stat: [String] {
            guard let text = fields["stat"], let close = text.lastIndex(of: ")") else { return [] }
            return text[text.index(after: close)...].split(separator: " ").map(String.init)
        }
    }

    func record(_ pid: pid_t) -> Record? {
        guard let text = try? String(contentsOfFile: records + "/\(pid)", encoding: .utf8),
              let arguments = FileManager.default.contents(atPath: records + "/\(pid).args")
        else { return nil }
        var fields: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            fields[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        let words = arguments.split(separator: 0, omittingEmptySubsequences: false).dropLast().map { String(decoding: $0, as: UTF8.self) }
        fields["fds"] = try? String(contentsOfFile: records + "/\(pid).fds", encoding: .utf8)
        return Record(pid: pid, arguments: Array(words), fields: fields)
    }

    /// Waits for `count` records and returns them.
    func records(count: Int) async -> [Record] {
        _ = await eventually(.seconds(30)) { recordedPIDs().count >= count }
        return recordedPIDs().compactMap(record)
    }

    static func app(
        exec: String?, name: LocalizedText = "Text Editor", path: String = "/apps/org.example.Editor.desktop",
        desktopID: String = "org.example.Editor.desktop", workingDirectory: String? = nil, terminal: Bool = false,
        dbusActivatable: Bool = false, icon: String? = "accessories-text-editor", actions: [DesktopAction] = []
    ) -> InstalledApplication {
        InstalledApplication(
            desktopID: desktopID, appID: String(desktopID.dropLast(".desktop".count)), path: path, name: name, icon: icon,
            exec: exec, workingDirectory: workingDirectory, terminal: terminal, dbusActivatable: dbusActivatable, actions: actions)
    }
}
