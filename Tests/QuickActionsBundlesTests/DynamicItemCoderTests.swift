import Foundation
import QuickActionsTestSupport
import Testing
@testable import QuickActionsBundles
@testable import QuickActionsModel

@Suite struct DynamicItemCoderTests {
    static let everyType: UserInfo = [
        "string": .string("héllo \u{0}"),
        "empty string": .string(""),
        "true": .bool(true),
        "false": .bool(false),
        "zero": .int(0),
        "one": .int(1),
        "min": .int(.min),
        "max": .int(.max),
        "double one": .double(1.0),
        "double": .double(-2.5e-300),
        "bytes": .bytes([0, 1, 0xFF]),
        "empty bytes": .bytes([]),
        "array": .array([.int(1), .double(1), .bool(true), .string("1"), .bytes([1])]),
        "empty array": .array([]),
        "dictionary": .dictionary(["nested": .dictionary(["deeper": .array([.bool(false)])])]),
        "empty dictionary": .dictionary([:]),
    ]

    static let items = [
        ShortcutItem(type: "a", title: "A", subtitle: "sub", icon: .type(.search), userInfo: everyType),
        ShortcutItem(type: "b", title: "B", icon: .symbol("heart.fill")),
        ShortcutItem(type: "c", title: "C", subtitle: "", icon: .file("icons/c.png")),
        ShortcutItem(type: "d", title: "D"),
    ]

    @Test func roundTripsEveryUserInfoType() throws {
        let bytes = try DynamicItemCoder.encode(Self.items)
        #expect(try DynamicItemCoder.decode(bytes) == Self.items)
    }

    @Test func encodingIsDeterministic() throws {
        #expect(try DynamicItemCoder.encode(Self.items) == DynamicItemCoder.encode(Self.items))
    }

    @Test(arguments: [
        0.0, -0.0, Double.infinity, -Double.infinity, Double.nan, -Double.nan,
        Double(nan: 0x1234, signaling: false), Double(nan: 7, signaling: true),
        Double.leastNonzeroMagnitude, Double.greatestFiniteMagnitude, 0.1,
    ])
    func doublesRoundTripBitForBit(_ value: Double) throws {
        let item = ShortcutItem(type: "t", title: "T", userInfo: ["d": .double(value)])
        let decoded = try DynamicItemCoder.decode(DynamicItemCoder.encode([item]))
        guard case .double(let back) = decoded.first?.userInfo["d"] else {
            Issue.record("expected a double, got \(String(describing: decoded.first?.userInfo["d"]))")
            return
        }
        #expect(back.bitPattern == value.bitPattern)
    }

    @Test func emptyListRoundTrips() throws {
        #expect(try DynamicItemCoder.decode(DynamicItemCoder.encode([])) == [])
    }

