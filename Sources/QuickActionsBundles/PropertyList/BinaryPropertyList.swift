import Foundation
import QuickActionsModel

/// A reader for Apple's binary property-list format (`bplist00`) that trusts nothing in the file.
///
/// Foundation's own binary reader on Linux crashes the process on some malformed (and some
/// well-formed: any file with a set) binary property lists, so binary input never reaches it.
/// This reader checks every trailer field, offset, length and reference against the file,
/// refuses cycles, nesting deeper than `PropertyListLimits.maximumDepth` and files that expand
/// to more than `PropertyListLimits.maximumValues` values, and works in time linear in the file.
///
/// Values come out as Foundation's `PropertyListSerialization` returns them on Linux, so the
/// rest of the model treats binary and XML alike: `Bool` for booleans; `NSNumber` for integers
/// (`Int64`, or `UInt64` above `Int64.max`, as an `NSNumber` of type `q` or `Q`) and reals
/// (type `f` or `d`); `Date`, `Data`, `String`, `[Any]` and `[String: Any]`.
/// Refused: null and fill objects, UIDs (keyed archives), sets, dictionary keys that are not
/// strings, non-ASCII bytes in ASCII strings, lone UTF-16 surrogates and dates that are not
/// finite.
struct BinaryPropertyList {
    /// Decodes `bytes`, a whole `bplist00` file.
    static func decode(_ bytes: [UInt8]) throws(PropertyListError) -> Any {
        var reader = BinaryPropertyList(bytes: bytes, trailer: try BinaryPropertyListTrailer(bytes))
        return try reader.object(reader.trailer.topObject, depth: 1).value
    }

    /// A decoded object, how many values it expands to (itself and everything inside it) and
    /// how many levels deep it is (1 for a scalar or an empty container).
    private struct Decoded {
        var value: Any
        var values: Int
        var height: Int

        init(value: Any, values: Int = 1, height: Int = 1) {
            self.value = value
            self.values = values
            self.height = height
        }
    }

    private let bytes: [UInt8]
    private let trailer: BinaryPropertyListTrailer
    /// Objects decoded so far, by number: an object shared by several containers is decoded once.
    private var decoded: [Int: Decoded] = [:]
    /// The containers being decoded, outermost first: meeting one again is a cycle.
    private var open: [Int] = []

    private init(bytes: [UInt8], trailer: BinaryPropertyListTrailer) {
        self.bytes = bytes
        self.trailer = trailer
    }

    /// Objects end where the offset table starts.
    private var objectsEnd: Int { trailer.offsetTableOffset }

    private mutating func object(_ number: Int, depth: Int) throws(PropertyListError) -> Decoded {
        let offset = try trailer.offset(ofObject: number, in: bytes)
        // An object shared by several containers is decoded once, but its whole height counts
        // at every place it appears.
        if let done = decoded[number], depth - 1 + done.height <= PropertyListLimits.maximumDepth { return done }
        if open.contains(number) {
            throw PropertyListError(offset: offset, "object \(number) contains itself (a reference cycle)")
        }
        if depth - 1 + (decoded[number]?.height ?? 1) > PropertyListLimits.maximumDepth {
            throw PropertyListError(offset: offset, "object \(number) is nested deeper than \(PropertyListLimits.maximumDepth) levels")
        }
        let result = try decode(number, at: offset, depth: depth)
        decoded[number] = result
        return result
    }

