import CDBus

extension Message {
    /// Appends values to the body (`dbus_message_iter_append_basic`,
    /// `dbus_message_iter_open_container` and friends).
    ///
    /// Every value is validated first: libdbus aborts the process on values
    /// that break the specification, so none may reach it.
    public func append(_ values: [Value]) throws(DBusError) {
        for value in values {
            do {
                try value.validate()
            } catch {
                throw DBusError.invalidArgs("cannot send \(value.type.signature) value: \(error)")
            }
        }
        var iter = DBusMessageIter()
        dbus_message_iter_init_append(raw, &iter)
        for value in values {
            try Self.append(value, to: &iter)
        }
    }

    /// Appends one value.
    public func append(_ value: Value) throws(DBusError) {
        try append([value])
    }

    /// Appends one value that has been validated.
    static func append(_ value: Value, to iter: inout DBusMessageIter) throws(DBusError) {
        let ok: Bool
        switch value {
        case .byte(let v): ok = appendBasic(v, DBUS_TYPE_BYTE, &iter)
        case .boolean(let v): ok = appendBasic(dbus_bool_t(v ? 1 : 0), DBUS_TYPE_BOOLEAN, &iter)
        case .int16(let v): ok = appendBasic(v, DBUS_TYPE_INT16, &iter)
        case .uint16(let v): ok = appendBasic(v, DBUS_TYPE_UINT16, &iter)
        case .int32(let v): ok = appendBasic(v, DBUS_TYPE_INT32, &iter)
        case .uint32(let v): ok = appendBasic(v, DBUS_TYPE_UINT32, &iter)
        case .int64(let v): ok = appendBasic(v, DBUS_TYPE_INT64, &iter)
        case .uint64(let v): ok = appendBasic(v, DBUS_TYPE_UINT64, &iter)
        case .double(let v): ok = appendBasic(v, DBUS_TYPE_DOUBLE, &iter)
        case .string(let v): ok = appendString(v, DBUS_TYPE_STRING, &iter)
        case .objectPath(let v): ok = appendString(v.rawValue, DBUS_TYPE_OBJECT_PATH, &iter)
        case .signature(let v): ok = appendString(v.rawValue, DBUS_TYPE_SIGNATURE, &iter)
        case .array(let element, let values):
            if element == .byte {
                let bytes: [UInt8] = values.map { value in
                    if case .byte(let byte) = value { return byte }
                    return 0
                }
                ok = try appendByteArray(bytes, &iter)
            } else {
                ok = try withContainer(DBUS_TYPE_ARRAY, element.signature, &iter) { sub throws(DBusError) in
                    for value in values {
                        try append(value, to: &sub)
                    }
                }
            }
        case .dictionary(let key, let valueType, let entries):
            let signature = "{\(key.signature)\(valueType.signature)}"
            ok = try withContainer(DBUS_TYPE_ARRAY, signature, &iter) { sub throws(DBusError) in
                for entry in entries {
                    _ = try withContainer(DBUS_TYPE_DICT_ENTRY, nil, &sub) { pair throws(DBusError) in
                        try append(entry.key, to: &pair)
                        try append(entry.value, to: &pair)
                    }
                }
            }
        case .structure(let fields):
            ok = try withContainer(DBUS_TYPE_STRUCT, nil, &iter) { sub throws(DBusError) in
                for field in fields {
                    try append(field, to: &sub)
                }
            }
        case .variant(let inner):
            ok = try withContainer(DBUS_TYPE_VARIANT, inner.type.signature, &iter) { sub throws(DBusError) in
                try append(inner, to: &sub)
            }
        }
        if !ok {
            throw DBusError.noMemory("appending a \(value.type.signature) value")
        }
    }

    private static func appendBasic<T: BitwiseCopyable>(_ value: T, _ type: Int32, _ iter: inout DBusMessageIter) -> Bool {
        var copy = value
        return dbus_message_iter_append_basic(&iter, type, &copy) != 0
    }

    private static func appendString(_ value: String, _ type: Int32, _ iter: inout DBusMessageIter) -> Bool {
        value.withCString { pointer in
            var borrowed: UnsafePointer<CChar>? = pointer
            return dbus_message_iter_append_basic(&iter, type, &borrowed) != 0
        }
    }

    private static func appendByteArray(_ bytes: [UInt8], _ iter: inout DBusMessageIter) throws(DBusError) -> Bool {
        try withContainer(DBUS_TYPE_ARRAY, "y", &iter) { sub throws(DBusError) in
            let ok = bytes.withUnsafeBufferPointer { buffer in
                var base = buffer.baseAddress
                return dbus_message_iter_append_fixed_array(&sub, DBUS_TYPE_BYTE, &base, Int32(buffer.count)) != 0
            }
            if !ok { throw DBusError.noMemory("appending a byte array") }
        }
    }

    /// Opens a container, fills it, and closes it; abandons it on failure.
    private static func withContainer(
        _ type: Int32, _ signature: String?, _ iter: inout DBusMessageIter,
        _ fill: (inout DBusMessageIter) throws(DBusError) -> Void
    ) throws(DBusError) -> Bool {
        var sub = DBusMessageIter()
        let opened: Bool
        if let signature {
            opened = signature.withCString { dbus_message_iter_open_container(&iter, type, $0, &sub) != 0 }
        } else {
            opened = dbus_message_iter_open_container(&iter, type, nil, &sub) != 0
        }
        guard opened else { return false }
        do {
            try fill(&sub)
        } catch {
            dbus_message_iter_abandon_container(&iter, &sub)
            throw error
        }
        return dbus_message_iter_close_container(&iter, &sub) != 0
    }
}
