import DBus
import QuickActionsProviding

/// D-Bus activation of a `DBusActivatable=true` entry (the Desktop Entry Specification's
/// "D-Bus Activation"): `org.freedesktop.Application` on the bus name that is the desktop
/// file id without `.desktop`, at the object path derived from it (`/` + the name with `.` as
/// `/` and `-` as `_`).
enum ApplicationActivation {
    static let interface: InterfaceName = "org.freedesktop.Application"

    /// `org.gnome.TextEditor` → `/org/gnome/TextEditor`; `org.example.my-app` →
    /// `/org/example/my_app`.
    static func objectPath(forBusName name: String) -> String {
        "/" + String(name.map { $0 == "." ? "/" : $0 == "-" ? "_" : $0 })
    }

    /// `platform-data` (a{sv}): `activation-token` and `desktop-startup-id` when given.
    static func platformData(_ context: LaunchContext) -> Value {
        var entries: [DictionaryEntry] = []
        if let token = context.activationToken {
            entries.append(DictionaryEntry(.string("activation-token"), .variant(.string(token))))
        }
        if let id = context.startupID {
            entries.append(DictionaryEntry(.string("desktop-startup-id"), .variant(.string(id))))
        }
        return .dictionary(key: .string, value: .variant, entries)
    }

    /// What to call: `ActivateAction(s, av, a{sv})` for an action, else `Open(as, a{sv})` with
    /// files, else `Activate(a{sv})`.
    static func call(action: String?, uris: [String], context: LaunchContext) -> (member: MemberName, arguments: [Value]) {
        let platform = platformData(context)
        if let action {
            return ("ActivateAction", [.string(action), .array(.variant, []), platform])
        }
        if !uris.isEmpty {
            return ("Open", [.array(.string, uris.map { .string($0) }), platform])
        }
        return ("Activate", [platform])
    }

    /// Calls the application; the bus starts it when needed.
    static func activate(
        _ app: InstalledApplication, action: String?, uris: [String], context: LaunchContext, on connection: Connection,
        timeout: Duration
    ) async throws(DBusError) {
        let name = app.appID
        let destination: BusName
        let path: ObjectPath
        do {
            destination = try BusName(name)
            path = try ObjectPath(objectPath(forBusName: name))
        } catch {
            throw DBusError(.invalidArgs, "\(ValueEscaping.bounded(app.desktopID)) is DBusActivatable, but \"\(ValueEscaping.bounded(name))\" is not a bus name an application can own (\(error))")
        }
        let (member, arguments) = call(action: action, uris: uris, context: context)
        let message = try Message.methodCall(destination: destination, path: path, interface: interface, member: member)
        try message.append(arguments)
        _ = try await connection.call(message, timeout: timeout)
    }
}
