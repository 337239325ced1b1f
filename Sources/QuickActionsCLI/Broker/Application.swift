import DBus
import QuickActionsAPI

/// An app as `ListApplications` and its object's properties describe it.
public struct Application: Sendable, Equatable {
    public let id: String
    public let name: String
    public let icon: String
    /// From the app object's `Version`; nil when only `ListApplications` was asked.
    public let version: String?
    /// From the app object's `Loaded`; nil when only `ListApplications` was asked.
    public let loaded: Bool?

    public init(id: String, name: String, icon: String, version: String? = nil, loaded: Bool? = nil) {
        self.id = id
        self.name = name
        self.icon = icon
        self.version = version
        self.loaded = loaded
    }

    /// Reads `ListApplications`' `a(sss)`.
    static func list(decoding value: Value?) throws(CLIError) -> [Application] {
        guard let elements = value?.array else {
            throw .failed("the broker answered ListApplications with something other than a list")
        }
        var apps: [Application] = []
        for element in elements {
            guard let fields = element.structure, fields.count == 3, let id = fields[0].string,
                  let name = fields[1].string, let icon = fields[2].string
            else {
                throw .failed("the broker listed an application as \(element.type), not (sss)")
            }
            apps.append(Application(id: id, name: name, icon: icon))
        }
        return apps
    }

    /// Reads the apps out of `GetManagedObjects`' `a{oa{sa{sv}}}`: every
    /// object with the Application1 interface, sorted by id.
    static func list(managedObjects value: Value?) throws(CLIError) -> [Application] {
        guard let objects = value?.dictionary else {
            throw .failed("the broker answered GetManagedObjects with something other than a dictionary")
        }
        var apps: [Application] = []
        for (path, interfaces) in objects {
            guard let properties = interfaces.dictionary?[.string(BrokerAPI.applicationInterface.rawValue)]?.dictionary else {
                continue
            }
            guard let id = properties[.string(BrokerAPI.Property.id)]?.string else {
                throw .failed("the broker's object \(path.objectPath?.rawValue ?? "?") has no string \(BrokerAPI.Property.id)")
            }
            apps.append(Application(
                id: id, name: properties[.string(BrokerAPI.Property.name)]?.string ?? "",
                icon: properties[.string(BrokerAPI.Property.icon)]?.string ?? "",
                version: properties[.string(BrokerAPI.Property.version)]?.string ?? "",
                loaded: properties[.string(BrokerAPI.Property.loaded)]?.bool ?? false))
        }
        return apps.sorted { $0.id < $1.id }
    }
}
