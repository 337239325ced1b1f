import CDBus

/// Reads a message body value by value, straight from libdbus's iterator
/// (`DBusMessageIter`), into Swift types: what a ``DBusArgument`` decodes
/// from. No ``Value`` is built except for variants.
///
/// Each read checks the type code at the iterator first, so a body of an
/// unexpected shape is an `InvalidArgs` error naming both types, never a
/// misread. Strings are copied out of libdbus at once.
public struct MessageReader {
    var iter = DBusMessageIter()
    /// The message the iterator points into; kept alive while reading.
    private let message: Message

    /// A reader at the first argument of `message` (`dbus_message_iter_init`).
    public init(_ message: Message) {
        self.message = message
        // For a body without arguments the iterator is still initialised:
        // it reports DBUS_TYPE_INVALID, which is what `isAtEnd` checks.
        _ = dbus_message_iter_init(message.raw, &iter)
    }

    private init(sub: DBusMessageIter, of message: Message) {
        iter = sub
        self.message = message
    }

    /// Whether every value at this level has been read.
    public var isAtEnd: Bool {
        // libdbus takes a non-const iterator even to look; a copy of it looks as well.
        var copy = iter
        return dbus_message_iter_get_arg_type(&copy) == DBUS_TYPE_INVALID
    }

    /// The type code at the iterator (`dbus_message_iter_get_arg_type`).
    var typeCode: Int32 {
        mutating get { dbus_message_iter_get_arg_type(&iter) }
    }

    /// Throws unless the value at the iterator has type code `code`.
    mutating func expect(_ code: Int32, _ type: @autoclosure () -> DBusType) throws(DBusError) {
        let found = dbus_message_iter_get_arg_type(&iter)
        guard found == code else { throw mismatch(expected: type(), found: found) }
    }

    /// The error for a value of the wrong type, naming both.
    mutating func mismatch(expected: DBusType, found: Int32) -> DBusError {
        if found == DBUS_TYPE_INVALID {
            return .invalidArgs("expected a value of type \"\(expected.signature)\", found the end of the arguments")
        }
        let foundSignature: String
        if let raw = dbus_message_iter_get_signature(&iter) {
            foundSignature = String(cString: raw)
            dbus_free(raw)
        } else {
            foundSignature = String(UnicodeScalar(UInt8(truncatingIfNeeded: found)))
        }
        return .invalidArgs("expected a value of type \"\(expected.signature)\", found \"\(foundSignature)\"")
    }

    /// Moves to the next value at this level (`dbus_message_iter_next`).
    mutating func advance() {
        dbus_message_iter_next(&iter)
    }

    /// A fixed-size basic value of type `code` (`dbus_message_iter_get_basic`), then advances.
    mutating func readBasic<T: BitwiseCopyable>(
        _ code: Int32, _ type: DBusType, _ initial: T
    ) throws(DBusError) -> T {
        try expect(code, type)
        var value = initial
        dbus_message_iter_get_basic(&iter, &value)
        dbus_message_iter_next(&iter)
        return value
    }

    /// A string, object path or signature of type `code`, copied, then advances.
    mutating func readString(_ code: Int32, _ type: DBusType) throws(DBusError) -> String {
        try expect(code, type)
        var pointer: UnsafePointer<CChar>?
        dbus_message_iter_get_basic(&iter, &pointer)
        dbus_message_iter_next(&iter)
        guard let pointer else { return "" }
        return String(cString: pointer)
    }

    /// Reads the container of type `code` at the iterator with a reader of its
    /// contents (`dbus_message_iter_recurse`), then advances past it.
    mutating func readContainer<T>(
        _ code: Int32, _ type: @autoclosure () -> DBusType,
        _ body: (inout MessageReader) throws(DBusError) -> T
    ) throws(DBusError) -> T {
        try expect(code, type())
        var sub = DBusMessageIter()
        dbus_message_iter_recurse(&iter, &sub)
        var reader = MessageReader(sub: sub, of: message)
        let result = try body(&reader)
        dbus_message_iter_next(&iter)
        return result
    }

