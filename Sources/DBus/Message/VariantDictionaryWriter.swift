import CDBus

/// The entries of an "a{sv}" being written by
/// ``MessageWriter/appendVariantDictionary(_:)``: each ``append(_:_:)``
/// writes one `{key, variant}` entry straight into the message, with no
/// `Dictionary` and no ``Value`` built for it. For results whose keys and
/// value types are fixed in code (a method's `a{sv}` result, say); keys are
/// written in the order they are appended, and the writer does not check
/// that they are unique: that is the caller's to keep.
public struct VariantDictionaryWriter {
    var entries: MessageWriter

    /// Appends the entry `{key, <value>}`, `value` as the variant's contents
    /// (of type `T.dbusType`).
    public mutating func append<T: DBusArgument>(_ key: String, _ value: T) throws(DBusError) {
        try entries.appendContainer(DBUS_TYPE_DICT_ENTRY, nil) { pair throws(DBusError) in
            try pair.appendString(key, DBUS_TYPE_STRING)
            try pair.appendContainer(DBUS_TYPE_VARIANT, T.dbusType.signature) { inner throws(DBusError) in
                try value.encode(to: &inner)
            }
        }
    }

    /// Appends the entry `{key, <"s" value>}`: the common case, without generic dispatch.
    public mutating func append(_ key: String, _ value: String) throws(DBusError) {
        try entries.appendContainer(DBUS_TYPE_DICT_ENTRY, nil) { pair throws(DBusError) in
            try pair.appendString(key, DBUS_TYPE_STRING)
            try pair.appendContainer(DBUS_TYPE_VARIANT, "s") { inner throws(DBusError) in
                try inner.appendString(value, DBUS_TYPE_STRING)
            }
        }
    }
}

extension MessageWriter {
    /// Appends an "a{sv}" whose entries `fill` appends one by one
    /// (`dbus_message_iter_open_container` for the array, each entry and
    /// each variant): the typed way to write an `a{sv}` of fixed shape.
    /// On a failure the dictionary is abandoned, nothing of it written.
    public mutating func appendVariantDictionary(
        _ fill: (inout VariantDictionaryWriter) throws(DBusError) -> Void
    ) throws(DBusError) {
        try appendContainer(DBUS_TYPE_ARRAY, "{sv}") { array throws(DBusError) in
            var dictionary = VariantDictionaryWriter(entries: array)
            try fill(&dictionary)
            array = dictionary.entries
        }
    }
}
