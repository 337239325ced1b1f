import Foundation
import Testing
@testable import QuickActionsBundles
@testable import QuickActionsModel

/// A hand-made broken `bplist00` file, the offset its error must name and part of its reason.
struct MalformedPlist: Sendable, CustomTestStringConvertible {
    let name: String
    let bytes: [UInt8]
    let offset: Int
    let reason: String

    var testDescription: String { name }

    init(_ name: String, _ reason: String, _ build: () -> (bytes: [UInt8], offset: Int)) {
        self.name = name
        self.reason = reason
        (bytes, offset) = build()
    }
}

private typealias B = BinaryPlistBuilder

/// `{"a": value}`: the dictionary is object 0 at 8, "a" object 1 at 11, `value` object 2 at 13.
private func withValue(_ value: [UInt8], more: [[UInt8]] = []) -> B {
    B(objects: [B.dict([1], [2]), B.ascii("a"), value] + more)
}

private let valueOffset = 13

/// `{"a": "b"}` with its trailer patched: `patch` gets the bytes and the trailer's offset.
private func patchedTrailer(_ patch: (inout [UInt8], Int) -> Void) -> [UInt8] {
    let builder = B(objects: [B.dict([1], [2]), B.ascii("a"), B.ascii("b")])
    var bytes = builder.bytes()
    patch(&bytes, builder.layout.trailerOffset)
    return bytes
}

private func put(_ value: UInt64, size: Int, at offset: Int, in bytes: inout [UInt8]) {
    bytes.replaceSubrange(offset..<(offset + size), with: B.bigEndian(value, size: size))
}

/// A chain of `count` arrays starting at object `first`, each holding the next; the last holds
/// `end` (or nothing).
private func chain(from first: Int, count: Int, end: Int?) -> [[UInt8]] {
    (0..<count).map { index in
        index < count - 1 ? B.array([first + index + 1], refSize: 2) : B.array(end.map { [$0] } ?? [], refSize: 2)
    }
}

