import DBus

/// The size of values marshalled as a D-Bus message body (little-endian wire
/// format, alignment included), for reporting how much a reply weighs.
enum MarshalledSize {
    static func of(_ values: [Value]) -> Int {
        values.reduce(0) { add($1, at: $0) }
    }

    /// The offset after `value` when it starts at `offset` (before alignment).
    private static func add(_ value: Value, at offset: Int) -> Int {
        switch value {
        case .byte: return offset + 1
        case .boolean, .int32, .uint32: return align(offset, 4) + 4
        case .int16, .uint16: return align(offset, 2) + 2
        case .int64, .uint64, .double: return align(offset, 8) + 8
        case .string(let text): return align(offset, 4) + 4 + text.utf8.count + 1
        case .objectPath(let path): return align(offset, 4) + 4 + path.rawValue.utf8.count + 1
        case .signature(let signature): return offset + 1 + signature.rawValue.utf8.count + 1
        case .array(let element, let elements):
            return arrayEnd(at: offset, elementAlignment: alignment(of: element), elements)
        case .dictionary(_, _, let entries):
            var end = align(align(offset, 4) + 4, 8)
            for entry in entries {
                end = add(entry.value, at: add(entry.key, at: align(end, 8)))
            }
            return end
        case .structure(let fields):
            return fields.reduce(align(offset, 8)) { add($1, at: $0) }
        case .variant(let inner):
            return add(inner, at: offset + 1 + inner.type.signature.utf8.count + 1)
        }
    }

    private static func arrayEnd(at offset: Int, elementAlignment: Int, _ elements: [Value]) -> Int {
        elements.reduce(align(align(offset, 4) + 4, elementAlignment)) { add($1, at: $0) }
    }

    private static func alignment(of type: DBusType) -> Int {
        switch type {
        case .byte, .signature, .variant: 1
        case .int16, .uint16: 2
        case .int64, .uint64, .double, .structure: 8
        default: 4
        }
    }

    private static func align(_ offset: Int, _ boundary: Int) -> Int {
        (offset + boundary - 1) / boundary * boundary
    }
}
