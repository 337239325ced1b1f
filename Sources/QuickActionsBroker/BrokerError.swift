import DBus

/// The broker's own D-Bus errors (part of API v1; see dbus/).
extension ErrorName {
    public static let unknownApplication: ErrorName = "org.quickactions.Error.UnknownApplication"
    public static let unknownItem: ErrorName = "org.quickactions.Error.UnknownItem"
    public static let pluginFailed: ErrorName = "org.quickactions.Error.PluginFailed"
    public static let performTimeout: ErrorName = "org.quickactions.Error.Timeout"
}

extension DBusError {
    static func unknownApplication(_ id: String) -> DBusError {
        DBusError(.unknownApplication, "no application with id \(id.quoted())")
    }

    static func unknownItem(_ type: String, app: String) -> DBusError {
        DBusError(.unknownItem, "application \(app.quoted()) has no current item of type \(type.quoted())")
    }
}
