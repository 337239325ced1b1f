import CDBus
import Glibc

/// Writes values in the D-Bus wire format itself (little-endian, as the specification's
/// "Marshaling" section lays it out) and hands the bytes to libdbus once, with
/// `dbus_message_demarshal`, which validates the whole body against its signature.
///
/// For the large answers a ``PreparedReply`` keeps: appending value by value through
/// `DBusMessageIter` costs about 1,700 instructions per container opened, and a listing of a
/// thousand installed applications opens tens of thousands (issue 33 §6). Here a container
/// costs an alignment and a length.
///
/// Only what libdbus then accepts is used: a value it refuses (a NUL in a string, a bad object
/// path, an element that is not of its array's type) makes ``methodReturn(_:)`` return nil,
/// and the caller encodes through libdbus, whose validation names the value at fault.
enum WireEncoding {
    /// A METHOD_RETURN holding `values`, its serial and reply serial placeholders that
    /// ``PreparedReply/reply(to:)`` replaces in each copy; nil when libdbus does not accept it.
    static func methodReturn(_ values: [Value]) -> Message? {
        message(type: UInt8(DBUS_MESSAGE_TYPE_METHOD_RETURN), fields: [(UInt8(DBUS_HEADER_FIELD_REPLY_SERIAL), .uint32(1))],
                values: values)
    }

    /// A signal holding `values`, ready to send (its serial 0, for the connection to number);
    /// nil when libdbus does not accept it.
    static func signal(path: ObjectPath, interface: InterfaceName, member: MemberName, _ values: [Value]) -> Message? {
        let fields: [(UInt8, Value)] = [
            (UInt8(DBUS_HEADER_FIELD_PATH), .objectPath(path)),
            (UInt8(DBUS_HEADER_FIELD_INTERFACE), .string(interface.rawValue)),
            (UInt8(DBUS_HEADER_FIELD_MEMBER), .string(member.rawValue)),
        ]
        // The demarshalled message has the placeholder serial; a copy has none.
        guard let template = message(type: UInt8(DBUS_MESSAGE_TYPE_SIGNAL), fields: fields, values: values),
              let copy = dbus_message_copy(template.raw) else { return nil }
        return Message(owning: copy)
    }

    /// A message of `type` with the header `fields` (code and value) and a SIGNATURE field of
    /// `values`, and `values` as its body. Its serial is 1: libdbus reads no message without one.
    private static func message(type: UInt8, fields: [(UInt8, Value)], values: [Value]) -> Message? {
        var body = WireWriter()
        var signature = ""
        for value in values {
            signature += value.type.signature
            guard body.write(value) else { return nil }
        }
        // The body length is a UINT32, and no message may exceed 128 MiB.
        guard body.bytes.count < 1 << 27, signature.utf8.count <= 255 else { return nil }
        var header = WireWriter()
        header.bytes.append(contentsOf: [UInt8(ascii: "l"), type, 0, 1])
        header.append(UInt32(body.bytes.count))
        header.append(UInt32(1))
        // The header fields, a(yv).
        let fieldsLength = header.bytes.count
        header.append(UInt32(0))
        let fieldsStart = header.bytes.count
        for (code, value) in fields {
            header.align(8)
            header.bytes.append(code)
            guard header.write(.variant(value)) else { return nil }
        }
        if !signature.isEmpty {
            header.align(8)
            header.bytes.append(UInt8(DBUS_HEADER_FIELD_SIGNATURE))
            header.writeSignature("g")
            header.writeSignature(signature)
        }
        header.patch(UInt32(header.bytes.count - fieldsStart), at: fieldsLength)
        header.align(8)
        header.bytes.append(contentsOf: body.bytes)
        let message = try? withCError { error in
            header.bytes.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) {
                    dbus_message_demarshal($0.baseAddress, Int32($0.count), error)
                }
            }
        }
        return message.map { Message(owning: $0) }
    }
}

/// Appends values to a byte buffer, each aligned as the wire format asks relative to the
/// buffer's start (a body starts 8-aligned in its message).
struct WireWriter {
    var bytes: [UInt8] = []