    /// The bytes of an "ay" array's contents (`dbus_message_iter_get_fixed_array`).
    mutating func readFixedBytes() -> [UInt8] {
        guard dbus_message_iter_get_arg_type(&iter) == DBUS_TYPE_BYTE else { return [] }
        var base: UnsafePointer<UInt8>?
        var count: Int32 = 0
        dbus_message_iter_get_fixed_array(&iter, &base, &count)
        guard let base, count > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: base, count: Int(count)))
    }

    /// Any value at the iterator as a ``Value``, then advances.
    mutating func readValue() throws(DBusError) -> Value {
        let value = try Message.read(&iter)
        dbus_message_iter_next(&iter)
        return value
    }

    /// Moves past the value at the reader without reading it; throws at the end of the arguments.
    public mutating func skip() throws(DBusError) {
        guard dbus_message_iter_get_arg_type(&iter) != DBUS_TYPE_INVALID else {
            throw .invalidArgs("expected one more value, found the end of the arguments")
        }
        dbus_message_iter_next(&iter)
    }

    /// Reads an `a{sv}` at the reader only as far as its first entry and moves past the whole
    /// dictionary: that entry's variant contents when its key is `key`, else nil (an empty
    /// dictionary, another first key). For a key a sender puts first on purpose, so that a
    /// receiver finds it without decoding the rest.
    public mutating func leadingEntry(named key: String) throws(DBusError) -> Value? {
        let type = DBusType.dictionary(key: .string, value: .variant)
        try expect(DBUS_TYPE_ARRAY, type)
        guard dbus_message_iter_get_element_type(&iter) == DBUS_TYPE_DICT_ENTRY else {
            throw mismatch(expected: type, found: DBUS_TYPE_ARRAY)
        }
        return try readContainer(DBUS_TYPE_ARRAY, type) { entries throws(DBusError) -> Value? in
            if entries.isAtEnd { return nil }
            return try entries.readContainer(DBUS_TYPE_DICT_ENTRY, type) { pair throws(DBusError) -> Value? in
                guard dbus_message_iter_get_arg_type(&pair.iter) == DBUS_TYPE_STRING else { return nil }
                var pointer: UnsafePointer<CChar>?
                dbus_message_iter_get_basic(&pair.iter, &pointer)
                guard let pointer, Self.isText(pointer, key) else { return nil }
                pair.advance()
                guard dbus_message_iter_get_arg_type(&pair.iter) == DBUS_TYPE_VARIANT else { return nil }
                return try pair.readVariantContents()
            }
        }
    }

    /// Reads an `a{sv}` at the reader for one key and moves past the whole dictionary: the
    /// variant contents under `key`, nil when it has none. Other entries are passed over without
    /// being decoded; a key given twice is refused, as decoding the dictionary refuses it.
    public mutating func entry(named key: String) throws(DBusError) -> Value? {
        try entries(named: [key])[0]
    }

    /// ``entry(named:)`` for several keys at once: the contents under each of `keys`, in order.
    public mutating func entries(named keys: [String]) throws(DBusError) -> [Value?] {
        let type = DBusType.dictionary(key: .string, value: .variant)
        try expect(DBUS_TYPE_ARRAY, type)
        guard dbus_message_iter_get_element_type(&iter) == DBUS_TYPE_DICT_ENTRY else {
            throw mismatch(expected: type, found: DBUS_TYPE_ARRAY)
        }
        return try readContainer(DBUS_TYPE_ARRAY, type) { entries throws(DBusError) -> [Value?] in
            var found = [Value?](repeating: nil, count: keys.count)
            while !entries.isAtEnd {
                let hit = try entries.readContainer(DBUS_TYPE_DICT_ENTRY, type) {
                    pair throws(DBusError) -> (Int, Value)? in
                    try pair.expect(DBUS_TYPE_STRING, .string)
                    var pointer: UnsafePointer<CChar>?
                    dbus_message_iter_get_basic(&pair.iter, &pointer)
                    guard let pointer, let index = keys.firstIndex(where: { Self.isText(pointer, $0) }) else {
                        return nil
                    }
                    pair.advance()
                    try pair.expect(DBUS_TYPE_VARIANT, .variant)
                    return (index, try pair.readVariantContents())
                }
                guard let (index, value) = hit else { continue }
                guard found[index] == nil else {
                    throw DBusError.invalidArgs(
                        "dictionary of type \"a{sv}\" has the key \(keys[index].quoted()) twice")
                }
                found[index] = value
            }
            return found
        }
    }

    /// Whether the value at the reader is an array (or other container) without contents.
    public mutating func isAtEmptyContainer() -> Bool {
        switch dbus_message_iter_get_arg_type(&iter) {
        case DBUS_TYPE_ARRAY, DBUS_TYPE_STRUCT, DBUS_TYPE_DICT_ENTRY:
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &sub)
            return dbus_message_iter_get_arg_type(&sub) == DBUS_TYPE_INVALID
        default:
            return false
        }
    }

    /// The contents of the variant at the reader, every level of variant removed, then
    /// advances. A `t` or a string (a key's usual contents) is read without building the
    /// variant's `Value` first.
    mutating func readVariantContents() throws(DBusError) -> Value {
        var sub = DBusMessageIter()
        dbus_message_iter_recurse(&iter, &sub)
        switch dbus_message_iter_get_arg_type(&sub) {
        case DBUS_TYPE_UINT64:
            var number: UInt64 = 0
            dbus_message_iter_get_basic(&sub, &number)
            dbus_message_iter_next(&iter)
            return .uint64(number)
        case DBUS_TYPE_STRING:
            var pointer: UnsafePointer<CChar>?
            dbus_message_iter_get_basic(&sub, &pointer)
            dbus_message_iter_next(&iter)
            return .string(pointer.map { String(cString: $0) } ?? "")
        default:
            return try readValue().unwrappedVariant
        }
    }

    /// Whether the C string at `pointer` is `text`, without copying either.
    static func isText(_ pointer: UnsafePointer<CChar>, _ text: String) -> Bool {
        var index = 0
        for byte in text.utf8 {
            guard UInt8(bitPattern: pointer[index]) == byte, byte != 0 else { return false }
            index += 1
        }
        return pointer[index] == 0
    }

    /// Reads one argument of type `T`.
    public mutating func read<T: DBusArgument>(_ type: T.Type = T.self) throws(DBusError) -> T {
        try T.decode(from: &self)
    }
}
