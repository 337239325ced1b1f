import Locking
import CDBus

extension Message {
    /// The body's values (`dbus_message_iter_*`), copied out of libdbus.
    ///
    /// libdbus has already validated the body against the specification
    /// (types, UTF-8, nesting limits) when the message arrived.
    public func arguments() throws(DBusError) -> [Value] {
        var iter = DBusMessageIter()
        guard dbus_message_iter_init(raw, &iter) != 0 else { return [] }
        var values: [Value] = []
        repeat {
            values.append(try Self.read(&iter))
        } while dbus_message_iter_next(&iter) != 0
        return values
    }

    /// One complete value at the iterator (which is not advanced).
    static func read(_ iter: inout DBusMessageIter) throws(DBusError) -> Value {
        let type = dbus_message_iter_get_arg_type(&iter)
        switch type {
        case DBUS_TYPE_BYTE: return .byte(readBasic(&iter, UInt8(0)))
        case DBUS_TYPE_BOOLEAN: return .boolean(readBasic(&iter, dbus_bool_t(0)) != 0)
        case DBUS_TYPE_INT16: return .int16(readBasic(&iter, Int16(0)))
        case DBUS_TYPE_UINT16: return .uint16(readBasic(&iter, UInt16(0)))
        case DBUS_TYPE_INT32: return .int32(readBasic(&iter, Int32(0)))
        case DBUS_TYPE_UINT32: return .uint32(readBasic(&iter, UInt32(0)))
        case DBUS_TYPE_INT64: return .int64(readBasic(&iter, Int64(0)))
        case DBUS_TYPE_UINT64: return .uint64(readBasic(&iter, UInt64(0)))
        case DBUS_TYPE_DOUBLE: return .double(readBasic(&iter, Double(0)))
        case DBUS_TYPE_STRING: return .string(readString(&iter))
        case DBUS_TYPE_OBJECT_PATH: return .objectPath(ObjectPath(unchecked: readString(&iter)))
        case DBUS_TYPE_SIGNATURE:
            let text = readString(&iter)
            do {
                return .signature(try Signature(text))
            } catch {
                throw DBusError.invalidArgs("received signature \"\(text)\" is invalid: \(error)")
            }
        case DBUS_TYPE_ARRAY:
            return try readArray(&iter)
        case DBUS_TYPE_STRUCT:
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &sub)
            var fields: [Value] = []
            while dbus_message_iter_get_arg_type(&sub) != DBUS_TYPE_INVALID {
                fields.append(try read(&sub))
                dbus_message_iter_next(&sub)
            }
            return .structure(fields)
        case DBUS_TYPE_VARIANT:
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &sub)
            return .variant(try read(&sub))
        case DBUS_TYPE_UNIX_FD:
            throw DBusError.invalidArgs("unix file descriptors (type \"h\") are not supported")
        default:
            throw DBusError.invalidArgs("unexpected type code \(type) in message body")
        }
    }

    private static func readBasic<T: BitwiseCopyable>(_ iter: inout DBusMessageIter, _ initial: T) -> T {
        var value = initial
        dbus_message_iter_get_basic(&iter, &value)
        return value
    }

    private static func readString(_ iter: inout DBusMessageIter) -> String {
        var pointer: UnsafePointer<CChar>?
        dbus_message_iter_get_basic(&iter, &pointer)
        guard let pointer else { return "" }
        return String(cString: pointer)
    }

    private static func readArray(_ iter: inout DBusMessageIter) throws(DBusError) -> Value {
        let arrayType = try currentType(&iter)
        var sub = DBusMessageIter()
        dbus_message_iter_recurse(&iter, &sub)
        switch arrayType {
        case .dictionary(let key, let value):
            var entries: [DictionaryEntry] = []
            while dbus_message_iter_get_arg_type(&sub) == DBUS_TYPE_DICT_ENTRY {
                var pair = DBusMessageIter()
                dbus_message_iter_recurse(&sub, &pair)
                let k = try read(&pair)
                dbus_message_iter_next(&pair)
                let v = try read(&pair)
                entries.append(DictionaryEntry(k, v))
                dbus_message_iter_next(&sub)
            }
            return .dictionary(key: key, value: value, entries)
        case .array(.byte):
            var base: UnsafePointer<UInt8>?
            var count: Int32 = 0
            if dbus_message_iter_get_arg_type(&sub) == DBUS_TYPE_BYTE {
                dbus_message_iter_get_fixed_array(&sub, &base, &count)
            }
            let bytes = base.map { Array(UnsafeBufferPointer(start: $0, count: Int(count))) } ?? []
            return .array(.byte, bytes.map(Value.byte))
        case .array(let element):
            var values: [Value] = []
            while dbus_message_iter_get_arg_type(&sub) != DBUS_TYPE_INVALID {
                values.append(try read(&sub))
                dbus_message_iter_next(&sub)
            }
            return .array(element, values)
        default:
            throw DBusError.invalidArgs("array with signature \"\(arrayType.signature)\" is not an array")
        }
    }

    /// The complete type at the iterator (`dbus_message_iter_get_signature`).
    private static func currentType(_ iter: inout DBusMessageIter) throws(DBusError) -> DBusType {
        guard let raw = dbus_message_iter_get_signature(&iter) else {
            throw DBusError.noMemory("reading a signature")
        }
        let text = String(cString: raw)
        dbus_free(raw)
        return try TypeCache.shared.type(for: text)
    }
}

/// Parsed complete types by signature text, so decoding a stream of
/// `a{sv}` arguments parses "a{sv}" once. Bounded: a peer sending endless
/// distinct signatures only keeps the cache from helping.
final class TypeCache: Sendable {
    static let shared = TypeCache()
    private let entries = Locked<[String: DBusType]>([:])
    private let capacity = 512

    func type(for signature: String) throws(DBusError) -> DBusType {
        if let cached = entries.withLock({ $0[signature] }) {
            return cached
        }
        let parsed: Signature
        do {
            parsed = try Signature(signature)
        } catch {
            throw DBusError.invalidArgs("invalid signature \"\(signature)\": \(error)")
        }
        guard parsed.types.count == 1, let type = parsed.types.first else {
            throw DBusError.invalidArgs("signature \"\(signature)\" is not a single complete type")
        }
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[signature] = type
        }
        return type
    }
}
