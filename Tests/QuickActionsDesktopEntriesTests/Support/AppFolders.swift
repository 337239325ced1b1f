import Foundation
import Glibc
import Locking
import QuickActionsTestSupport

/// Temporary data folders for the installed-application index: a home (`XDG_DATA_HOME`) and
/// two system data folders (`XDG_DATA_DIRS`), all under one temporary folder removed at the end.
final class AppFolders: Sendable {
    let root: String
    let home: String
    let system: [String]
    let bin: String
    /// What the index logged.
    let logged = Locked<[String]>([])

    init() throws {
        root = try TemporaryDirectory.make(prefix: "qa-apps").path
        home = root + "/home/.local/share"
        system = [root + "/usr/local/share", root + "/usr/share"]
        bin = root + "/bin"
        for folder in [home + "/applications", system[1] + "/applications", bin] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
    }

    deinit {
        // Folders a test made unreadable or looping are removed too.
        _ = Command.runBlockingQuietly("/bin/chmod", ["-R", "u+rwx", root])
        try? FileManager.default.removeItem(atPath: root)
    }

    func environment(desktop: String? = nil) -> [String: String] {
        var environment = [
            "HOME": root + "/home", "XDG_DATA_HOME": home, "XDG_DATA_DIRS": system.joined(separator: ":"),
            "PATH": bin + ":/usr/bin:/bin",
        ]
        environment["XDG_CURRENT_DESKTOP"] = desktop
        return environment
    }

    var log: @Sendable (String) -> Void {
        { [logged] message in logged.withLock { $0.append(message) } }
    }

    /// Writes an entry into `folder` (a full applications folder path), making its folders.
    @discardableResult
    func write(_ text: String, to folder: String, _ relative: String) throws -> String {
        let path = folder + "/" + relative
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        // Written then renamed, as packages and editors do: one event for the new file.
        let temporary = (path as NSString).deletingLastPathComponent + "/.tmp-" + UUID().uuidString
        try text.write(toFile: temporary, atomically: false, encoding: .utf8)
        guard rename(temporary, path) == 0 else { throw TestSupportError("rename to \(path): errno \(errno)") }
        return path
    }

    var homeApplications: String { home + "/applications" }
    var firstSystemApplications: String { system[0] + "/applications" }
    var lastSystemApplications: String { system[1] + "/applications" }

    static func entry(name: String, extra: String = "", exec: String = "true") -> String {
        "[Desktop Entry]\nType=Application\nName=\(name)\nExec=\(exec)\n\(extra)\(extra.isEmpty || extra.hasSuffix("\n") ? "" : "\n")"
    }
}

extension Command {
    /// Runs a command, ignoring how it went (for clean-up).
    static func runBlockingQuietly(_ executable: String, _ arguments: [String]) -> Int32 {
        (try? runBlocking(executable, arguments, timeout: .seconds(30)))?.status ?? -1
    }
}
