import DBus
import Foundation
import Glibc

/// How the desktop-entry bridge runs.
public struct BridgeConfiguration: Sendable {
    /// The bus the broker is on; the bridge opens its own connection to it.
    public var bus: Connection.Bus
    /// Where originals are looked for and copies written.
    public var directories: DataDirectories
    /// The `quickactions` command the actions run: see ``defaultCommand(environment:)``.
    public var command: String
    /// How long after the first change of a burst the bridge waits before writing, so a burst
    /// of ItemsChanged writes once (well within a second).
    public var settleDelay: Duration
    /// Where the bridge says what it did and why it left something alone.
    public var log: @Sendable (String) -> Void

    public init(
        bus: Connection.Bus, directories: DataDirectories, command: String,
        settleDelay: Duration = .milliseconds(200), log: @escaping @Sendable (String) -> Void = BridgeConfiguration.standardErrorLog
    ) {
        self.bus = bus
        self.directories = directories
        self.command = command
        self.settleDelay = settleDelay
        self.log = log
    }

    /// The `quickactions` the actions run: `$QUICKACTIONS_CLI` when set; else the one installed
    /// beside the running executable (`quickactionsd`'s own folder, from `/proc/self/exe`), so
    /// the entry runs the CLI of the same installation; else `quickactions` from `$PATH`.
    public static func defaultCommand(environment: [String: String]) -> String {
        if let override = environment["QUICKACTIONS_CLI"], !override.isEmpty, !override.contains("=") {
            return override
        }
        if let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            let beside = (executable as NSString).deletingLastPathComponent + "/quickactions"
            // An Exec program may not hold '=' (the spec); such a folder falls back to $PATH.
            if access(beside, X_OK) == 0 && !beside.contains("=") { return beside }
        }
        return "quickactions"
    }

    /// Whether the environment turns the bridge off: `QUICKACTIONS_DESKTOP_ENTRIES` set to
    /// `0`, `false`, `no` or `off`.
    public static func isDisabled(environment: [String: String]) -> Bool {
        guard let value = environment["QUICKACTIONS_DESKTOP_ENTRIES"]?.lowercased() else { return false }
        return ["0", "false", "no", "off"].contains(value)
    }

    public static let standardErrorLog: @Sendable (String) -> Void = { message in
        FileHandle.standardError.write(Data("quickactionsd: desktop entries: \(message)\n".utf8))
    }
}
