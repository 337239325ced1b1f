import Foundation
import QuickActionsTestSupport
import Testing
@testable import QuickActionsBundles

/// `XMLPropertyList` against Foundation's XML reader (`PropertyListSerialization`, its result
/// checked by `FoundationPropertyList` as the reader did before): on valid property lists both
/// must give the very same values. The inputs come from three writers: by hand (every form the
/// format allows), Foundation's own writer (generated values) and Python's plistlib (the fuzz
/// seeds).
@Suite struct XMLPropertyListDifferentialTests {
    /// Both readers' values for `data`, as `XMLPropertyListTests.canonical` text.
    static func both(_ data: Data) throws -> (ours: String, foundation: String) {
        let ours = try #require(try XMLPropertyList.decode([UInt8](data)), "our reader sent it to Foundation")
        let foundation = try FoundationPropertyList.checked(
            PropertyListSerialization.propertyList(from: data, options: [], format: nil))
        let result = (ours: XMLPropertyListTests.canonical(ours), foundation: XMLPropertyListTests.canonical(foundation))
        // A type the canonical text does not know would make both sides alike for no reason.
        #expect(!result.ours.contains("other(") && !result.foundation.contains("other("), "\(result)")
        return result
    }

    static let header = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">

        """

    @Test(arguments: [
        "<plist version=\"1.0\"><string>plain</string></plist>",
        "<plist><string>a &lt;b&gt; &amp; &quot;c&quot; &apos;d&apos;</string></plist>",
        "<plist><string>&#233;&#x1F600;&#65;&#x42;&#x0063;&#xe9;&#xE9;&#1114111;&#x10FFFF;</string></plist>",
        "<plist><string>tab&#9;newline&#10;</string></plist>",
        "<plist><string>Grüße, 日本語, 😀</string></plist>",
        "<plist><string><![CDATA[<not> &a tag]]> after</string></plist>",
        "<plist><string>  spaced\n\tout  </string></plist>",
        "<plist><string/></plist>",
        "<plist><string></string></plist>",
        "<plist><integer>0</integer></plist>",
        "<plist><integer>-42</integer></plist>",
        "<plist><integer>9223372036854775807</integer></plist>",
        "<plist><integer>-9223372036854775808</integer></plist>",
        "<plist><integer>0x1F</integer></plist>",
        "<plist><real>2.5</real></plist>",
        "<plist><real>-0.125</real></plist>",
        "<plist><real>1e10</real></plist>",
        "<plist><real>3</real></plist>",
        "<plist><true/></plist>",
        "<plist><false/></plist>",
        "<plist><date>2001-01-01T00:00:00Z</date></plist>",
        "<plist><date>2024-02-29T23:59:59Z</date></plist>",
        "<plist><date>1969-07-20T20:17:40Z</date></plist>",
        "<plist><data>AAH/</data></plist>",
        "<plist><data>\n\tSGVsbG8s\n\tIHdvcmxk\n\t</data></plist>",
        "<plist><data></data></plist>",
        "<plist><array/></plist>",
        "<plist><array></array></plist>",
        "<plist><dict/></plist>",
        "<plist><dict></dict></plist>",
        "<plist><array><integer>1</integer><string>two</string><array><true/></array><dict/></array></plist>",
        "<plist><dict><key>a</key><integer>1</integer><key>a</key><integer>2</integer></dict></plist>",
        "<plist><dict><key></key><string>empty key</string><key>caf&#233;</key><string>x</string></dict></plist>",
        "<plist><dict><key>nested</key><dict><key>deeper</key><array><dict><key>x</key><real>1.5</real></dict></array></dict></dict></plist>",
        "<plist>\n  <!-- a comment -->\n  <dict>\n    <key>k</key>\n    <!-- between -->\n    <string>v</string>\n  </dict>\n</plist>\n",
        "<?xml version=\"1.0\"?><plist><string>no encoding named</string></plist>",
        "<?xml version=\"1.0\" encoding=\"utf-8\"?><plist><string>lower case</string></plist>",
    ])
    func agreesOnEachForm(_ body: String) throws {
        let result = try Self.both(Data((Self.header + body).utf8))
        #expect(result.ours == result.foundation)
    }

    /// Python's plistlib wrote these (Fuzz/Seeds/make-seeds.py): Info.plists and a strings file.
    @Test func agreesOnPlistlibsFiles() throws {
        let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fuzz/Corpus/bundle")
        let files = try FileManager.default.contentsOfDirectory(atPath: corpus.path)
            .filter { $0.hasSuffix(".xml.plist") }.sorted()
        #expect(files.count >= 4, "\(files)")
        for file in files {
            let result = try Self.both(try Data(contentsOf: corpus.appendingPathComponent(file)))
            #expect(result.ours == result.foundation, "\(file)")
        }
    }

    /// Values Foundation writes as XML, generated from a fixed seed: both readers read them back alike.
    @Test func agreesOnWhatFoundationWrites() throws {
        var generator = Generator(seed: 0x5EED_35)
        for round in 0..<300 {
            let value = generator.value(depth: 0)
            let data = try PropertyListSerialization.data(fromPropertyList: value, format: .xml, options: 0)
            let result = try Self.both(data)
            #expect(result.ours == result.foundation, "round \(round): \(String(decoding: data.prefix(400), as: UTF8.self))")
        }
    }

    /// Property-list values from a small deterministic generator (SplitMix64).
    struct Generator {
        var seeded: SeededGenerator

        init(seed: UInt64) { seeded = SeededGenerator(seed: seed) }

        mutating func next() -> UInt64 { seeded.next() }

        mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

        static let pieces = ["a", "Z", " ", "<", ">", "&", "\"", "'", "]]>", "\t", "\n", "é", "ß", "日", "😀",
                             "&amp;", "\u{10FFFF}", "\u{7F}", "key", "0"]

        mutating func string() -> String {
            (0..<below(8)).map { _ in Self.pieces[below(Self.pieces.count)] }.joined()
        }

        mutating func value(depth: Int) -> Any {
            switch below(depth < 3 ? 9 : 7) {
            case 0: return string()
            case 1: return NSNumber(value: Int64(bitPattern: next()) >> Int64(below(64)))
            case 2: return NSNumber(value: Double(Int64(bitPattern: next()) >> 20) / 1024)
            case 3: return below(2) == 0
            case 4: return Date(timeIntervalSinceReferenceDate: Double(Int64(bitPattern: next()) >> 34))
            case 5: return Data((0..<below(40)).map { _ in UInt8(truncatingIfNeeded: next()) })
            case 6: return NSNumber(value: below(2) == 0 ? 0.0 : -1.5)
            case 7: return (0..<below(5)).map { _ in value(depth: depth + 1) }
            default:
                var dictionary: [String: Any] = [:]
                for _ in 0..<below(5) { dictionary[string()] = value(depth: depth + 1) }
                return dictionary
            }
        }
    }
}
