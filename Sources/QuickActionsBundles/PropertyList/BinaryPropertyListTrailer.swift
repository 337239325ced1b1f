/// The 32 bytes that end a `bplist00` file, checked against the file's size, and the offset
/// table they describe.
///
/// Layout (big endian): 5 unused bytes, the sort version, the size of an offset-table entry,
/// the size of an object reference, the number of objects (8 bytes), the top object's number
/// (8 bytes) and the offset table's offset (8 bytes).
struct BinaryPropertyListTrailer {
    /// The trailer's size in bytes.
    static let size = 32
    /// The magic number and version every file starts with.
    static let header = Array("bplist00".utf8)

    /// The bytes of one offset-table entry, 1 to 8.
    let offsetIntSize: Int
    /// The bytes of one object reference in an array or dictionary, 1 to 8.
    let objectRefSize: Int
    /// The number of objects, at least 1.
    let objectCount: Int
    /// The number of the top object, below `objectCount`.
    let topObject: Int
    /// Where the offset table starts; objects lie in `header.count ..< offsetTableOffset`.
    let offsetTableOffset: Int

    /// Reads and checks the header and trailer of `bytes`.
    init(_ bytes: [UInt8]) throws(PropertyListError) {
        let minimum = Self.header.count + 1 + Self.size
        guard bytes.count >= minimum else {
            throw PropertyListError(
                offset: 0, "the file is \(bytes.count) bytes, too short for a binary property list (at least \(minimum))")
        }
        guard bytes.starts(with: Self.header) else {
            let found = String(decoding: bytes.prefix(8).map { $0 < 0x20 || $0 > 0x7E ? 0x3F : $0 }, as: UTF8.self)
            throw PropertyListError(offset: 0, "the header \"\(found)\" is not bplist00, the only binary version supported")
        }
        let base = bytes.count - Self.size
        offsetIntSize = Int(bytes[base + 6])
        objectRefSize = Int(bytes[base + 7])
        guard (1...8).contains(offsetIntSize) else {
            throw PropertyListError(offset: base + 6, "the offset size \(offsetIntSize) is not 1 to 8 bytes")
        }
        guard (1...8).contains(objectRefSize) else {
            throw PropertyListError(offset: base + 7, "the object reference size \(objectRefSize) is not 1 to 8 bytes")
        }
        let count = Self.readUInt(bytes, at: base + 8, size: 8)
        let top = Self.readUInt(bytes, at: base + 16, size: 8)
        let table = Self.readUInt(bytes, at: base + 24, size: 8)
        // Every object takes at least one byte and one table entry, so a count above the file's
        // size is a lie; checking it first also keeps the arithmetic below from overflowing.
        guard count >= 1, count <= UInt64(bytes.count) else {
            throw PropertyListError(offset: base + 8, "the object count \(count) is impossible in a file of \(bytes.count) bytes")
        }
        guard top < count else {
            throw PropertyListError(offset: base + 16, "the top object \(top) is not below the object count \(count)")
        }
        guard table >= UInt64(Self.header.count + 1), table < UInt64(base) else {
            throw PropertyListError(
                offset: base + 24, "the offset table offset \(table) is outside the object area (9 ..< \(base))")
        }
        objectCount = Int(count)
        topObject = Int(top)
        offsetTableOffset = Int(table)
        let tableBytes = objectCount * offsetIntSize
        guard tableBytes <= base - offsetTableOffset else {
            throw PropertyListError(
                offset: base + 24,
                "the offset table of \(objectCount) entries of \(offsetIntSize) bytes at \(offsetTableOffset) runs into the trailer at \(base)")
        }
        if objectRefSize < 8, objectCount > 1 << (8 * objectRefSize) {
            throw PropertyListError(
                offset: base + 7, "\(objectRefSize)-byte object references cannot name \(objectCount) objects")
        }
        if offsetIntSize < 8, offsetTableOffset > 1 << (8 * offsetIntSize) {
            throw PropertyListError(
                offset: base + 6, "\(offsetIntSize)-byte offsets cannot reach the offset table at \(offsetTableOffset)")
        }
    }

    /// The offset of object `number` (below `objectCount`), checked to lie in the object area.
    func offset(ofObject number: Int, in bytes: [UInt8]) throws(PropertyListError) -> Int {
        let entry = offsetTableOffset + number * offsetIntSize
        let offset = Self.readUInt(bytes, at: entry, size: offsetIntSize)
        guard offset >= UInt64(Self.header.count), offset < UInt64(offsetTableOffset) else {
            throw PropertyListError(
                offset: entry,
                "object \(number) is at offset \(offset), outside the object area (8 ..< \(offsetTableOffset))")
        }
        return Int(offset)
    }

    /// The big-endian unsigned integer of `size` (1 to 8) bytes at `offset`; the caller has
    /// checked that the bytes exist.
    static func readUInt(_ bytes: [UInt8], at offset: Int, size: Int) -> UInt64 {
        var value: UInt64 = 0
        var index = offset
        while index < offset + size {
            value = value << 8 | UInt64(bytes[index])
            index += 1
        }
        return value
    }
}