    private mutating func decode(_ number: Int, at offset: Int, depth: Int) throws(PropertyListError) -> Decoded {
        let marker = bytes[offset]
        let low = Int(marker & 0x0F)
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x08: return Decoded(value: false)
            case 0x09: return Decoded(value: true)
            case 0x00: throw PropertyListError(offset: offset, "a null object is not a property-list value")
            case 0x0F: throw PropertyListError(offset: offset, "a fill byte stands where an object should be")
            default: throw unknownMarker(marker, at: offset)
            }
        case 0x1:
            return Decoded(value: try integer(sizeExponent: low, at: offset))
        case 0x2:
            return Decoded(value: try real(sizeExponent: low, at: offset))
        case 0x3:
            guard marker == 0x33 else { throw unknownMarker(marker, at: offset) }
            let seconds = Double(bitPattern: BinaryPropertyListTrailer.readUInt(bytes, at: try range(offset + 1, 8, "the date", at: offset).lowerBound, size: 8))
            guard seconds.isFinite else { throw PropertyListError(offset: offset, "the date \(seconds) is not a finite time") }
            return Decoded(value: Date(timeIntervalSinceReferenceDate: seconds))
        case 0x4:
            let (count, start) = try length(low, at: offset)
            return Decoded(value: Data(bytes[try range(start, count, "the data", at: offset)]))
        case 0x5:
            let (count, start) = try length(low, at: offset)
            return Decoded(value: try ascii(try range(start, count, "the ASCII string", at: offset)))
        case 0x6:
            let (count, start) = try length(low, at: offset)
            // count ≤ objectsEnd (checked by `length`), so doubling it cannot overflow.
            return Decoded(value: try utf16(try range(start, 2 * count, "the UTF-16 string", at: offset)))
        case 0x8:
            throw PropertyListError(offset: offset, "a UID object (from a keyed archive) is not accepted here")
        case 0xA:
            return try array(number, low, at: offset, depth: depth)
        case 0xC:
            throw PropertyListError(offset: offset, "a set object is not accepted (property lists here use arrays)")
        case 0xD:
            return try dictionary(number, low, at: offset, depth: depth)
        default:
            throw unknownMarker(marker, at: offset)
        }
    }

    private func unknownMarker(_ marker: UInt8, at offset: Int) -> PropertyListError {
        PropertyListError(offset: offset, "the object marker 0x\(String(marker, radix: 16, uppercase: true)) is not a known type")
    }

    /// The range `start ..< start + count`, checked to lie in the object area.
    private func range(_ start: Int, _ count: Int, _ what: String, at offset: Int) throws(PropertyListError) -> Range<Int> {
        guard count >= 0, start <= objectsEnd, count <= objectsEnd - start else {
            throw PropertyListError(
                offset: offset, "\(what) of \(count) bytes at \(start) runs past the object area, which ends at \(objectsEnd)")
        }
        return start..<(start + count)
    }

    /// The element count of an object whose marker's low nibble is `low`, and where its
    /// contents start: the nibble itself, or for 0xF an integer object that follows the marker.
    private func length(_ low: Int, at offset: Int) throws(PropertyListError) -> (count: Int, start: Int) {
        guard low == 0xF else { return (low, offset + 1) }
        let intMarker = bytes[try range(offset + 1, 1, "the length", at: offset).lowerBound]
        guard intMarker >> 4 == 0x1, intMarker & 0x0F <= 3 else {
            throw PropertyListError(
                offset: offset + 1,
                "the length marker 0x\(String(intMarker, radix: 16, uppercase: true)) is not a 1-, 2-, 4- or 8-byte integer")
        }
        let size = 1 << Int(intMarker & 0x0F)
        let field = try range(offset + 2, size, "the length", at: offset)
        let count = BinaryPropertyListTrailer.readUInt(bytes, at: field.lowerBound, size: size)
        // No object can hold more elements than the object area has bytes.
        guard count <= UInt64(objectsEnd) else {
            throw PropertyListError(offset: offset + 1, "the length \(count) is larger than the file")
        }
        return (Int(count), field.upperBound)
    }

    private func integer(sizeExponent: Int, at offset: Int) throws(PropertyListError) -> NSNumber {
        guard sizeExponent <= 4 else {
            throw PropertyListError(offset: offset, "an integer of 2^\(sizeExponent) bytes is not 1, 2, 4, 8 or 16 bytes")
        }
        let size = 1 << sizeExponent
        let field = try range(offset + 1, size, "the integer", at: offset)
        switch size {
        case 1, 2, 4:
            return NSNumber(value: Int64(BinaryPropertyListTrailer.readUInt(bytes, at: field.lowerBound, size: size)))
        case 8:
            return NSNumber(value: Int64(bitPattern: BinaryPropertyListTrailer.readUInt(bytes, at: field.lowerBound, size: 8)))
        default:
            let high = BinaryPropertyListTrailer.readUInt(bytes, at: field.lowerBound, size: 8)
            let low = BinaryPropertyListTrailer.readUInt(bytes, at: field.lowerBound + 8, size: 8)
            if high == 0 {
                return low <= UInt64(Int64.max) ? NSNumber(value: Int64(low)) : NSNumber(value: low)
            }
            if high == .max, low > UInt64(Int64.max) {
                return NSNumber(value: Int64(bitPattern: low))
            }
            throw PropertyListError(offset: offset, "the 16-byte integer does not fit in 64 bits")
        }
    }

    private func real(sizeExponent: Int, at offset: Int) throws(PropertyListError) -> NSNumber {
        switch sizeExponent {
        case 2:
            let field = try range(offset + 1, 4, "the real", at: offset)
            return NSNumber(value: Float(bitPattern: UInt32(BinaryPropertyListTrailer.readUInt(bytes, at: field.lowerBound, size: 4))))
        case 3:
            let field = try range(offset + 1, 8, "the real", at: offset)
            return NSNumber(value: Double(bitPattern: BinaryPropertyListTrailer.readUInt(bytes, at: field.lowerBound, size: 8)))
        default:
            throw PropertyListError(offset: offset, "a real of 2^\(sizeExponent) bytes is not 4 or 8 bytes")
        }
    }

    private func ascii(_ field: Range<Int>) throws(PropertyListError) -> String {
        for position in field where bytes[position] > 0x7F {
            throw PropertyListError(
                offset: position, "the ASCII string holds the byte 0x\(String(bytes[position], radix: 16, uppercase: true))")
        }
        return String(decoding: bytes[field], as: UTF8.self)
    }

    private func utf16(_ field: Range<Int>) throws(PropertyListError) -> String {
        var units: [UInt16] = []
        units.reserveCapacity(field.count / 2)
        var expectLow = false
        for position in stride(from: field.lowerBound, to: field.upperBound, by: 2) {
            let unit = UInt16(bytes[position]) << 8 | UInt16(bytes[position + 1])
            let isLow = (0xDC00...0xDFFF).contains(unit)
            if expectLow != isLow {
                let hex = String(expectLow ? units[units.count - 1] : unit, radix: 16, uppercase: true)
                throw PropertyListError(
                    offset: expectLow ? position - 2 : position,
                    expectLow ? "the UTF-16 string has the high surrogate 0x\(hex) without a low one"
                        : "the UTF-16 string has the low surrogate 0x\(hex) without a high one")
            }
            expectLow = (0xD800...0xDBFF).contains(unit)
            units.append(unit)
        }
        if expectLow {
            let hex = String(units[units.count - 1], radix: 16, uppercase: true)
            throw PropertyListError(
                offset: field.upperBound - 2, "the UTF-16 string ends with the high surrogate 0x\(hex)")
        }
        return String(decoding: units, as: UTF16.self)
    }

    /// The object numbers `count` references starting at `start` name, each checked.
    private func references(_ count: Int, at start: Int, _ what: String, of offset: Int) throws(PropertyListError) -> [Int] {
        let size = trailer.objectRefSize
        // count ≤ objectsEnd and size ≤ 8, so the product cannot overflow.
        let field = try range(start, count * size, what, at: offset)
        var numbers: [Int] = []
        numbers.reserveCapacity(count)
        for position in stride(from: field.lowerBound, to: field.upperBound, by: size) {
            let number = BinaryPropertyListTrailer.readUInt(bytes, at: position, size: size)
            guard number < UInt64(trailer.objectCount) else {
                throw PropertyListError(
                    offset: position, "the reference \(number) is not below the object count \(trailer.objectCount)")
            }
            numbers.append(Int(number))
        }
        return numbers
    }

    private mutating func array(_ number: Int, _ low: Int, at offset: Int, depth: Int) throws(PropertyListError) -> Decoded {
        let (count, start) = try length(low, at: offset)
        let elements = try references(count, at: start, "the array's references", of: offset)
        open.append(number)
        defer { open.removeLast() }
        var values: [Any] = []
        values.reserveCapacity(count)
        var total = 1
        var height = 1
        for element in elements {
            let child = try object(element, depth: depth + 1)
            total = try add(child.values, to: total, at: offset)
            height = max(height, child.height + 1)
            values.append(child.value)
        }
        return Decoded(value: values, values: total, height: height)
    }

    private mutating func dictionary(_ number: Int, _ low: Int, at offset: Int, depth: Int) throws(PropertyListError) -> Decoded {
        let (count, start) = try length(low, at: offset)
        let keys = try references(count, at: start, "the dictionary's key references", of: offset)
        let objects = try references(
            count, at: start + count * trailer.objectRefSize, "the dictionary's value references", of: offset)
        open.append(number)
        defer { open.removeLast() }
        var entries: [String: Any] = [:]
        entries.reserveCapacity(count)
        var total = 1
        var height = 1
        for (keyNumber, valueNumber) in zip(keys, objects) {
            let keyOffset = try trailer.offset(ofObject: keyNumber, in: bytes)
            guard bytes[keyOffset] >> 4 == 0x5 || bytes[keyOffset] >> 4 == 0x6 else {
                throw PropertyListError(offset: keyOffset, "a dictionary key (object \(keyNumber)) is not a string")
            }
            let key = try object(keyNumber, depth: depth + 1)
            guard let string = key.value as? String else {
                throw PropertyListError(offset: keyOffset, "a dictionary key (object \(keyNumber)) is not a string")
            }
            let value = try object(valueNumber, depth: depth + 1)
            total = try add(value.values, to: try add(key.values, to: total, at: offset), at: offset)
            height = max(height, value.height + 1)
            entries[string] = value.value
        }
        return Decoded(value: entries, values: total, height: height)
    }

    /// `total + values`, refused past `PropertyListLimits.maximumValues`.
    private func add(_ values: Int, to total: Int, at offset: Int) throws(PropertyListError) -> Int {
        let sum = total + values
        guard sum <= PropertyListLimits.maximumValues else {
            throw PropertyListError(
                offset: offset, "the container expands to more than \(PropertyListLimits.maximumValues) values")
        }
        return sum
    }
}