    init() {
        bytes.reserveCapacity(4096)
    }

    mutating func align(_ boundary: Int) {
        let padding = (boundary - bytes.count % boundary) % boundary
        if padding > 0 { bytes.append(contentsOf: repeatElement(0, count: padding)) }
    }

    mutating func append<T: FixedWidthInteger>(_ value: T) {
        align(MemoryLayout<T>.size)
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func patch(_ value: UInt32, at offset: Int) {
        withUnsafeBytes(of: value.littleEndian) { raw in
            for (index, byte) in raw.enumerated() { bytes[offset + index] = byte }
        }
    }

    /// A STRING or OBJECT_PATH: length, bytes, NUL. False for one holding a NUL, which the
    /// wire format cannot carry.
    mutating func writeString(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { utf8 in
            if let base = utf8.baseAddress, memchr(base, 0, utf8.count) != nil { return false }
            append(UInt32(utf8.count))
            bytes.append(contentsOf: utf8)
            bytes.append(0)
            return true
        }
    }

    /// A SIGNATURE: a one-byte length, the codes, NUL.
    mutating func writeSignature(_ signature: String) {
        bytes.append(UInt8(truncatingIfNeeded: signature.utf8.count))
        bytes.append(contentsOf: signature.utf8)
        bytes.append(0)
    }

    /// Writes `value`; false when it cannot be written (a NUL in a string, a signature longer
    /// than 255 bytes). What else is wrong with it the demarshalling finds.
    mutating func write(_ value: Value) -> Bool {
        switch value {
        case .byte(let byte): bytes.append(byte)
        case .boolean(let flag): append(UInt32(flag ? 1 : 0))
        case .int16(let number): append(number)
        case .uint16(let number): append(number)
        case .int32(let number): append(number)
        case .uint32(let number): append(number)
        case .int64(let number): append(number)
        case .uint64(let number): append(number)
        case .double(let number): append(number.bitPattern)
        case .string(let text): return writeString(text)
        case .objectPath(let path): return writeString(path.rawValue)
        case .signature(let signature):
            guard signature.rawValue.utf8.count <= 255 else { return false }
            writeSignature(signature.rawValue)
        case .array(let element, let elements):
            return writeArray(elementAlignment: element.wireAlignment, count: elements.count) { writer, index in
                writer.write(elements[index])
            }
        case .dictionary(_, _, let entries):
            return writeArray(elementAlignment: 8, count: entries.count) { writer, index in
                writer.align(8)
                return writer.write(entries[index].key) && writer.write(entries[index].value)
            }
        case .structure(let fields):
            align(8)
            for field in fields where !write(field) { return false }
        case .variant(let inner):
            let signature = inner.type.signature
            guard signature.utf8.count <= 255 else { return false }
            writeSignature(signature)
            return write(inner)
        }
        return true
    }

    /// An ARRAY: its byte length, padding to the first element's boundary (there even when it
    /// is empty), the elements.
    private mutating func writeArray(
        elementAlignment: Int, count: Int, _ element: (inout WireWriter, Int) -> Bool
    ) -> Bool {
        append(UInt32(0))
        let lengthAt = bytes.count - 4
        align(elementAlignment)
        let start = bytes.count
        for index in 0..<count where !element(&self, index) { return false }
        let length = bytes.count - start
        // The specification's limit for one array: 64 MiB.
        guard length <= 1 << 26 else { return false }
        patch(UInt32(length), at: lengthAt)
        return true
    }
}

extension DBusType {
    /// The boundary a value of this type starts on in the wire format.
    var wireAlignment: Int {
        switch self {
        case .byte, .signature, .variant: 1
        case .int16, .uint16: 2
        case .boolean, .int32, .uint32, .string, .objectPath, .unixFD, .array, .dictionary: 4
        case .int64, .uint64, .double, .structure: 8
        }
    }
}

extension Value {
    /// An array, dictionary, struct or variant.
    var isContainer: Bool {
        switch self {
        case .array, .dictionary, .structure, .variant: true
        default: false
        }
    }
}
