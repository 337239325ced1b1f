import DBus

/// The names of the broker's public D-Bus API v1 (dbus/org.quickactions.Broker1.xml and
/// dbus/org.quickactions.Application1.xml), spelled once for the broker, the CLI, the bridges
/// and the tests. A renamed member is a compile error here, never a silent mismatch on the wire.
public enum BrokerAPI {
    /// The broker's well-known name on the session bus.
    public static let busName: BusName = "org.quickactions.Broker1"
    /// The root object: the Broker1 interface and the ObjectManager of every app.
    public static let rootPath: ObjectPath = "/org/quickactions/Broker1"
    /// The parent of every app's object.
    public static let appsPath: ObjectPath = "/org/quickactions/Broker1/apps"
    public static let interface: InterfaceName = "org.quickactions.Broker1"
    /// Each app's object implements this.
    public static let applicationInterface: InterfaceName = "org.quickactions.Application1"
    public static let objectManager: InterfaceName = "org.freedesktop.DBus.ObjectManager"
    /// Read the root's status properties with its GetAll.
    public static let properties: InterfaceName = "org.freedesktop.DBus.Properties"

    /// The object of the app `appID`: its id escaped into one path element.
    public static func appPath(_ appID: String) -> ObjectPath {
        appsPath.appendingEscaped(appID)
    }

    /// The methods of org.quickactions.Broker1.
    public enum Member {
        public static let listApplications: MemberName = "ListApplications"
        public static let getItems: MemberName = "GetItems"
        public static let getAllItems: MemberName = "GetAllItems"
        public static let perform: MemberName = "Perform"
        public static let reload: MemberName = "Reload"
        /// Added in 1.1: removes an uninstalled app's stored items.
        public static let forgetApplication: MemberName = "ForgetApplication"
        public static let getManagedObjects: MemberName = "GetManagedObjects"
        /// org.freedesktop.DBus.Properties.GetAll(interface).
        public static let getAll: MemberName = "GetAll"
    }

    /// The signals of org.quickactions.Broker1.
    public enum Signal {
        public static let itemsChanged: MemberName = "ItemsChanged"
        public static let applicationsChanged: MemberName = "ApplicationsChanged"
    }

    /// The properties of org.quickactions.Broker1 and org.quickactions.Application1.
    public enum Property {
        public static let version = "Version"
        public static let pendingPerforms = "PendingPerforms"
        public static let id = "Id"
        public static let name = "Name"
        public static let icon = "Icon"
        public static let loaded = "Loaded"
        public static let items = "Items"
        /// Application1: the bundle's languages (`as`, its .lproj names without Base).
        public static let languages = "Languages"
        /// Application1: the display name per language (`a{ss}`, language → name).
        public static let displayNames = "DisplayNames"
        /// Application1: the desktop file id of the app's own entry (`s`, "" for none).
        public static let desktopEntry = "DesktopEntry"

        // Read-only status (quickactions status), on org.quickactions.Broker1:
        /// u: the broker's process id.
        public static let pid = "PID"
        /// t: when the broker started, in microseconds since the Unix epoch (CLOCK_REALTIME).
        public static let startTime = "StartTime"
        /// as: the plugin folders searched, in search order.
        public static let pluginDirectories = "PluginDirectories"
        /// as: those of PluginDirectories that do not exist (or are not folders) now.
        public static let missingPluginDirectories = "MissingPluginDirectories"
        /// a(suu): the item providers that run, each with the apps and items it gives.
        public static let providers = "Providers"

        // ... and on org.quickactions.Application1:
        /// s: the app's bundle folder.
        public static let bundlePath = "BundlePath"
        /// b: whether the app's plugin is refused until its library changes.
        public static let quarantined = "Quarantined"
        /// s: why it is quarantined, or "".
        public static let quarantineReason = "QuarantineReason"
        /// s: why the last load of its plugin failed, or "" (never failed, or loaded since).
        public static let lastLoadError = "LastLoadError"
        /// u: the process id of the host running its plugin; 0 while plugins run in the broker's process.
        public static let hostPID = "HostPID"
    }

    /// The error names the broker answers with, beside the bus's own.
    public enum ErrorNames {
        public static let unknownApplication: ErrorName = "org.quickactions.Error.UnknownApplication"
        public static let unknownItem: ErrorName = "org.quickactions.Error.UnknownItem"
        public static let pluginFailed: ErrorName = "org.quickactions.Error.PluginFailed"
        public static let timeout: ErrorName = "org.quickactions.Error.Timeout"
        /// Added in 1.1: ForgetApplication of an installed app.
        public static let applicationInstalled: ErrorName = "org.quickactions.Error.ApplicationInstalled"
        /// Added in 1.1: the process running the app's plugin died while the call was pending.
        public static let pluginCrashed: ErrorName = "org.quickactions.Error.PluginCrashed"
    }

    /// The keys of the `a{sv}` options of GetItems, GetAllItems and Perform.
    public enum Option {
        /// s: the locale to list or perform in.
        public static let locale = "locale"
        /// u: at most this many items per app.
        public static let limit = "limit"
        /// u: Perform only, 1 to ``maximumTimeoutMilliseconds``.
        public static let timeoutMilliseconds = "timeout-ms"
        /// a{sv}: Perform only, caller data for the plugin.
        public static let arguments = "arguments"
        /// s: Perform only, an XDG activation token.
        public static let activationToken = "activation-token"
        /// s: Perform only, an X11 startup notification id, passed on as DESKTOP_STARTUP_ID to
        /// what a provided item launches.
        public static let desktopStartupID = "desktop-startup-id"
        /// s: Perform only, the id of exactly the item to perform.
        public static let itemID = "item-id"
    }

    /// The keys of the `a{sv}` result of Perform.
    public enum ResultKey {
        public static let message = "message"
        /// ``Activation/launch`` when the call loaded the plugin, else ``Activation/resume``.
        public static let activation = "activation"
    }

    /// The values of Perform's ``ResultKey/activation``.
    public enum Activation {
        /// The call loaded the app's plugin.
        public static let launch = "launch"
        /// The plugin was loaded before the call.
        public static let resume = "resume"
    }

    /// The largest `timeout-ms` the broker accepts.
    public static let maximumTimeoutMilliseconds: UInt32 = 600_000
}
