import CQuickActionsPlugin
import QuickActionsModel
import Testing

@testable import QuickActionsABI

/// What the encoder writes, the decoder reads back unchanged, for every
/// value type and icon kind.
@Suite struct ABIRoundTripTests {
    static let values: [UserInfoValue] = [
        .string(""), .string("Grüße, 世界 🎉"), .bool(true), .bool(false), .int(.min), .int(.max), .int(0),
        .double(-0.0), .double(1e308), .double(.infinity), .bytes([]), .bytes([0, 255, 0]),
        .array([]), .array([.int(1), .array([.string("x")])]),
        .dictionary([:]), .dictionary(["a": .dictionary(["b": .bytes([1])]), "": .bool(true)]),
    ]

    @Test(arguments: values)
    func aValueSurvivesEncodingAndDecoding(_ value: UserInfoValue) throws {
        let arena = CArena()
        let encoded = ABIEncoder(arena: arena).dictionary(["key": value])
        var decoder = ABIDecoder()
        let decoded = try withExtendedLifetime(arena) { try decoder.dictionary(encoded, at: "user info") }
        #expect(decoded == ["key": value])
    }

    @Test func aNaNDoubleStaysANaN() throws {
        let arena = CArena()
        let encoded = ABIEncoder(arena: arena).dictionary(["n": .double(.nan)])
        var decoder = ABIDecoder()
        let decoded = try withExtendedLifetime(arena) { try decoder.dictionary(encoded, at: "user info") }
        guard case .double(let number)? = decoded["n"] else {
            Issue.record("expected a double, got \(decoded)")
            return
        }
        #expect(number.isNaN)
    }

    @Test(arguments: [nil, ShortcutIcon.type(.compose), .symbol("heart"), .file("a/b.png")])
    func anItemSurvivesEncodingAndDecoding(_ icon: ShortcutIcon?) throws {
        let item = ShortcutItem(type: "t", title: "Title", subtitle: icon == nil ? nil : "Sub", icon: icon,
            userInfo: ["k": .int(1)])
        let arena = CArena()
        let list = ABIEncoder(arena: arena).itemList([item, item])
        var decoder = ABIDecoder()
        let decoded = try withExtendedLifetime(arena) { try decoder.items(list, count: 2) }
        #expect(decoded == [item, item])
    }

    @Test func entriesAreWrittenSortedByKey() {
        let arena = CArena()
        let encoded = ABIEncoder(arena: arena).dictionary(["b": .int(2), "c": .int(3), "a": .int(1)])
        let keys = (0..<encoded.count).map { String(cString: encoded.entries[$0].key) }
        #expect(keys == ["a", "b", "c"])
    }

    @Test func theDepthBoundCountsTheDictionaryItselfAsOneLevel() throws {
        var nested: UserInfoValue = .int(1)
        for _ in 0..<3 { nested = .array([nested]) }  // user info → 3 arrays → int: 4 container levels
        let arena = CArena()
        defer { withExtendedLifetime(arena) {} }
        let encoded = ABIEncoder(arena: arena).dictionary(["n": nested])
        var fits = ABIDecoder(bounds: ABIBounds(maxDepth: 4))
        #expect(try fits.dictionary(encoded, at: "user info") == ["n": nested])
        var tooDeep = ABIDecoder(bounds: ABIBounds(maxDepth: 3))
        #expect(throws: ABIDecodingError("user info[\"n\"][0][0]: nested deeper than the ABI's bound of 3 levels")) {
            try tooDeep.dictionary(encoded, at: "user info")
        }
    }

    @Test func theValueAndPayloadBudgetsCoverTheWholeCall() throws {
        let arena = CArena()
        defer { withExtendedLifetime(arena) {} }
        let encoded = ABIEncoder(arena: arena).dictionary(["a": .string("12345"), "b": .bytes([1, 2, 3])])
        var few = ABIDecoder(bounds: ABIBounds(maxValues: 1))
        #expect(throws: ABIDecodingError.self) { try few.dictionary(encoded, at: "u") }
        var small = ABIDecoder(bounds: ABIBounds(maxPayloadBytes: 7))
        let error = try #require(throws: ABIDecodingError.self) { try small.dictionary(encoded, at: "u") }
        #expect(error.message.contains("exceed the ABI's bound of 7 bytes"), "\(error)")
    }
}

/// Free text crossing the ABI: cut at character boundaries, repaired when invalid.
@Suite struct CStringsTests {
    struct Case: Sendable, CustomStringConvertible {
        var text: String
        var size: Int
        var expected: String
        var description: String { "\(text) in \(size) bytes" }
    }

    @Test(arguments: [
        Case(text: "hello", size: 16, expected: "hello"),
        Case(text: "hello", size: 3, expected: "he"),
        Case(text: "aé", size: 3, expected: "a"),  // é is 2 bytes; only "a" + NUL fit
        Case(text: "aé", size: 4, expected: "aé"),
        Case(text: "🎉x", size: 4, expected: ""),  // the 4-byte emoji does not fit in 3
        Case(text: "x", size: 1, expected: ""),
    ])
    func writingCutsAtACharacterBoundary(_ test: Case) {
        var buffer = [CChar](repeating: 0x55, count: test.size + 1)
        buffer.withUnsafeMutableBufferPointer { CStrings.write(test.text, into: $0.baseAddress, size: test.size) }
        #expect(buffer[test.size] == 0x55, "wrote past the buffer")
        let written = buffer.withUnsafeBufferPointer { pointer in
            pointer.baseAddress.map { CStrings.message(inBuffer: $0, size: test.size) }
        }
        #expect(written == test.expected)
    }

    @Test func invalidUTF8InAMessageIsRepaired() {
        let bytes: [CChar] = [0x61, CChar(bitPattern: 0xFF), 0x62, 0]
        let text = bytes.withUnsafeBufferPointer { CStrings.message($0.baseAddress) }
        #expect(text == "a\u{FFFD}b")
    }

    @Test func writingToANullBufferDoesNothing() {
        CStrings.write("ignored", into: nil, size: 10)
    }
}
