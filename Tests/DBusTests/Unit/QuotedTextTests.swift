import DBus
import Testing

/// `quoted(prefix:mark:)`: how every error message and log line names an offending value.
@Suite("Quoted values in messages")
struct QuotedTextTests {
    static let cases: [(text: String, prefix: Int, mark: Character, expected: String)] = [
        ("com.example.app", 64, "\"", "\"com.example.app\""),
        ("", 64, "\"", "\"\""),
        ("abcdef", 3, "\"", "\"abc…\" (6 bytes)"),
        ("abc", 3, "\"", "\"abc\""),
        ("äöü", 2, "\"", "\"äö…\" (6 bytes)"),
        ("two\nlines", 64, "\"", "\"two\\nlines\""),
        ("tab\there\r", 64, "\"", "\"tab\\there\\r\""),
        ("say \"hi\"", 64, "\"", "\"say \\\"hi\\\"\""),
        ("back\\slash", 64, "\"", "\"back\\\\slash\""),
        ("\u{1B}[31mred", 64, "\"", "\"\\u{1B}[31mred\""),
        ("it's", 64, "'", "'it\\'s'"),
        ("--nope", 64, "'", "'--nope'"),
    ]

    @Test("quotes, escapes and cuts", arguments: cases)
    func quotes(_ testCase: (text: String, prefix: Int, mark: Character, expected: String)) {
        #expect(testCase.text.quoted(prefix: testCase.prefix, mark: testCase.mark) == testCase.expected)
    }

    @Test("a 1 MiB value yields a bounded quote that says its length")
    func hugeValue() {
        let huge = String(repeating: "a", count: 1 << 20)
        let quoted = huge.quoted()
        #expect(quoted == "\"" + String(repeating: "a", count: 64) + "…\" (1048576 bytes)")
    }
}
