extension Value {
    /// The value with every level of variant removed: `<<int32 7>>` gives `int32 7`.
    public var unwrappedVariant: Value {
        var current = self
        while case .variant(let content) = current {
            current = content
        }
        return current
    }

    // The typed accessors below look through any variants, so `a{sv}` entries read
    // directly: `properties["Name"]?.string`.

    /// The string of a `.string`, else nil.
    public var string: String? {
        if case .string(let value) = unwrappedVariant { value } else { nil }
    }

    /// The flag of a `.boolean`, else nil.
    public var bool: Bool? {
        if case .boolean(let value) = unwrappedVariant { value } else { nil }
    }

    /// Any integer case whose value fits an `Int64` (every one except a `.uint64` above
    /// `Int64.max`), else nil.
    public var int64: Int64? {
        switch unwrappedVariant {
        case .byte(let value): Int64(value)
        case .int16(let value): Int64(value)
        case .uint16(let value): Int64(value)
        case .int32(let value): Int64(value)
        case .uint32(let value): Int64(value)
        case .int64(let value): value
        case .uint64(let value): Int64(exactly: value)
        default: nil
        }
    }

    /// Any integer case whose value fits a `UInt64` (every non-negative one), else nil.
    public var uint64: UInt64? {
        switch unwrappedVariant {
        case .byte(let value): UInt64(value)
        case .int16(let value): UInt64(exactly: value)
        case .uint16(let value): UInt64(value)
        case .int32(let value): UInt64(exactly: value)
        case .uint32(let value): UInt64(value)
        case .int64(let value): UInt64(exactly: value)
        case .uint64(let value): value
        default: nil
        }
    }

    /// The number of a `.double`, else nil.
    public var double: Double? {
        if case .double(let value) = unwrappedVariant { value } else { nil }
    }

    /// The path of an `.objectPath`, else nil.
    public var objectPath: ObjectPath? {
        if case .objectPath(let value) = unwrappedVariant { value } else { nil }
    }

    /// The elements of an `.array`, else nil.
    public var array: [Value]? {
        if case .array(_, let elements) = unwrappedVariant { elements } else { nil }
    }

    /// The entries of a `.dictionary` as a Swift dictionary (a later duplicate key wins), else nil.
    public var dictionary: [Value: Value]? {
        guard case .dictionary(_, _, let entries) = unwrappedVariant else {
            return nil
        }
        var result: [Value: Value] = Dictionary(minimumCapacity: entries.count)
        for entry in entries {
            result[entry.key] = entry.value
        }
        return result
    }

    /// The fields of a `.structure`, else nil.
    public var structure: [Value]? {
        if case .structure(let fields) = unwrappedVariant { fields } else { nil }
    }
}
