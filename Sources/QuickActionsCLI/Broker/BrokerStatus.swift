import DBus
import QuickActionsAPI

/// What `quickactions status` shows, read from the broker's status
/// properties (dbus/org.quickactions.Broker1.xml, Application1.xml).
public struct BrokerStatus: Sendable, Equatable {
    /// One plugin folder, in search order.
    public struct Directory: Sendable, Equatable {
        public let path: String
        public let missing: Bool
    }

    /// One app's state.
    public struct App: Sendable, Equatable {
        public let id: String
        public let bundlePath: String
        public let loaded: Bool
        /// 0 while the plugin runs in the broker's process.
        public let hostPID: UInt32
        public let quarantined: Bool
        public let quarantineReason: String
        public let lastLoadError: String
    }

    public let pid: UInt32
    public let version: String
    /// Microseconds since the Unix epoch.
    public let startTime: UInt64
    public let directories: [Directory]
    /// The apps with a plugin bundle (those only item providers serve are counted in `providers`).
    public let apps: [App]

    /// One item provider that runs, with what it gives.
    public struct Provider: Sendable, Equatable {
        public let name: String
        public let apps: UInt32
        public let items: UInt32
    }

    /// Empty from a broker older than item providers.
    public let providers: [Provider]

    /// Reads Properties.GetAll's `a{sv}` and GetManagedObjects' `a{oa{sa{sv}}}`.
    init(properties: Value?, managedObjects: Value?) throws(CLIError) {
        guard let root = properties?.dictionary else {
            throw .failed("the broker answered GetAll with something other than a dictionary")
        }
        func property(_ name: String) -> Value? { root[.string(name)]?.unwrappedVariant }
        guard let pid = property(BrokerAPI.Property.pid)?.uint64, let startTime = property(BrokerAPI.Property.startTime)?.uint64,
              let searched = property(BrokerAPI.Property.pluginDirectories)?.array
        else {
            throw .failed("the broker has no status properties (PID, StartTime, PluginDirectories): it is older than this CLI")
        }
        let missing = Set((property(BrokerAPI.Property.missingPluginDirectories)?.array ?? []).compactMap(\.string))
        self.pid = UInt32(clamping: pid)
        self.startTime = startTime
        version = property(BrokerAPI.Property.version)?.string ?? ""
        directories = searched.compactMap(\.string).map { Directory(path: $0, missing: missing.contains($0)) }
        providers = (property(BrokerAPI.Property.providers)?.array ?? []).compactMap { value in
            guard let fields = value.structure, fields.count == 3, let name = fields[0].string,
                  let apps = fields[1].uint64, let items = fields[2].uint64 else { return nil }
            return Provider(name: name, apps: UInt32(clamping: apps), items: UInt32(clamping: items))
        }

        guard let objects = managedObjects?.dictionary else {
            throw .failed("the broker answered GetManagedObjects with something other than a dictionary")
        }
        var apps: [App] = []
        for (_, interfaces) in objects {
            guard let properties = interfaces.dictionary?[.string(BrokerAPI.applicationInterface.rawValue)]?.dictionary,
                  let id = properties[.string(BrokerAPI.Property.id)]?.unwrappedVariant.string
            else { continue }
            func value(_ name: String) -> Value? { properties[.string(name)]?.unwrappedVariant }
            guard value(BrokerAPI.Property.bundlePath)?.string?.isEmpty == false else { continue }
            apps.append(App(
                id: id, bundlePath: value(BrokerAPI.Property.bundlePath)?.string ?? "",
                loaded: value(BrokerAPI.Property.loaded)?.bool ?? false,
                hostPID: UInt32(clamping: value(BrokerAPI.Property.hostPID)?.uint64 ?? 0),
                quarantined: value(BrokerAPI.Property.quarantined)?.bool ?? false,
                quarantineReason: value(BrokerAPI.Property.quarantineReason)?.string ?? "",
                lastLoadError: value(BrokerAPI.Property.lastLoadError)?.string ?? ""))
        }
        self.apps = apps.sorted { $0.id < $1.id }
    }
}