    @Test func refusesToEncodeOverTheLimits() {
        #expect(throws: ItemLimitError.tooManyItems(count: 65)) {
            try DynamicItemCoder.encode(Array(repeating: ShortcutItem(type: "t", title: "T"), count: 65))
        }
    }

    @Test func encodedSizeMatchesTheEncoding() throws {
        let empty = try DynamicItemCoder.encode([ShortcutItem(type: "t", title: "T")])
        let full = try DynamicItemCoder.encode([ShortcutItem(type: "t", title: "T", userInfo: Self.everyType)])
        let difference = full.count - empty.count
        #expect(DynamicItemCoder.encodedSize(of: .dictionary(Self.everyType)) - DynamicItemCoder.encodedSize(of: .dictionary([:])) == difference)
    }

    @Test func refusesBrokenFiles() throws {
        let good = try DynamicItemCoder.encode(Self.items)
        #expect(throws: StoreFormatError.empty) { try DynamicItemCoder.decode([]) }
        #expect(throws: StoreFormatError.notAStateFile) { try DynamicItemCoder.decode(Array("JSON".utf8)) }
        var future = good
        future[5] = 3
        #expect(throws: StoreFormatError.unsupportedVersion(3)) { try DynamicItemCoder.decode(future) }
        #expect(throws: StoreFormatError.self) { try DynamicItemCoder.decode(Array(good.dropLast())) }
        var flipped = good
        flipped[20] ^= 0x01
        #expect(throws: StoreFormatError.self) { try DynamicItemCoder.decode(flipped) }
        #expect(throws: StoreFormatError.self) { try DynamicItemCoder.decode(good + [0]) }
    }

    /// Builds a version 1 file (items without ids, as brokers before item ids wrote them)
    /// around a hand-made body, with a correct checksum, to reach the checks behind it.
    static func file(count: UInt32, body: [UInt8], version: UInt16 = 1) -> [UInt8] {
        var writer = Writer()
        writer.bytes = Array("QAIS".utf8)
        writer.integer(version)
        writer.integer(count)
        writer.bytes += body
        writer.integer(CRC32.checksum(writer.bytes))
        return writer.bytes
    }

    static func itemBody(userInfo: [UInt8]) -> [UInt8] {
        var writer = Writer()
        writer.string("t")
        writer.string("T")
        writer.bytes += [0, 0]
        return writer.bytes + userInfo
    }

    @Test func refusesNestingPastTheLimitWithoutRecursingFurther() {
        // 'm' with one entry whose value is 100,000 nested arrays.
        var userInfo: [UInt8] = [UInt8(ascii: "m"), 0, 0, 0, 1, 0, 0, 0, 1, UInt8(ascii: "k")]
        for _ in 0..<100_000 { userInfo += [UInt8(ascii: "a"), 0, 0, 0, 1] }
        userInfo += [UInt8(ascii: "T")]
        let bytes = Self.file(count: 1, body: Self.itemBody(userInfo: userInfo))
        #expect(throws: StoreFormatError.self) { try DynamicItemCoder.decode(bytes) }
    }

    @Test func refusesHugeCountsWithoutAllocating() {
        let userInfo: [UInt8] = [UInt8(ascii: "m"), 0xFF, 0xFF, 0xFF, 0xFF]
        #expect(throws: StoreFormatError.self) {
            try DynamicItemCoder.decode(Self.file(count: 1, body: Self.itemBody(userInfo: userInfo)))
        }
        #expect(throws: StoreFormatError.self) {
            try DynamicItemCoder.decode(Self.file(count: 0xFFFF_FFFF, body: []))
        }
    }

    @Test func refusesUnsortedOrRepeatedKeys() {
        var writer = Writer()
        writer.bytes = [UInt8(ascii: "m"), 0, 0, 0, 2]
        writer.string("b")
        writer.bytes.append(UInt8(ascii: "T"))
        writer.string("a")
        writer.bytes.append(UInt8(ascii: "T"))
        #expect(throws: StoreFormatError.self) {
            try DynamicItemCoder.decode(Self.file(count: 1, body: Self.itemBody(userInfo: writer.bytes)))
        }
    }

    @Test func refusesAListOverTheLimitsOnDisk() {
        var body: [UInt8] = []
        for _ in 0..<65 { body += Self.itemBody(userInfo: [UInt8(ascii: "m"), 0, 0, 0, 0]) }
        #expect(throws: StoreFormatError.limits(.tooManyItems(count: 65))) {
            try DynamicItemCoder.decode(Self.file(count: 65, body: body))
        }
    }

    @Test func survivesMutatedFiles() throws {
        var generator = SeededGenerator(seed: 7)
        let good = try DynamicItemCoder.encode(Self.items)
        for round in 0..<3_000 {
            var bytes = good
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let index = Int.random(in: 0..<bytes.count, using: &generator)
                bytes[index] = UInt8.random(in: 0...255, using: &generator)
            }
            if round % 3 == 0 { bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &generator))) }
            // Mutations behind a fixed-up checksum reach the structural checks too.
            if round % 2 == 0, bytes.count > 10 {
                let body = Array(bytes.dropLast(4))
                var writer = Writer()
                writer.bytes = body
                writer.integer(CRC32.checksum(body))
                bytes = writer.bytes
            }
            _ = try? DynamicItemCoder.decode(bytes)
        }
    }
}
