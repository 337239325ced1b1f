import DBus

/// Reading a player's property messages (`GetAll`, `Get` replies and `PropertiesChanged`)
/// without decoding what the provider does not read: only the named properties' values are
/// built, every other entry of the dictionary is passed over by libdbus's iterator.
enum PlayerReading {
    /// The properties of `interface` the provider reads, from a `GetAll` reply (`a{sv}`).
    static func getAll(_ reply: Message, interface: String) throws(DBusError) -> [(String, Value)] {
        let names = MPRIS.properties(of: interface)
        var reader = MessageReader(reply)
        let values = try reader.entries(named: names)
        return zip(names, values).compactMap { name, value in value.map { (name, $0) } }
    }

    /// A `Get` reply's value (`v`).
    static func get(_ reply: Message) throws(DBusError) -> Value {
        var reader = MessageReader(reply)
        let value: Value = try reader.read()
        return value.unwrappedVariant
    }

    /// A `PropertiesChanged(s interface, a{sv} changed, as invalidated)` signal: the interface,
    /// the changed properties the provider reads, and those of them invalidated (to `Get`
    /// again). Nothing for an interface the provider does not read.
    static func propertiesChanged(
        _ message: Message
    ) throws(DBusError) -> (interface: String, changed: [(String, Value)], invalidated: [String]) {
        var reader = MessageReader(message)
        let interface: String = try reader.read()
        let names = MPRIS.properties(of: interface)
        guard !names.isEmpty else { return (interface, [], []) }
        let values = try reader.entries(named: names)
        let invalidated: [String] = try reader.read()
        let changed = zip(names, values).compactMap { name, value in value.map { (name, $0) } }
        // At most the provider's own names, each once, however many the player lists.
        return (interface, changed, names.filter(invalidated.contains))
    }
}
