import Foundation
import Testing
@testable import QuickActionsBundles

@Suite struct XMLPropertyListTests {
    /// A property-list value as text that tells every type apart, dictionaries in key order.
    static func canonical(_ value: Any) -> String {
        if type(of: value) == Bool.self { return "bool(\(value))" }
        switch value {
        case let string as String: return "string(\"\(escaped(string))\")"
        case let data as Data: return "data(\(Array(data)))"
        case let date as Date: return "date(\(date.timeIntervalSinceReferenceDate))"
        case let array as [Any]: return "[" + array.map(canonical).joined(separator: ", ") + "]"
        case let dictionary as [String: Any]:
            return "{" + dictionary.keys.sorted().map { "\($0): \(canonical(dictionary[$0] as Any))" }.joined(separator: ", ") + "}"
        case let number as NSNumber:
            let kind = String(cString: number.objCType)
            return kind == "d" || kind == "f" ? "real(\(number.doubleValue))" : "integer(\(number.int64Value))"
        default: return "other(\(type(of: value)))"
        }
    }

    /// `string` with `"`, `\\` and control characters escaped, every other scalar as it is (not
    /// `debugDescription`, which also escapes `'` and is the standard library's to change).
    static func escaped(_ string: String) -> String {
        string.unicodeScalars.map { scalar in
            switch scalar {
            case "\"": return "\\\""
            case "\\": return "\\\\"
            case "\n": return "\\n"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: return "\\u{\(String(scalar.value, radix: 16))}"
            default: return String(scalar)
            }
        }.joined()
    }

    static func read(_ text: String) throws(PropertyListError) -> Any {
        try PropertyListReader.read(Data(text.utf8))
    }

    /// What Foundation writes, ours reads to the very values Foundation's reader gives.
    @Test func readsWhatFoundationReads() throws {
        let data = try BundleFixtures.data(BundleFixtures.fullInfoPlist(), format: .xml)
        let ours = try #require(try XMLPropertyList.decode([UInt8](data)))
        let foundation = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        #expect(Self.canonical(ours) == Self.canonical(try FoundationPropertyList.checked(foundation)))
        #expect(Self.canonical(ours).contains("date(721692800.0)"), "\(Self.canonical(ours))")
    }

    @Test(arguments: [
        ("<plist><string>a &lt;b&gt; &amp; &quot;c&quot; &apos;d&apos; &#233;&#x1F600;</string></plist>",
         "string(\"a <b> & \\\"c\\\" 'd' é😀\")"),
        ("<plist><string>&#65;&#x42;&#x0063;&#0000100;&#xe9;&#xE9;&#1114111;</string></plist>",
         "string(\"ABcdéé\u{10FFFF}\")"),
        ("<plist><string>&#9;&#10;&#13;</string></plist>",
         "string(\"\\u{9}\\n\\u{d}\")"),
        ("<plist><dict><key>caf&#233;</key><string>x</string></dict></plist>", "{café: string(\"x\")}"),
        ("<plist><string><![CDATA[<not> &a tag]]> after</string></plist>", "string(\"<not> &a tag after\")"),
        ("<plist><string>be<!-- a comment -->fore</string></plist>", "string(\"before\")"),
        ("<plist><string/></plist>", "string(\"\")"),
        ("<plist><string>  spaced\n</string></plist>", "string(\"  spaced\\n\")"),
        ("<plist><string>Grüße</string></plist>", "string(\"Grüße\")"),
        ("<plist><integer> -42 </integer></plist>", "integer(-42)"),
        ("<plist><integer>0x1F</integer></plist>", "integer(31)"),
        ("<plist><integer>9223372036854775807</integer></plist>", "integer(9223372036854775807)"),
        ("<plist><real>2.5</real></plist>", "real(2.5)"),
        ("<plist><real>2</real></plist>", "real(2.0)"),
        ("<plist><true/></plist>", "bool(true)"),
        ("<plist><false></false></plist>", "bool(false)"),
        ("<plist><date>2001-01-01T00:01:00Z</date></plist>", "date(60.0)"),
        ("<plist><data>AAH/\n\t</data></plist>", "data([0, 1, 255])"),
        ("<plist><array/></plist>", "[]"),
        ("<plist><dict/></plist>", "{}"),
        ("<plist><dict><key>a</key><integer>1</integer><key>a</key><integer>2</integer></dict></plist>", "{a: integer(2)}"),
        ("\u{FEFF}<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE plist [ <!ENTITY x \"y\"> ]>\n<!-- c -->"
            + "<plist version=\"1.0\">\n<array>\n\t<string>x</string>\n</array>\n</plist>\n<!-- after -->\n",
         "[string(\"x\")]"),
    ])
    func readsEachForm(_ xml: String, _ expected: String) throws {
        #expect(Self.canonical(try Self.read(xml)) == expected)
    }