@Suite struct MalformedBinaryPlistTests {
    static let cases: [MalformedPlist] = [
        // The header and trailer.
        MalformedPlist("shorter than header, one object and trailer", "too short") {
            (Array("bplist00".utf8) + [UInt8](repeating: 0, count: 32), 0)
        },
        MalformedPlist("another version", "not bplist00") {
            var bytes = withValue(B.ascii("b")).bytes()
            bytes[7] = 0x31
            return (bytes, 0)
        },
        MalformedPlist("truncated trailer", "offset size 11") {
            // Dropping the last 8 bytes shifts the trailer: its offset size is now the byte
            // 11 from the offset table.
            let bytes = Array(withValue(B.ascii("b")).bytes().dropLast(8))
            return (bytes, bytes.count - 32 + 6)
        },
        MalformedPlist("offset size 0", "offset size 0 is not 1 to 8") {
            var at = 0
            return (patchedTrailer { bytes, trailer in bytes[trailer + 6] = 0; at = trailer + 6 }, at)
        },
        MalformedPlist("object reference size 0", "reference size 0 is not 1 to 8") {
            var at = 0
            return (patchedTrailer { bytes, trailer in bytes[trailer + 7] = 0; at = trailer + 7 }, at)
        },
        MalformedPlist("object reference size 9", "reference size 9 is not 1 to 8") {
            var at = 0
            return (patchedTrailer { bytes, trailer in bytes[trailer + 7] = 9; at = trailer + 7 }, at)
        },
        MalformedPlist("no objects", "object count 0") {
            var at = 0
            return (patchedTrailer { bytes, trailer in put(0, size: 8, at: trailer + 8, in: &bytes); at = trailer + 8 }, at)
        },
        MalformedPlist("huge object count", "object count 9223372036854775808 is impossible") {
            var at = 0
            return (patchedTrailer { bytes, trailer in put(1 << 63, size: 8, at: trailer + 8, in: &bytes); at = trailer + 8 }, at)
        },
        MalformedPlist("top object past the count", "top object 3 is not below the object count 3") {
            var at = 0
            return (patchedTrailer { bytes, trailer in put(3, size: 8, at: trailer + 16, in: &bytes); at = trailer + 16 }, at)
        },
        MalformedPlist("offset table inside the header", "offset table offset 4 is outside") {
            var at = 0
            return (patchedTrailer { bytes, trailer in put(4, size: 8, at: trailer + 24, in: &bytes); at = trailer + 24 }, at)
        },
        MalformedPlist("offset table past the end", "offset table offset 18446744073709551615 is outside") {
            var at = 0
            return (patchedTrailer { bytes, trailer in put(.max, size: 8, at: trailer + 24, in: &bytes); at = trailer + 24 }, at)
        },
        MalformedPlist("offset table running into the trailer", "runs into the trailer") {
            var at = 0
            return (patchedTrailer { bytes, trailer in put(UInt64(trailer - 1), size: 8, at: trailer + 24, in: &bytes); at = trailer + 24 }, at)
        },
        MalformedPlist("1-byte references for 300 objects", "1-byte object references cannot name 300 objects") {
            var builder = B(objects: [[0x08]] + [[UInt8]](repeating: [0x09], count: 299))
            builder.offsetSize = 2
            return (builder.bytes(), builder.layout.trailerOffset + 7)
        },
        // Offsets and references.
        MalformedPlist("object offset past the object area", "object 2 is at offset 200") {
            let builder = withValue(B.ascii("b"))
            var bytes = builder.bytes()
            bytes[builder.layout.tableOffset + 2] = 200
            return (bytes, builder.layout.tableOffset + 2)
        },
        MalformedPlist("object offset into the offset table", "outside the object area") {
            let builder = withValue(B.ascii("b"))
            var bytes = builder.bytes()
            bytes[builder.layout.tableOffset + 2] = UInt8(builder.layout.tableOffset)
            return (bytes, builder.layout.tableOffset + 2)
        },
        MalformedPlist("reference past the object count", "reference 5 is not below the object count 3") {
            (withValue(B.array([5])).bytes(), valueOffset + 1)
        },
        MalformedPlist("array holding itself", "object 0 contains itself") {
            (B(objects: [B.array([0])]).bytes(), 8)
        },
        MalformedPlist("cycle through a dictionary", "object 0 contains itself") {
            (withValue(B.array([0])).bytes(), 8)
        },
        // Sizes and counts.
        MalformedPlist("65 levels of arrays", "object 64 is nested deeper than 64 levels") {
            var builder = B(objects: chain(from: 0, count: 65, end: nil))
            builder.refSize = 2
            return (builder.bytes(), builder.layout.objectOffsets[64])
        },
        MalformedPlist("a shared subtree too deep where it is used again", "object 1 is nested deeper than 64 levels") {
            // Object 1 heads 40 levels: fine under object 0 (41), not at the end of 30 more (71).
            var builder = B(objects: [B.array([1, 41], refSize: 2)]
                + chain(from: 1, count: 40, end: nil) + chain(from: 41, count: 30, end: 1))
            builder.refSize = 2
            return (builder.bytes(), builder.layout.objectOffsets[1])
        },
        MalformedPlist("huge length", "the length 1099511627776 is larger than the file") {
            (withValue([0xAF, 0x13] + B.bigEndian(1 << 40, size: 8)).bytes(), valueOffset + 1)
        },
        MalformedPlist("count past the object area", "the array's references of 14 bytes at 14 runs past") {
            (withValue([0xAE, 0x00]).bytes(), valueOffset)
        },
        MalformedPlist("a few objects expanding to millions of values", "expands to more than 1048576 values") {
            // Object k holds object k + 1 four times: 4^12 values from 13 objects.
            let builder = B(objects: (0..<12).map { B.array([Int](repeating: $0 + 1, count: 4)) } + [[0x08]])
            return (builder.bytes(), builder.layout.objectOffsets[2])
        },
        // Object types.
        MalformedPlist("set", "a set object is not accepted") { (withValue([0xC1, 0x01]).bytes(), valueOffset) },
        MalformedPlist("integer key", "key (object 1) is not a string") {
            (B(objects: [B.dict([1], [1]), [0x10, 0x05]]).bytes(), 11)
        },
        MalformedPlist("UTF-16 string with an odd number of bytes", "the UTF-16 string of 4 bytes at 14 runs past") {
            (withValue([0x62, 0x00, 0x61, 0x00]).bytes(), valueOffset)
        },
        MalformedPlist("lone high surrogate", "high surrogate 0xD800 without a low one") {
            (withValue(B.utf16([0x61, 0xD800, 0x62])).bytes(), valueOffset + 3)
        },
        MalformedPlist("lone low surrogate", "low surrogate 0xDC00 without a high one") {
            (withValue(B.utf16([0xDC00, 0x62])).bytes(), valueOffset + 1)
        },
        MalformedPlist("high surrogate at the end", "ends with the high surrogate 0xDBFF") {
            (withValue(B.utf16([0x61, 0xDBFF])).bytes(), valueOffset + 3)
        },
        MalformedPlist("non-ASCII byte in an ASCII string", "holds the byte 0xC3") {
            (withValue([0x52, 0x61, 0xC3]).bytes(), valueOffset + 2)
        },
        MalformedPlist("null", "a null object") { (withValue([0x00]).bytes(), valueOffset) },
        MalformedPlist("fill", "a fill byte") { (withValue([0x0F]).bytes(), valueOffset) },
        MalformedPlist("UID", "a UID object") { (withValue([0x80, 0x05]).bytes(), valueOffset) },
        MalformedPlist("unknown marker", "marker 0x70 is not a known type") { (withValue([0x70]).bytes(), valueOffset) },
        MalformedPlist("32-byte integer", "2^5 bytes") { (withValue([0x15] + [UInt8](repeating: 1, count: 32)).bytes(), valueOffset) },
        MalformedPlist("16-byte integer above 64 bits", "16-byte integer does not fit") {
            (withValue([0x14] + B.bigEndian(1, size: 8) + B.bigEndian(0, size: 8)).bytes(), valueOffset)
        },
        MalformedPlist("2-byte real", "a real of 2^1 bytes") { (withValue([0x21, 0, 0]).bytes(), valueOffset) },
        MalformedPlist("date that is not a number", "is not a finite time") {
            (withValue([0x33] + B.bigEndian(Double.nan.bitPattern, size: 8)).bytes(), valueOffset)
        },
        MalformedPlist("truncated date", "the date of 8 bytes at 14 runs past") {
            (withValue([0x33, 0, 0, 0]).bytes(), valueOffset)
        },
        MalformedPlist("length that is not an integer", "length marker 0x21") {
            (withValue([0x5F, 0x21, 0, 0]).bytes(), valueOffset + 1)
        },
    ]

    @Test(arguments: cases)
    func isRefusedWithItsOffsetAndReason(_ plist: MalformedPlist) {
        do {
            let value = try BinaryPropertyList.decode(plist.bytes)
            Issue.record("expected an error, got \(value)")
        } catch {
            #expect(error.offset == plist.offset, "\(error)")
            #expect(error.reason.contains(plist.reason), "reason: \(error.reason)")
        }
    }

    /// The same files reach `BundleManifest` and `StringsTable` as errors, never as crashes.
    @Test(arguments: cases)
    func isRefusedByBundlesAndStringsTables(_ plist: MalformedPlist) {
        let data = Data(plist.bytes)
        #expect(throws: BundleError.self) { try BundleManifest.parse(infoPlist: data, path: "x/Info.plist") }
        #expect(throws: StringsTableError.self) { try StringsTable.parse(data) }
    }
}
