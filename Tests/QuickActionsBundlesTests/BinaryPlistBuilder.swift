import Foundation

/// Assembles `bplist00` files by hand, object by object, so tests can break any part of one.
///
/// Objects are raw bytes (marker included); references inside them use `refSize` bytes. The
/// trailer is computed from the objects unless a test patches the result.
struct BinaryPlistBuilder {
    var objects: [[UInt8]]
    var top = 0
    var offsetSize = 1
    var refSize = 1

    /// Where things landed in the file `bytes()` returns.
    struct Layout {
        var objectOffsets: [Int]
        var tableOffset: Int
        var trailerOffset: Int
    }

    var layout: Layout {
        var offsets: [Int] = []
        var position = 8
        for object in objects {
            offsets.append(position)
            position += object.count
        }
        return Layout(objectOffsets: offsets, tableOffset: position, trailerOffset: position + objects.count * offsetSize)
    }

    func bytes() -> [UInt8] {
        let layout = layout
        var bytes = Array("bplist00".utf8)
        for object in objects { bytes += object }
        for offset in layout.objectOffsets { bytes += Self.bigEndian(UInt64(offset), size: offsetSize) }
        bytes += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(refSize)]
        bytes += Self.bigEndian(UInt64(objects.count), size: 8)
        bytes += Self.bigEndian(UInt64(top), size: 8)
        bytes += Self.bigEndian(UInt64(layout.tableOffset), size: 8)
        return bytes
    }

    static func bigEndian(_ value: UInt64, size: Int) -> [UInt8] {
        (0..<size).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64(size - 1 - $0))) }
    }

    // MARK: Objects

    /// A marker with a count: in the low nibble below 15, else 0xF and an integer object.
    static func marker(_ high: UInt8, count: Int) -> [UInt8] {
        if count < 15 { return [high << 4 | UInt8(count)] }
        return [high << 4 | 0x0F, 0x13] + bigEndian(UInt64(count), size: 8)
    }

    static func ascii(_ text: String) -> [UInt8] { marker(0x5, count: text.utf8.count) + Array(text.utf8) }

    static func utf16(_ units: [UInt16]) -> [UInt8] {
        marker(0x6, count: units.count) + units.flatMap { bigEndian(UInt64($0), size: 2) }
    }

    static func int(_ value: Int64) -> [UInt8] { [0x13] + bigEndian(UInt64(bitPattern: value), size: 8) }

    static func array(_ references: [Int], refSize: Int = 1) -> [UInt8] {
        marker(0xA, count: references.count) + references.flatMap { bigEndian(UInt64($0), size: refSize) }
    }

    static func dict(_ keys: [Int], _ values: [Int], refSize: Int = 1) -> [UInt8] {
        marker(0xD, count: keys.count) + (keys + values).flatMap { bigEndian(UInt64($0), size: refSize) }
    }
}
