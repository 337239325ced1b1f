import DBus
import Glibc

/// Moves a launched application into a transient systemd scope of its own, as GNOME Shell
/// and KDE do: under a systemd user manager the broker's unit kills every process in its
/// cgroup when it stops, and a launched app must outlive the broker. The unit is named by the
/// XDG convention systemd documents (`app[-<launcher>]-<ApplicationID>-<RANDOM>.scope`):
/// `app-quickactions-<desktop id, escaped>-<pid>.scope`, the id without `.desktop` and every
/// character but ASCII letters, digits, `:`, `_` and `.` escaped as `\xNN` (gnome-shell's
/// escaping); `CollectMode=inactive-or-failed` so a failed app's scope does not linger.
///
/// Where no `org.freedesktop.systemd1` owns a name on the connection's bus (no user manager,
/// or a test bus), nothing happens: the process stays a plain detached process.
enum TransientScope {
    static let manager: BusName = "org.freedesktop.systemd1"
    static let managerPath: ObjectPath = "/org/freedesktop/systemd1"
    static let managerInterface: InterfaceName = "org.freedesktop.systemd1.Manager"

    /// The scope's unit name for a launch of `desktopID` as process `pid`.
    static func unitName(desktopID: String, pid: pid_t) -> String {
        let base = desktopID.hasSuffix(".desktop") ? String(desktopID.dropLast(".desktop".count)) : desktopID
        var escaped = ""
        for byte in base.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: ":"), UInt8(ascii: "_"), UInt8(ascii: "."):
                escaped.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16)
                escaped += "\\x" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return "app-quickactions-\(escaped)-\(pid).scope"
    }

    /// `StartTransientUnit(name, "fail", [PIDs, CollectMode, Description], [])`.
    static func arguments(unit: String, pid: pid_t, description: String) -> [Value] {
        let property = { (name: String, value: Value) -> Value in .structure([.string(name), .variant(value)]) }
        let properties: [Value] = [
            property("Description", .string(description)),
            property("PIDs", .array(.uint32, [.uint32(UInt32(bitPattern: pid))])),
            property("CollectMode", .string("inactive-or-failed")),
        ]
        let auxiliary = DBusType.structure([.string, .array(.structure([.string, .variant]))])
        return [
            .string(unit), .string("fail"), .array(.structure([.string, .variant]), properties), .array(auxiliary, []),
        ]
    }

    /// Moves `pid` into a new scope when a systemd user manager is on `connection`'s bus.
    /// - Returns: the unit's name, or nil when no manager runs there.
    /// - Throws: the manager's error, when it refused.
    static func move(_ pid: pid_t, desktopID: String, appName: String, on connection: Connection) async throws(DBusError) -> String? {
        guard try await connection.owner(of: manager) != nil else { return nil }
        let unit = unitName(desktopID: desktopID, pid: pid)
        let message = try Message.methodCall(destination: manager, path: managerPath, interface: managerInterface, member: "StartTransientUnit")
        message.autoStart = false
        try message.append(arguments(unit: unit, pid: pid, description: "\(appName) launched by QuickActions"))
        _ = try await connection.call(message, timeout: .seconds(5))
        return unit
    }
}
