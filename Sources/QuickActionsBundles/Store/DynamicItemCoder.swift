import QuickActionsModel

/// The dynamic-item store's file format, version 2: compact, binary and lossless.
///
/// All integers are big-endian.
///
///     file     = "QAIS" (magic), u16 version = 2, u32 item count, item*, u32 CRC-32
///     item     = string type, string title, optional subtitle, icon, value user info ('m'),
///                optional id                       (version 1, without ids, is still read)
///     optional = 0x00 | 0x01 string
///     icon     = 0x00 (none) | 0x01 string (a ShortcutIconType raw value)
///              | 0x02 string (symbol) | 0x03 string (file)
///     string   = u32 byte count, UTF-8 bytes
///     value    = 's' string | 'T' | 'F' | 'i' i64 | 'd' u64 IEEE-754 bit pattern
///              | 'y' u32 count, bytes | 'a' u32 count, value*
///              | 'm' u32 count, (string key, value)*   keys unique, in increasing byte order
///
/// The CRC-32 covers every byte before it. Doubles are stored as their bit pattern, so `-0.0`,
/// infinities and NaNs (payload included) come back bit for bit; integers, booleans, doubles and
/// bytes never turn into one another. Dictionary keys are written sorted, so equal lists encode
/// to equal bytes.
///
/// `decode` accepts only what `encode` can write: one version, canonical key order, no trailing
/// bytes, lists within `ItemLimits`, nesting within `ItemLimits.maximumUserInfoDepth`.
public enum DynamicItemCoder {
    /// The format version `encode` writes and `decode` reads.
    public static let formatVersion: UInt16 = 2
    /// The versions `decode` reads: 1 had no item ids.
    public static let readableVersions: ClosedRange<UInt16> = 1...2
    static let magic: [UInt8] = Array("QAIS".utf8)

    /// Encodes a dynamic list after checking it against `ItemLimits`.
    /// - Throws: the first limit the list breaks; nothing is encoded then.
    public static func encode(_ items: [ShortcutItem]) throws(ItemLimitError) -> [UInt8] {
        try ItemLimits.validate(items)
        var writer = Writer()
        writer.bytes.append(contentsOf: magic)
        writer.integer(formatVersion)
        writer.integer(UInt32(items.count))
        for item in items {
            writer.string(item.type)
            writer.string(item.title)
            if let subtitle = item.subtitle {
                writer.bytes.append(1)
                writer.string(subtitle)
            } else {
                writer.bytes.append(0)
            }
            switch item.icon {
            case nil:
                writer.bytes.append(0)
            case .type(let type):
                writer.bytes.append(1)
                writer.string(type.rawValue)
            case .symbol(let name):
                writer.bytes.append(2)
                writer.string(name)
            case .file(let path):
                writer.bytes.append(3)
                writer.string(path)
            }
            writer.value(.dictionary(item.userInfo))
            if let id = item.id {
                writer.bytes.append(1)
                writer.string(id)
            } else {
                writer.bytes.append(0)
            }
        }
        writer.integer(CRC32.checksum(writer.bytes))
        return writer.bytes
    }

    /// Decodes a file's contents.
    ///
    /// Pure and total: any input gives a list or a `StoreFormatError`, in time linear in the
    /// input, with recursion bounded by the depth limit and allocations bounded by the input size.
    public static func decode(_ bytes: [UInt8]) throws(StoreFormatError) -> [ShortcutItem] {
        if bytes.isEmpty { throw .empty }
        guard bytes.count >= magic.count, bytes.starts(with: magic) else { throw .notAStateFile }
        var reader = Reader(bytes: bytes[...], end: bytes.count)
        reader.offset = magic.count
        let version: UInt16 = try reader.integer()
        if !readableVersions.contains(version) { throw .unsupportedVersion(Int(version)) }
        guard bytes.count >= magic.count + 2 + 4 + 4 else { throw .truncated(offset: bytes.count) }
        let body = bytes.count - 4
        var checksumReader = Reader(bytes: bytes[...], end: bytes.count)
        checksumReader.offset = body
        let stored: UInt32 = try checksumReader.integer()
        let computed = CRC32.checksum(bytes[..<body])
        if stored != computed { throw .checksumMismatch(stored: stored, computed: computed) }

        reader = Reader(bytes: bytes[...], end: body)
        reader.offset = magic.count + 2
        let count: UInt32 = try reader.integer()
        // An item takes at least 15 bytes; a count the input cannot hold is refused unread.
        guard Int(count) <= (body - reader.offset) / 15 else {
            throw .invalid(offset: reader.offset - 4, reason: "an item count of \(count) does not fit in the file")
        }
        var items: [ShortcutItem] = []
        items.reserveCapacity(Int(count))
        for _ in 0..<count {
            items.append(try reader.item(hasID: version >= 2))
        }
        if reader.offset != body {
            throw .invalid(offset: reader.offset, reason: "\(body - reader.offset) bytes after the last item")
        }
        do {
            try ItemLimits.validate(items)
        } catch {
            throw .limits(error)
        }
        return items
    }

    /// The size of `value` in this encoding, in bytes (``UserInfoValue/encodedSize``, which the
    /// model core computes so that ``ItemLimits`` can bound it without knowing the store).
    public static func encodedSize(of value: UserInfoValue) -> Int {
        value.encodedSize
    }
}

/// Why a state file could not be decoded. Offsets are byte offsets into the file.
public enum StoreFormatError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file has no bytes.
    case empty
    /// The file does not start with the store's magic bytes.
    case notAStateFile
    /// The file has a format version this build does not read (written by a newer broker).
    case unsupportedVersion(Int)
    /// The file ends at `offset` in the middle of something.
    case truncated(offset: Int)
    /// The CRC-32 at the end does not match the contents.
    case checksumMismatch(stored: UInt32, computed: UInt32)
    /// Something at `offset` is not what the format allows.
    case invalid(offset: Int, reason: String)
    /// The list decodes but breaks an item limit.
    case limits(ItemLimitError)

    public var description: String {
        switch self {
        case .empty:
            return "the file is empty"
        case .notAStateFile:
            return "the file does not start with the store's magic bytes \"QAIS\""
        case .unsupportedVersion(let version):
            let readable = DynamicItemCoder.readableVersions
            return "format version \(version) is not one this build reads (\(readable.lowerBound) to \(readable.upperBound))"
        case .truncated(let offset):
            return "the file ends early, at byte \(offset)"
        case .checksumMismatch(let stored, let computed):
            return "checksum mismatch: the file says \(hex(stored)), its contents give \(hex(computed))"
        case .invalid(let offset, let reason):
            return "at byte \(offset): \(reason)"
        case .limits(let error):
            return "the stored list breaks a limit: \(error)"
        }
    }

    private func hex(_ value: UInt32) -> String {
        "0x" + String(value, radix: 16)
    }
}
