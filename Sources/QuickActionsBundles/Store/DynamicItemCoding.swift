import QuickActionsModel

/// Appends the pieces of the store's format to a byte buffer.
struct Writer {
    var bytes: [UInt8] = []

    mutating func integer<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func string(_ string: String) {
        integer(UInt32(string.utf8.count))
        bytes.append(contentsOf: string.utf8)
    }

    /// Writes one value. Only called on lists `ItemLimits` accepted, so the recursion is at
    /// most `ItemLimits.maximumUserInfoDepth` deep.
    mutating func value(_ value: UserInfoValue) {
        switch value {
        case .string(let string):
            bytes.append(UInt8(ascii: "s"))
            self.string(string)
        case .bool(let bool):
            bytes.append(UInt8(ascii: bool ? "T" : "F"))
        case .int(let int):
            bytes.append(UInt8(ascii: "i"))
            integer(int)
        case .double(let double):
            bytes.append(UInt8(ascii: "d"))
            integer(double.bitPattern)
        case .bytes(let data):
            bytes.append(UInt8(ascii: "y"))
            integer(UInt32(data.count))
            bytes.append(contentsOf: data)
        case .array(let values):
            bytes.append(UInt8(ascii: "a"))
            integer(UInt32(values.count))
            for child in values { self.value(child) }
        case .dictionary(let entries):
            bytes.append(UInt8(ascii: "m"))
            integer(UInt32(entries.count))
            for key in entries.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
                self.string(key)
                if let child = entries[key] { self.value(child) }
            }
        }
    }
}

/// Reads the pieces of the store's format, checking every length against what is left.
struct Reader {
    let bytes: ArraySlice<UInt8>
    /// One past the last byte this reader may read.
    let end: Int
    var offset = 0

    init(bytes: ArraySlice<UInt8>, end: Int) {
        self.bytes = bytes
        self.end = end
    }

    private var remaining: Int { end - offset }

    mutating func integer<T: FixedWidthInteger>() throws(StoreFormatError) -> T {
        let size = MemoryLayout<T>.size
        guard remaining >= size else { throw .truncated(offset: end) }
        var value: T = 0
        for byte in bytes[offset..<offset + size] {
            value = value << 8 | T(byte)
        }
        offset += size
        return value
    }

    mutating func byte() throws(StoreFormatError) -> UInt8 {
        guard remaining >= 1 else { throw .truncated(offset: end) }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// A length-prefixed run of raw bytes.
    mutating func run() throws(StoreFormatError) -> ArraySlice<UInt8> {
        let count = Int(try integer() as UInt32)
        guard remaining >= count else { throw .truncated(offset: end) }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    mutating func string() throws(StoreFormatError) -> String {
        let start = offset
        let run = try run()
        guard let string = String(validating: run, as: UTF8.self) else {
            throw .invalid(offset: start, reason: "a string that is not valid UTF-8")
        }
        return string
    }

    mutating func item(hasID: Bool) throws(StoreFormatError) -> ShortcutItem {
        let type = try string()
        let title = try string()
        let subtitle: String?
        switch try byte() {
        case 0: subtitle = nil
        case 1: subtitle = try string()
        case let tag: throw .invalid(offset: offset - 1, reason: "subtitle marker \(tag), not 0 or 1")
        }
        let icon: ShortcutIcon?
        let iconOffset = offset
        switch try byte() {
        case 0: icon = nil
        case 1:
            let name = try string()
            guard let iconType = ShortcutIconType(rawValue: name) else {
                throw .invalid(offset: iconOffset, reason: "unknown icon type \(name.quotedForMessage)")
            }
            icon = .type(iconType)
        case 2: icon = .symbol(try string())
        case 3: icon = .file(try string())
        case let tag: throw .invalid(offset: iconOffset, reason: "icon marker \(tag), not 0 to 3")
        }
        let userInfoOffset = offset
        guard case .dictionary(let userInfo) = try value(level: 1) else {
            throw .invalid(offset: userInfoOffset, reason: "user info that is not a dictionary")
        }
        var id: String?
        if hasID {
            switch try byte() {
            case 0: id = nil
            case 1: id = try string()
            case let tag: throw .invalid(offset: offset - 1, reason: "id marker \(tag), not 0 or 1")
            }
        }
        return ShortcutItem(type: type, title: title, subtitle: subtitle, icon: icon, userInfo: userInfo, id: id)
    }

    /// Reads one value at nesting `level`; refuses to go past the depth limit, which bounds
    /// the recursion.
    mutating func value(level: Int) throws(StoreFormatError) -> UserInfoValue {
        let start = offset
        if level > ItemLimits.maximumUserInfoDepth {
            throw .invalid(offset: start, reason: "user info nested deeper than \(ItemLimits.maximumUserInfoDepth) levels")
        }
        switch try byte() {
        case UInt8(ascii: "s"): return .string(try string())
        case UInt8(ascii: "T"): return .bool(true)
        case UInt8(ascii: "F"): return .bool(false)
        case UInt8(ascii: "i"): return .int(try integer())
        case UInt8(ascii: "d"): return .double(Double(bitPattern: try integer()))
        case UInt8(ascii: "y"): return .bytes(Array(try run()))
        case UInt8(ascii: "a"):
            let count = try containerCount(minimumElementSize: 1)
            var values: [UserInfoValue] = []
            values.reserveCapacity(min(count, 1024))
            for _ in 0..<count {
                values.append(try value(level: level + 1))
            }
            return .array(values)
        case UInt8(ascii: "m"):
            let count = try containerCount(minimumElementSize: 5)
            var entries: [String: UserInfoValue] = [:]
            entries.reserveCapacity(min(count, 1024))
            var previous: String?
            for _ in 0..<count {
                let keyOffset = offset
                let key = try string()
                if let previous, !previous.utf8.lexicographicallyPrecedes(key.utf8) {
                    throw .invalid(offset: keyOffset, reason: "dictionary key \(key.quotedForMessage) is repeated or out of order")
                }
                // Swift's String equality is canonical equivalence: "é" and "e\u{301}" are one
                // key although their bytes differ. Refuse the second instead of merging it.
                if entries.updateValue(try value(level: level + 1), forKey: key) != nil {
                    throw .invalid(offset: keyOffset, reason: "dictionary key \(key.quotedForMessage) is canonically equivalent to an earlier key")
                }
                previous = key
            }
            return .dictionary(entries)
        case let tag:
            throw .invalid(offset: start, reason: "unknown value tag \(tag)")
        }
    }

    /// A container's element count, refused when the rest of the input cannot hold that many.
    private mutating func containerCount(minimumElementSize: Int) throws(StoreFormatError) -> Int {
        let count = Int(try integer() as UInt32)
        guard count <= remaining / minimumElementSize else {
            throw .invalid(offset: offset - 4, reason: "a container of \(count) elements does not fit in the file")
        }
        return count
    }
}
