extension Value: CustomStringConvertible {
    /// A readable rendering with the type of every basic value, e.g.
    /// `[int32 1, int32 2]`, `{string "a": <boolean true>}`, `(int32 1, string "x")`;
    /// `<…>` is a variant.
    public var description: String {
        var output = ""
        write(to: &output, byteLimit: Int.max)
        return output
    }

    /// The rendering cut to about 80 characters, for error messages.
    var summary: String {
        let limit = 80
        var output = ""
        write(to: &output, byteLimit: limit * 4)
        if output.count > limit {
            return String(output.prefix(limit)) + "…"
        }
        return output
    }

    /// Appends the rendering to `output`, stopping early once `output` passes `byteLimit` bytes.
    private func write(to output: inout String, byteLimit: Int) {
        if output.utf8.count > byteLimit {
            return
        }
        switch self {
        case .byte(let value): output += "byte \(value)"
        case .boolean(let value): output += "boolean \(value)"
        case .int16(let value): output += "int16 \(value)"
        case .uint16(let value): output += "uint16 \(value)"
        case .int32(let value): output += "int32 \(value)"
        case .uint32(let value): output += "uint32 \(value)"
        case .int64(let value): output += "int64 \(value)"
        case .uint64(let value): output += "uint64 \(value)"
        case .double(let value): output += "double \(value)"
        case .string(let value): output += "string " + (byteLimit == Int.max ? value.debugDescription : quoted(value, limit: 300))
        case .objectPath(let value): output += "object path " + value.rawValue.debugDescription
        case .signature(let value): output += "signature " + value.rawValue.debugDescription
        case .array(_, let elements):
            output += "["
            for (index, element) in elements.enumerated() {
                if index > 0 {
                    output += ", "
                }
                if output.utf8.count > byteLimit {
                    output += "…"
                    break
                }
                element.write(to: &output, byteLimit: byteLimit)
            }
            output += "]"
        case .dictionary(_, _, let entries):
            output += "{"
            for (index, entry) in entries.enumerated() {
                if index > 0 {
                    output += ", "
                }
                if output.utf8.count > byteLimit {
                    output += "…"
                    break
                }
                entry.key.write(to: &output, byteLimit: byteLimit)
                output += ": "
                entry.value.write(to: &output, byteLimit: byteLimit)
            }
            output += "}"
        case .structure(let fields):
            output += "("
            for (index, field) in fields.enumerated() {
                if index > 0 {
                    output += ", "
                }
                field.write(to: &output, byteLimit: byteLimit)
            }
            output += ")"
        case .variant(let content):
            output += "<"
            content.write(to: &output, byteLimit: byteLimit)
            output += ">"
        }
    }
}
