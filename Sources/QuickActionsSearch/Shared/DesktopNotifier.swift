import DBus

/// Tells the user something went wrong the desktop way: a notification through
/// org.freedesktop.Notifications (the Desktop Notifications Specification's `Notify`) when
/// that name has an owner, else a line in the broker's log.
public struct DesktopNotifier: Sendable {
    public static let busName: BusName = "org.freedesktop.Notifications"
    static let path: ObjectPath = "/org/freedesktop/Notifications"
    static let interface: InterfaceName = "org.freedesktop.Notifications"

    let connection: Connection
    let log: SearchLog

    public init(connection: Connection, log: SearchLog) {
        self.connection = connection
        self.log = log
    }

    /// The body as plain text for servers that read markup (the specification's "body-markup"):
    /// a plugin's message never becomes a link or a tag.
    public static func escaped(_ text: String) -> String {
        var result = ""
        for character in text.prefix(1000) {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            default: result.append(character)
            }
        }
        return result
    }

    /// Shows `summary` and `body`; logs them when no notification server runs or it refuses.
    public func notify(summary: String, body: String, icon: String = "dialog-error") async {
        let owner = (try? await connection.owner(of: Self.busName)) ?? nil
        guard owner != nil else {
            log(.warning, "\(summary): \(body) (no notification server is running)")
            return
        }
        do {
            // Notify(s app_name, u replaces_id, s app_icon, s summary, s body, as actions,
            //        a{sv} hints, i expire_timeout) -> u id
            _ = try await connection.call(
                destination: Self.busName, path: Self.path, interface: Self.interface, member: "Notify",
                [.string("Quick Actions"), .uint32(0), .string(icon), .string(String(summary.prefix(200))),
                 .string(Self.escaped(body)),
                 .array(.string, []),
                 .dictionary(key: .string, value: .variant, [DictionaryEntry(.string("urgency"), .variant(.byte(1)))]),
                 .int32(-1)],
                timeout: .seconds(5))
        } catch {
            log(.warning, "\(summary): \(body) (the notification server refused it: \(error.message))")
        }
    }
}
