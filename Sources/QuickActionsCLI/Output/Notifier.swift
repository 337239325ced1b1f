import DBus
import QuickActionsAPI

/// Shows a result as a desktop notification (org.freedesktop.Notifications
/// on the session bus), for `pick` run from a key binding: no terminal sees
/// its stdout.
struct Notifier: Sendable {
    let connection: Connection

    /// A notifier on the session bus when a notification service owns its
    /// name there, else nil. `reuse` is the broker's connection when that is
    /// the session bus (no second connection).
    static func connect(reusing reuse: Connection?) async -> Notifier? {
        let connection: Connection
        if let reuse {
            connection = reuse
        } else {
            guard let made = try? Connection(.session) else { return nil }
            connection = made
        }
        guard (try? await connection.owner(of: DesktopNotifications.busName)) ?? nil != nil else { return nil }
        return Notifier(connection: connection)
    }

    /// Sends one notification; a failure to show it changes nothing else.
    func show(summary: String, body: String, isError: Bool) async {
        let hints = Value.dictionary(key: .string, value: .variant, [
            DictionaryEntry(.string(DesktopNotifications.urgencyHint), .variant(.byte(isError ? 2 : 1))),
        ])
        _ = try? await connection.call(
            destination: DesktopNotifications.busName, path: DesktopNotifications.path,
            interface: DesktopNotifications.interface, member: DesktopNotifications.notify,
            [
                .string(QuickActionsCLI.toolName), .uint32(0), .string(isError ? "dialog-error" : ""),
                .string(summary), .string(body), .array(.string, []), hints, .int32(-1),
            ])
    }
}
