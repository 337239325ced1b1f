import Foundation
import QuickActionsTestSupport
import Testing
@testable import QuickActionsBundles
@testable import QuickActionsModel

@Suite struct StringsTableTests {
    static let sample = """
        /* Localised titles */
        "Play" = "Abspielen";   // trailing comment
        // a line comment with "quotes" = "ignored";
        CFBundleDisplayName = "Musik";
        "Quote \\"me\\"" = "Tab\\there\\nand \\\\ back";
        "Unicode" = "\\U00e9\\u00E8 \\UD83D\\UDE00";
        'single' = 'quoted';
        "Self";
        "Empty" = "";
        """

    static let expected: [String: String] = [
        "Play": "Abspielen",
        "CFBundleDisplayName": "Musik",
        "Quote \"me\"": "Tab\there\nand \\ back",
        "Unicode": "éè 😀",
        "single": "quoted",
        "Self": "Self",
        "Empty": "",
    ]

    @Test func parsesUTF8WithCommentsEscapesAndUnquotedKeys() throws {
        #expect(try StringsTable.parse(Data(Self.sample.utf8)).entries == Self.expected)
    }

    @Test func parsesUTF8WithBOM() throws {
        let data = Data([0xEF, 0xBB, 0xBF]) + Data(Self.sample.utf8)
        #expect(try StringsTable.parse(data).entries == Self.expected)
    }

    @Test(arguments: [true, false])
    func parsesUTF16WithBOM(bigEndian: Bool) throws {
        var data = Data(bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE])
        data += utf16(Self.sample, bigEndian: bigEndian)
        #expect(try StringsTable.parse(data).entries == Self.expected)
    }

    @Test(arguments: [true, false])
    func parsesUTF16WithoutBOM(bigEndian: Bool) throws {
        let data = utf16(Self.sample, bigEndian: bigEndian)
        #expect(try StringsTable.parse(data).entries == Self.expected)
    }

    @Test func laterDuplicateKeyWins() throws {
        let table = try StringsTable.parse(Data("\"a\" = \"1\"; \"a\" = \"2\";".utf8))
        #expect(table["a"] == "2")
    }

    @Test func emptyInputIsAnEmptyTable() throws {
        #expect(try StringsTable.parse(Data()).entries.isEmpty)
        #expect(try StringsTable.parse(Data("  /* only a comment */\n".utf8)).entries.isEmpty)
    }

    @Test(arguments: [
        ("\"a\" = \"b\"", 1, 10, "expected ';'"),
        ("\"a\" \"b\";", 1, 5, "expected '=' or ';'"),
        ("\n\n  \"a\" = \"b", 3, 9, "unterminated string"),
        ("\"a\" = \"b\";\n/* open", 2, 1, "unterminated /* comment"),
        ("\"a\" = ;", 1, 7, "expected the value of \"a\""),
        ("= \"b\";", 1, 1, "expected the key"),
        ("\"a\" = \"\\UD83D\";", 1, 8, "high surrogate"),
        ("\"a\" = \"\\UDE00\";", 1, 8, "low surrogate"),
        ("\"a\" = \"\\Uzz\";", 1, 8, "hex digits"),
        ("\"a\" = \"x\\", 1, 9, "backslash at the end"),
        ("\"a\" = \"b\";\r\n\"c\" = \"d\"", 2, 10, "expected ';'"),
    ])
    func reportsErrorsWithLineAndColumn(_ text: String, line: Int, column: Int, reason: String) {
        do {
            let table = try StringsTable.parse(Data(text.utf8))
            Issue.record("expected an error, got \(table.entries)")
        } catch {
            guard case .syntax(let gotLine, let gotColumn, let gotReason) = error else {
                Issue.record("expected a syntax error, got \(error)")
                return
            }
            #expect(gotLine == line)
            #expect(gotColumn == column)
            #expect(gotReason.contains(reason), "reason was: \(gotReason)")
        }
    }

    @Test func invalidUTF8IsASyntaxErrorAtItsPosition() {
        let data = Data("\"a\" = \"b\";\n\"c\" = \"".utf8) + Data([0xC3, 0x28]) + Data("\";".utf8)
        #expect(throws: StringsTableError.syntax(line: 2, column: 8, reason: "invalid UTF-8")) {
            try StringsTable.parse(data)
        }
    }

    @Test func unpairedSurrogateInUTF16IsAnError() {
        var data = Data([0xFF, 0xFE])
        data += utf16("\"a\" = \"", bigEndian: false)
        data += Data([0x00, 0xD8])  // a lone high surrogate, little endian
        data += utf16("\";", bigEndian: false)
        #expect(throws: StringsTableError.self) { try StringsTable.parse(data) }
    }

    @Test func utf16WithAnOddNumberOfBytesIsAnError() {
        var data = Data([0xFE, 0xFF])
        data += utf16("\"a\" = \"b\";\n", bigEndian: true)
        data.append(0x22)
        #expect(throws: StringsTableError.syntax(line: 2, column: 1, reason: "UTF-16 text with an odd number of bytes")) {
            try StringsTable.parse(data)
        }
    }

    @Test(arguments: [PropertyListSerialization.PropertyListFormat.xml, .binary])
    func parsesPropertyListDictionaries(_ format: PropertyListSerialization.PropertyListFormat) throws {
        let data = try PropertyListSerialization.data(fromPropertyList: Self.expected, format: format, options: 0)
        #expect(try StringsTable.parse(data).entries == Self.expected)
    }

    @Test func parsesOldStyleDictionaryInBraces() throws {
        let table = try StringsTable.parse(Data("/* c */ { a = b; \"c d\" = \"e\"; }".utf8))
        #expect(table.entries == ["a": "b", "c d": "e"])
    }

    @Test func refusesPropertyListsThatAreNotStringDictionaries() throws {
        let array = try PropertyListSerialization.data(fromPropertyList: ["a"], format: .xml, options: 0)
        #expect(throws: StringsTableError.self) { try StringsTable.parse(array) }
        let numbers = try PropertyListSerialization.data(fromPropertyList: ["a": 1], format: .binary, options: 0)
        #expect(throws: StringsTableError.self) { try StringsTable.parse(numbers) }
    }

    @Test func survivesArbitraryBytes() {
        var generator = SeededGenerator(seed: 0x5EED)
        let alphabet = Array("\"'\\=;/*{} \nUu0aé".utf8)
        for round in 0..<2_000 {
            let count = Int.random(in: 0..<64, using: &generator)
            let bytes = (0..<count).map { _ in
                round % 2 == 0 ? UInt8.random(in: 0...255, using: &generator)
                    : alphabet[Int.random(in: 0..<alphabet.count, using: &generator)]
            }
            _ = try? StringsTable.parse(Data(bytes))
        }
    }

    @Test func deepBracesDoNotCrash() {
        let text = String(repeating: "{", count: 100_000)
        #expect(throws: StringsTableError.self) { try StringsTable.parse(Data(text.utf8)) }
    }

    private func utf16(_ text: String, bigEndian: Bool) -> Data {
        var data = Data()
        for unit in text.utf16 {
            let value = bigEndian ? unit.bigEndian : unit.littleEndian
            withUnsafeBytes(of: value) { data.append(contentsOf: $0) }
        }
        return data
    }
}

