import DBus
import QuickActionsAPI

/// The broker's own D-Bus errors (part of API v1; see dbus/), named once in QuickActionsAPI.
extension ErrorName {
    public static let unknownApplication = BrokerAPI.ErrorNames.unknownApplication
    public static let unknownItem = BrokerAPI.ErrorNames.unknownItem
    public static let pluginFailed = BrokerAPI.ErrorNames.pluginFailed
    public static let performTimeout = BrokerAPI.ErrorNames.timeout
    /// ForgetApplication was asked to forget an app whose bundle is installed.
    public static let applicationInstalled = BrokerAPI.ErrorNames.applicationInstalled
}

extension DBusError {
    static func unknownApplication(_ id: String) -> DBusError {
        DBusError(.unknownApplication, "no application with id \(id.quoted())")
    }

    static func unknownItem(_ type: String, app: String) -> DBusError {
        DBusError(.unknownItem, "application \(app.quoted()) has no current item of type \(type.quoted())")
    }

    static func unknownItemID(_ id: String, app: String) -> DBusError {
        DBusError(.unknownItem, "application \(app.quoted()) has no current item with id \(id.quoted())")
    }

    static func itemTypeMismatch(id: String, type: String, asked: String, app: String) -> DBusError {
        DBusError(.unknownItem,
            "application \(app.quoted())'s item with id \(id.quoted()) has type \(type.quoted()), not \(asked.quoted())")
    }
}
