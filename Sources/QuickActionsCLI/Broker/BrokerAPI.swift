import DBus

/// The names of the broker's public D-Bus API v1 (issue 4), the only thing
/// the CLI talks to.
public enum BrokerAPI {
    public static let busName: BusName = "org.quickactions.Broker1"
    public static let rootPath: ObjectPath = "/org/quickactions/Broker1"
    public static let interface: InterfaceName = "org.quickactions.Broker1"
    public static let applicationInterface = "org.quickactions.Application1"
    public static let objectManager: InterfaceName = "org.freedesktop.DBus.ObjectManager"

    /// The error names the broker answers with.
    public enum Errors {
        public static let unknownApplication = "org.quickactions.Error.UnknownApplication"
        public static let unknownItem = "org.quickactions.Error.UnknownItem"
        public static let pluginFailed = "org.quickactions.Error.PluginFailed"
        public static let timeout = "org.quickactions.Error.Timeout"
        public static let applicationInstalled = "org.quickactions.Error.ApplicationInstalled"
    }

    /// The signals `watch` follows.
    public static let itemsChanged = "ItemsChanged"
    public static let applicationsChanged = "ApplicationsChanged"

    /// The largest `timeout-ms` the broker accepts.
    public static let maximumTimeoutMilliseconds: UInt32 = 600_000
}