    @Test(arguments: [
        "<plist></plist>",
        "<plist/>",
        "<plist><string>a</string>",
        "<plist><string>a</strin></plist>",
        "<plist><string>a</string><string>b</string></plist>",
        "<plist><string>a</string></plist> trailing",
        "<plist>text<string>a</string></plist>",
        "<plist><dict><string>a</string></dict></plist>",
        "<plist><dict><key>a</key></dict></plist>",
        "<plist><key>a</key></plist>",
        "<plist><set/></plist>",
        "<plist><integer>12x</integer></plist>",
        "<plist><integer>18446744073709551616</integer></plist>",
        "<plist><real>abc</real></plist>",
        "<plist><date>yesterday</date></plist>",
        "<plist><data>!!</data></plist>",
        "<plist><string>&bogus;</string></plist>",
        "<plist><string>&#0;</string></plist>",
        "<plist><string>a &amp b</string></plist>",
        "<plist><string><![CDATA[open</string></plist>",
        "<!-- open <plist><true/></plist>",
        "<plist><string>a<!-- open</string></plist>",
        "<plist><true/ ></plist>",
    ])
    func refusesWhatIsNotWellFormed(_ xml: String) {
        #expect(throws: PropertyListError.self) { try Self.read(xml) }
    }

    /// A bad reference is refused with a message naming it (a bounded prefix of it), at its offset.
    @Test(arguments: [
        ("&#0;", "&#0; names NUL"),
        ("&#x0000;", "&#x0000; names NUL"),
        ("&#xD800;", "&#xD800; names a UTF-16 surrogate"),
        ("&#57343;", "&#57343; names a UTF-16 surrogate"),
        ("&#x110000;", "&#x110000; is beyond U+10FFFF"),
        ("&#99999999999999999999999;", "&#99999999999999999999999; is beyond U+10FFFF"),
        ("&#x;", "&#x; has no digits"),
        ("&#;", "&#; has no digits"),
        ("&#12a;", "&#12a; is not a decimal character reference"),
        ("&#X41;", "&#X41; is not a decimal character reference"),
        ("&#x4G;", "&#x4G; is not a hex character reference"),
        ("&#-1;", "&#-1; is not a decimal character reference"),
        ("&bogus;", "&bogus; is not a known entity"),
        ("a &amp b", "an & that starts no reference: \"&amp b</str"),
        ("&amp&lt;", "an & that starts no reference: \"&amp&lt;"),
        ("&#x0000000000000000000000000000000041;", "an & that starts no reference: \"&#x000000000"),
    ])
    func refusesBadReferences(_ text: String, _ message: String) {
        do {
            _ = try Self.read("<plist><string>\(text)</string></plist>")
            Issue.record("expected \(text) to be refused")
        } catch {
            #expect(error.reason.contains(message), "\(error)")
            let ampersand = text.utf8.firstIndex(of: UInt8(ascii: "&")).map { text.utf8.distance(from: text.utf8.startIndex, to: $0) }
            #expect(error.offset == 15 + (ampersand ?? 0), "\(error)")
        }
    }

    @Test func refusesTextThatIsNotUTF8() {
        let bytes = Array("<plist><string>".utf8) + [0xC3, 0x28] + Array("</string></plist>".utf8)
        #expect(throws: PropertyListError.self) { try PropertyListReader.read(Data(bytes)) }
    }

    @Test func anotherEncodingGoesToFoundation() throws {
        let latin1 = Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><plist><string>Gr".utf8) + [0xFC, 0xDF]
            + Array("e</string></plist>".utf8)
        #expect(try XMLPropertyList.decode(latin1) == nil)
        #expect(Self.canonical(try PropertyListReader.read(Data(latin1))) == "string(\"Grüße\")")
    }

    @Test func errorsNameWhereTheyAre() {
        do {
            _ = try Self.read("<plist><dict><key>items</key><array><integer>1</integer><dict><key>x</key><integer>no</integer></dict></array></dict></plist>")
            Issue.record("expected an error")
        } catch {
            #expect(error.reason.contains("\"no\" is not an integer"), "\(error)")
            #expect(error.offset == 74, "\(error)")
        }
        do {
            _ = try Self.read("<plist><dict><key>a</key><array><integer>1</integer><key>b</key></array></dict></plist>")
            Issue.record("expected an error")
        } catch {
            #expect(error.reason.contains("outside a dictionary at .a[1]"), "\(error)")
        }
    }
}
