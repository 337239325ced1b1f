extension Connection {
    // MARK: Exporting

    /// Exports an object with the given interfaces at `path`, replacing what
    /// was there. Under an object manager, the interfaces new to the path
    /// are announced with InterfacesAdded.
    public func export(_ interfaces: [Interface], at path: ObjectPath) throws(DBusError) {
        let (previous, manager) = objects.set(interfaces, at: path)
        guard let manager else { return }
        let old = Set(previous?.interfaces.map(\.name) ?? [])
        let added = interfaces.filter { !old.contains($0.name) }
        if !added.isEmpty {
            try emit(path: manager, interface: StandardInterfaces.objectManagerName, member: "InterfacesAdded",
                     [.objectPath(path), interfacesAndProperties(added, at: path)])
        }
        let removed = (previous?.interfaces ?? []).map(\.name).filter { name in !interfaces.contains { $0.name == name } }
        if !removed.isEmpty {
            try emit(path: manager, interface: StandardInterfaces.objectManagerName, member: "InterfacesRemoved",
                     [.objectPath(path), .array(.string, removed.map { .string($0.rawValue) })])
        }
    }

    /// Removes the object at `path`; under an object manager this emits
    /// InterfacesRemoved.
    public func unexport(_ path: ObjectPath) throws(DBusError) {
        let (removed, manager) = objects.remove(path)
        guard let removed, let manager else { return }
        try emit(path: manager, interface: StandardInterfaces.objectManagerName, member: "InterfacesRemoved",
                 [.objectPath(path), .array(.string, removed.interfaces.map { .string($0.name.rawValue) })])
    }

    /// Makes `path` an org.freedesktop.DBus.ObjectManager for the objects below it.
    public func addObjectManager(at path: ObjectPath) {
        objects.addManager(path)
    }

    /// Emits PropertiesChanged for the named properties of an exported
    /// object, with their current values (or as invalidated, for properties
    /// declared that way).
    public func emitPropertiesChanged(path: ObjectPath, interface: InterfaceName, names: [MemberName]) throws(DBusError) {
        // Before reading: a listing cached from now on reads the new values.
        objects.noteChange()
        guard let declared = objects.node(at: path)?.byName[interface] else {
            throw DBusError(.unknownInterface, "object \(path.rawValue) has no interface \(interface.rawValue)")
        }
        var changed: [DictionaryEntry] = []
        var invalidated: [Value] = []
        for name in names {
            guard let property = declared.propertiesByName[name.rawValue] else {
                throw DBusError(.unknownProperty, "interface \(interface.rawValue) has no property \(name.rawValue)")
            }
            switch property.changeSignal {
            case .emits:
                do {
                    changed.append(DictionaryEntry(.string(name.rawValue), .variant(try property.getter(path))))
                } catch {
                    throw Self.dbusError(error, label: "reading property \(name.rawValue)")
                }
            case .invalidates:
                invalidated.append(.string(name.rawValue))
            case .constant, .none:
                continue
            }
        }
        guard !changed.isEmpty || !invalidated.isEmpty else { return }
        try emit(path: path, interface: StandardInterfaces.propertiesName, member: "PropertiesChanged", [
            .string(interface.rawValue),
            .dictionary(key: .string, value: .variant, changed),
            .array(.string, invalidated),
        ])
    }

    // MARK: Standard interface handlers

    func introspect(_ path: ObjectPath) -> String {
        let interfaces: [Interface]
        if let node = objects.node(at: path) {
            interfaces = node.interfaces + standardInterfaces.forObject(isManager: objects.isManager(path))
        } else {
            interfaces = standardInterfaces.forIntermediateNode
        }
        return Introspection.xml(interfaces: interfaces, children: objects.children(of: path))
    }

    private func declaredInterface(_ call: MethodCall) throws(DBusError) -> (Interface, ObjectPath) {
        guard let path = call.path, let node = objects.node(at: path) else {
            throw DBusError(.unknownObject, "no object at path \((call.path?.rawValue ?? "").quoted())")
        }
        guard case .string(let name)? = call.arguments.first else {
            throw DBusError.invalidArgs("the first argument must be an interface name")
        }
        guard let interfaceName = try? InterfaceName(name), let interface = node.byName[interfaceName] else {
            throw DBusError(.unknownInterface, "object \(path.rawValue) has no interface \(name.quoted()) with properties")
        }
        return (interface, path)
    }

    private func property(_ call: MethodCall) throws(DBusError) -> (Interface, Property, ObjectPath) {
        let (interface, path) = try declaredInterface(call)
        guard call.arguments.count > 1, case .string(let name) = call.arguments[1] else {
            throw DBusError.invalidArgs("the second argument must be a property name")
        }
        guard let property = interface.propertiesByName[name] else {
            throw DBusError(.unknownProperty, "interface \(interface.name.rawValue) has no property \(name.quoted())")
        }
        return (interface, property, path)
    }

    func getProperty(_ call: MethodCall) throws(DBusError) -> Value {
        let (interface, property, path) = try property(call)
        return try read(property, of: interface, at: path)
    }

    func getAllProperties(_ call: MethodCall) throws(DBusError) -> Value {
        let (interface, path) = try declaredInterface(call)
        return try propertiesDictionary(interface, at: path)
    }

    func setProperty(_ call: MethodCall) throws(DBusError) {
        let (interface, property, _) = try property(call)
        guard let set = property.setter else {
            throw DBusError(.propertyReadOnly, "property \(property.name.rawValue) of \(interface.name.rawValue) is read-only")
        }
        guard call.arguments.count > 2, case .variant(let value) = call.arguments[2] else {
            throw DBusError.invalidArgs("the third argument must be a variant")
        }
        guard value.type == property.type else {
            throw DBusError.invalidArgs("property \(property.name.rawValue) has type \"\(property.type.signature)\", "
                + "got a value of type \"\(value.type.signature)\"")
        }
        do {
            try set(value)
        } catch {
            throw Self.dbusError(error, label: "setting property \(property.name.rawValue)")
        }
        if let path = call.path {
            try emitPropertiesChanged(path: path, interface: interface.name, names: [property.name])
        }
    }

    private func read(_ property: Property, of interface: InterfaceName, at path: ObjectPath) throws(DBusError) -> Value {
        do {
            return try property.getter(path)
        } catch {
            throw Self.dbusError(error, label: "reading property \(property.name.rawValue) of \(interface.rawValue)")
        }
    }

    private func read(_ property: Property, of interface: Interface, at path: ObjectPath) throws(DBusError) -> Value {
        try read(property, of: interface.name, at: path)
    }

    private func propertiesDictionary(_ interface: Interface, at path: ObjectPath) throws(DBusError) -> Value {
        var entries: [DictionaryEntry] = []
        entries.reserveCapacity(interface.properties.count)
        for property in interface.properties {
            entries.append(DictionaryEntry(.string(property.name.rawValue), .variant(try read(property, of: interface, at: path))))
        }
        return .dictionary(key: .string, value: .variant, entries)
    }

    private func interfacesAndProperties(_ interfaces: [Interface], at path: ObjectPath) throws(DBusError) -> Value {
        var entries: [DictionaryEntry] = []
        for interface in interfaces {
            entries.append(DictionaryEntry(.string(interface.name.rawValue), try propertiesDictionary(interface, at: path)))
        }
        return .dictionary(key: .string, value: ManagedObjects.propertiesType, entries)
    }
}
