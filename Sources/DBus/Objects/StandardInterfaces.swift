import CDBus

/// org.freedesktop.DBus.Introspectable, Peer, Properties and ObjectManager,
/// declared like any other interface and bound to one connection.
final class StandardInterfaces: Sendable {
    static let introspectableName: InterfaceName = "org.freedesktop.DBus.Introspectable"
    static let peerName: InterfaceName = "org.freedesktop.DBus.Peer"
    static let propertiesName: InterfaceName = "org.freedesktop.DBus.Properties"
    static let objectManagerName: InterfaceName = "org.freedesktop.DBus.ObjectManager"

    /// What every exported object has.
    let forPlainObject: [Interface]
    /// What an object manager root has.
    let forManager: [Interface]
    /// What a path that only leads to objects below it has.
    let forIntermediateNode: [Interface]

    init(connection: Connection) {
        let introspectable = Interface(Self.introspectableName, methods: [
            Method("Introspect", outputs: [Argument("xml_data", .string)]) { [weak connection] call in
                guard let connection, let path = call.path else { return [.string("")] }
                return [.string(connection.introspect(path))]
            },
        ])
        let peer = Interface(Self.peerName, methods: [
            Method("Ping") { _ in [] },
            Method("GetMachineId", outputs: [Argument("machine_uuid", .string)]) { _ in
                guard let id = dbus_get_local_machine_id() else {
                    throw DBusError(.failed, "no machine id is configured on this machine")
                }
                defer { dbus_free(id) }
                return [.string(String(cString: id))]
            },
        ])
        let properties = Interface(Self.propertiesName, methods: [
            Method("Get", inputs: [Argument("interface_name", .string), Argument("property_name", .string)],
                   outputs: [Argument("value", .variant)]) { [weak connection] call in
                guard let connection else { return [.variant(.string(""))] }
                return [.variant(try connection.getProperty(call))]
            },
            Method("GetAll", inputs: [Argument("interface_name", .string)],
                   outputs: [Argument("properties", .dictionary(key: .string, value: .variant))]) { [weak connection] call in
                guard let connection else { return [.dictionary(key: .string, value: .variant, [])] }
                return [try connection.getAllProperties(call)]
            },
            Method("Set", inputs: [Argument("interface_name", .string), Argument("property_name", .string),
                                   Argument("value", .variant)]) { [weak connection] call in
                try connection?.setProperty(call)
                return []
            },
        ], signals: [
            Signal("PropertiesChanged", arguments: [
                Argument("interface_name", .string),
                Argument("changed_properties", .dictionary(key: .string, value: .variant)),
                Argument("invalidated_properties", .array(.string)),
            ]),
        ])
        let objectManager = Interface(Self.objectManagerName, methods: [
            // Read and encoded off the loop: a listing of thousands of objects would hold it up.
            Method("GetManagedObjects", outputs: [Argument("objects", ManagedObjects.type)],
                   handler: .deferred { [weak connection] call, reply in
                guard let connection else {
                    reply.send([.dictionary(key: .objectPath, value: ManagedObjects.interfacesType, [])])
                    return
                }
                connection.listManagedObjects(call, reply: reply)
            }),
        ], signals: [
            Signal("InterfacesAdded", arguments: [
                Argument("object_path", .objectPath), Argument("interfaces_and_properties", ManagedObjects.interfacesType),
            ]),
            Signal("InterfacesRemoved", arguments: [
                Argument("object_path", .objectPath), Argument("interfaces", .array(.string)),
            ]),
        ])
        forPlainObject = [introspectable, peer, properties]
        forManager = [introspectable, peer, properties, objectManager]
        forIntermediateNode = [introspectable, peer]
    }

    func forObject(isManager: Bool) -> [Interface] {
        isManager ? forManager : forPlainObject
    }
}

/// The types of GetManagedObjects and InterfacesAdded.
enum ManagedObjects {
    static let propertiesType = DBusType.dictionary(key: .string, value: .variant)
    static let interfacesType = DBusType.dictionary(key: .string, value: propertiesType)
    static let type = DBusType.dictionary(key: .objectPath, value: interfacesType)
}
