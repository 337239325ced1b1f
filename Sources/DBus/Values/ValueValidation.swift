import Glibc

extension Value {
    /// Checks the value against the D-Bus specification, so that libdbus accepts it:
    ///
    /// - every array element, dict key and dict value has the declared type;
    /// - dictionary key types are basic and keys are unique;
    /// - no struct (value or declared type) is empty;
    /// - strings contain no NUL;
    /// - the type signature of the value, and of every variant's content, is at most 255 bytes;
    /// - nesting, counted from the outermost value through variants: at most 32 arrays,
    ///   at most 32 structs and dict entries together, and at most 64 containers of every
    ///   kind with variants included. A dictionary counts as an array plus a dict entry.
    ///
    /// The 64 total is exactly libdbus's `DBUS_INVALID_NESTED_TOO_DEEPLY` rule (verified
    /// against libdbus 1.14: 64 nested variants are accepted, 65 rejected). The 32/32
    /// limits are the specification's per-signature limits applied across variants,
    /// which is stricter than libdbus (it checks each variant's signature on its own,
    /// and counts dict entries apart from structs), never looser.
    ///
    /// Byte-size limits (64 MiB arrays, 128 MiB messages) depend on the wire encoding and
    /// are not checked here.
    public func validate() throws(DBusValueError) {
        try validate(nesting: Nesting())
        try checkSignatureLength()
    }

    /// Validates the value as it would be nested inside containers already
    /// opened around it (a variant inside typed arrays and structs, say).
    func validate(insideArrays arrays: Int, structures: Int, total: Int) throws(DBusValueError) {
        try validate(nesting: Nesting(arrays: arrays, structures: structures, total: total))
        try checkSignatureLength()
    }

    private func checkSignatureLength() throws(DBusValueError) {
        let length = signatureLength
        if length > DBusLimits.maximumSignatureLength {
            throw .signatureTooLong(byteCount: length, at: .root)
        }
    }

    private func validate(nesting: Nesting) throws(DBusValueError) {
        switch self {
        case .string(let string):
            if string.containsNUL {
                throw .nulInString(string, at: .root)
            }
        case .byte, .boolean, .int16, .uint16, .int32, .uint32, .int64, .uint64, .double, .objectPath, .signature:
            return
        case .array(let elementType, let elements):
            let inner = try nesting.enteringArray()
            if elements.isEmpty {
                try elementType.checkDeclared(inside: inner)
                return
            }
            // Each element that has the declared type and is itself valid proves the type valid.
            for (index, element) in elements.enumerated() {
                guard element.hasType(elementType) else {
                    throw .typeMismatch(expected: elementType, actual: element, at: ValuePath(components: [.element(index)]))
                }
                do {
                    try element.validate(nesting: inner)
                } catch {
                    throw error.prepending(.element(index))
                }
            }
        case .dictionary(let keyType, let valueType, let entries):
            guard keyType.isBasic else {
                throw .nonBasicKeyType(keyType, at: .root)
            }
            let inner = try nesting.enteringArray().enteringStructure()
            if entries.isEmpty {
                try valueType.checkDeclared(inside: inner)
                return
            }
            var keys = UniqueKeys(expecting: entries.count, stringKeys: keyType == .string)
            for (index, entry) in entries.enumerated() {
                guard entry.key.hasType(keyType) else {
                    throw .typeMismatch(expected: keyType, actual: entry.key, at: ValuePath(components: [.key(index)]))
                }
                do {
                    try entry.key.validate(nesting: inner)
                } catch {
                    throw error.prepending(.key(index))
                }
                guard keys.insert(entry.key) else {
                    throw .duplicateKey(entry.key, at: ValuePath(components: [.key(index)]))
                }
                guard entry.value.hasType(valueType) else {
                    throw .typeMismatch(
                        expected: valueType, actual: entry.value, at: ValuePath(components: [.value(index)]))
                }
                do {
                    try entry.value.validate(nesting: inner)
                } catch {
                    throw error.prepending(.value(index))
                }
            }
        case .structure(let fields):
            guard !fields.isEmpty else {
                throw .emptyStructure(at: .root)
            }
            let inner = try nesting.enteringStructure()
            for (index, field) in fields.enumerated() {
                do {
                    try field.validate(nesting: inner)
                } catch {
                    throw error.prepending(.field(index))
                }
            }
        case .variant(let content):
            let inner = try nesting.enteringVariant()
            do {
                try content.validate(nesting: inner)
                try content.checkSignatureLength()
            } catch {
                throw error.prepending(.variant)
            }
        }
    }
}

extension DBusType {
    /// Checks a declared type that no value vouches for (the element type of an empty
    /// array or dictionary) as if it were entered at `nesting`.
    fileprivate func checkDeclared(inside nesting: Nesting) throws(DBusValueError) {
        switch self {
        case .array(let element):
            try element.checkDeclared(inside: nesting.enteringArray())
        case .dictionary(let key, let value):
            guard key.isBasic else {
                throw .nonBasicKeyType(key, at: .root)
            }
            try value.checkDeclared(inside: nesting.enteringArray().enteringStructure())
        case .structure(let fields):
            guard !fields.isEmpty else {
                throw .emptyStructure(at: .root)
            }
            let inner = try nesting.enteringStructure()
            for field in fields {
                try field.checkDeclared(inside: inner)
            }
        default:
            return
        }
    }
}

/// How deep a value is nested, counted from the outermost value through variants.
private struct Nesting {
    var arrays = 0
    var structures = 0
    var total = 0

    func enteringArray() throws(DBusValueError) -> Nesting {
        var next = self
        next.arrays += 1
        next.total += 1
        if next.arrays > DBusLimits.maximumArrayNesting {
            throw .tooManyNestedArrays(at: .root)
        }
        try next.checkTotal()
        return next
    }

    /// A struct or a dict entry.
    func enteringStructure() throws(DBusValueError) -> Nesting {
        var next = self
        next.structures += 1
        next.total += 1
        if next.structures > DBusLimits.maximumStructureNesting {
            throw .tooManyNestedStructures(at: .root)
        }
        try next.checkTotal()
        return next
    }

    func enteringVariant() throws(DBusValueError) -> Nesting {
        var next = self
        next.total += 1
        try next.checkTotal()
        return next
    }

    private func checkTotal() throws(DBusValueError) {
        if total > DBusLimits.maximumTotalNesting {
            throw .nestedTooDeeply(at: .root)
        }
    }
}

/// Checks dictionary keys for duplicates. String keys, by far the most common
/// (`a{sv}`), are compared as strings, much cheaper to hash than `Value`s; a
/// single entry needs no set at all.
private struct UniqueKeys {
    private var strings: Set<String> = []
    private var values: Set<Value> = []
    private let stringKeys: Bool

    init(expecting count: Int, stringKeys: Bool) {
        self.stringKeys = stringKeys
        if count > 1 {
            if stringKeys { strings.reserveCapacity(count) } else { values.reserveCapacity(count) }
        }
    }

    mutating func insert(_ key: Value) -> Bool {
        if stringKeys, case .string(let text) = key {
            return strings.insert(text).inserted
        }
        return values.insert(key).inserted
    }
}

extension String {
    /// Whether the UTF-8 contains a NUL byte, scanned in place (memchr) for
    /// native strings.
    var containsNUL: Bool {
        if let found = utf8.withContiguousStorageIfAvailable({ buffer -> Bool in
            guard let base = buffer.baseAddress, buffer.count > 0 else { return false }
            return memchr(base, 0, buffer.count) != nil
        }) {
            return found
        }
        return utf8.contains(0)
    }
}
