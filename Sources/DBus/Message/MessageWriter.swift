import CDBus

/// Appends values to a message body straight from Swift types
/// (`dbus_message_iter_append_basic`, `dbus_message_iter_open_container`),
/// what a ``DBusArgument`` encodes into. No ``Value`` is built except for
/// variants, which are validated (as nested where they are) before libdbus
/// sees them.
///
/// libdbus aborts the process on values that break the specification, so
/// the writer refuses them first: strings with a NUL, and containers nested
/// deeper than the specification allows.
public struct MessageWriter {
    var iter = DBusMessageIter()
    private let message: Message
    /// Containers open around the current position, for the nesting limits.
    private var arrays = 0
    private var structures = 0
    private var total = 0

    /// A writer appending to the end of `message`'s body (`dbus_message_iter_init_append`).
    public init(_ message: Message) {
        self.message = message
        dbus_message_iter_init_append(message.raw, &iter)
    }

    private init(sub: DBusMessageIter, of parent: MessageWriter) {
        iter = sub
        message = parent.message
        arrays = parent.arrays
        structures = parent.structures
        total = parent.total
    }

    /// Writes one argument.
    public mutating func write<T: DBusArgument>(_ value: T) throws(DBusError) {
        try value.encode(to: &self)
    }

    mutating func appendBasic<T: BitwiseCopyable>(_ value: T, _ code: Int32) throws(DBusError) {
        var copy = value
        guard dbus_message_iter_append_basic(&iter, code, &copy) != 0 else {
            throw DBusError.noMemory("appending a value")
        }
    }

    /// A string, object path or signature; `text` must already be valid for
    /// `code` apart from NULs, which are refused here.
    mutating func appendString(_ text: String, _ code: Int32) throws(DBusError) {
        if text.containsNUL {
            throw DBusError.invalidArgs("cannot send a string containing NUL: \(text.quoted())")
        }
        let ok = text.withCString { pointer in
            var borrowed: UnsafePointer<CChar>? = pointer
            return dbus_message_iter_append_basic(&iter, code, &borrowed) != 0
        }
        guard ok else { throw DBusError.noMemory("appending a string") }
    }

    /// Bytes as an "ay" array in one call (`dbus_message_iter_append_fixed_array`).
    mutating func appendByteArray(_ bytes: [UInt8]) throws(DBusError) {
        try appendContainer(DBUS_TYPE_ARRAY, "y") { sub throws(DBusError) in
            let ok = bytes.withUnsafeBufferPointer { buffer in
                var base = buffer.baseAddress
                return dbus_message_iter_append_fixed_array(&sub.iter, DBUS_TYPE_BYTE, &base, Int32(buffer.count)) != 0
            }
            if !ok { throw DBusError.noMemory("appending a byte array") }
        }
    }

    /// A variant's or other value's contents, validated as nested here.
    mutating func appendValue(_ value: Value) throws(DBusError) {
        do {
            try value.validate(insideArrays: arrays, structures: structures, total: total)
        } catch {
            throw DBusError.invalidArgs("cannot send \(value.type.signature) value: \(error)")
        }
        try Message.append(value, to: &iter)
    }

    /// Opens a container (array with `signature` as element type, struct,
    /// dict entry or variant), fills it, closes it; abandons it on failure.
    mutating func appendContainer(
        _ code: Int32, _ signature: String?, _ fill: (inout MessageWriter) throws(DBusError) -> Void
    ) throws(DBusError) {
        var inner = MessageWriter(sub: DBusMessageIter(), of: self)
        inner.total += 1
        switch code {
        case DBUS_TYPE_ARRAY: inner.arrays += 1
        case DBUS_TYPE_STRUCT, DBUS_TYPE_DICT_ENTRY: inner.structures += 1
        default: break
        }
        guard inner.arrays <= DBusLimits.maximumArrayNesting,
              inner.structures <= DBusLimits.maximumStructureNesting,
              inner.total <= DBusLimits.maximumTotalNesting else {
            throw DBusError.invalidArgs("cannot send a value nested deeper than D-Bus allows")
        }
        let opened: Bool
        if let signature {
            opened = signature.withCString { dbus_message_iter_open_container(&iter, code, $0, &inner.iter) != 0 }
        } else {
            opened = dbus_message_iter_open_container(&iter, code, nil, &inner.iter) != 0
        }
        guard opened else { throw DBusError.noMemory("opening a container") }
        do {
            try fill(&inner)
        } catch {
            dbus_message_iter_abandon_container(&iter, &inner.iter)
            throw error
        }
        guard dbus_message_iter_close_container(&iter, &inner.iter) != 0 else {
            throw DBusError.noMemory("closing a container")
        }
    }
}
