import Foundation
import QuickActionsTestSupport
import Testing
@testable import QuickActionsBundles
@testable import QuickActionsModel

@Suite struct PropertyListReaderTests {
    @Test(arguments: [
        ("bplist00", PropertyListReader.Format.binary),
        ("bplist17", .binary),
        ("<?xml version=\"1.0\"?><plist/>", .xml),
        ("<plist version=\"1.0\"><dict/></plist>", .xml),
        ("<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"x\">", .xml),
        ("\u{FEFF} \n\t<?xml", .xml),
        (" bplist00", .unknown),
        ("<!-- a comment --><plist/>", .unknown),
        ("{ CFBundleIdentifier = x; }", .unknown),
        ("", .unknown),
    ])
    func formatIsToldByTheFirstBytes(_ text: String, _ format: PropertyListReader.Format) {
        #expect(PropertyListReader.format(of: Array(text.utf8)) == format)
    }

    @Test func oldStyleInfoPlistIsNotAPropertyList() {
        let text = "{ CFBundleIdentifier = com.example.x; CFBundleExecutable = libx.so; }"
        #expect(throws: BundleError.notAPropertyList(
            path: "p", reason: "at byte 0: neither a binary (bplist00) nor an XML property list")) {
            try BundleManifest.parse(infoPlist: Data(text.utf8), path: "p")
        }
    }

    @Test func xmlAfterAByteOrderMarkIsRead() throws {
        let xml = try BundleFixtures.data(BundleFixtures.minimal(), format: .xml)
        let manifest = try BundleManifest.parse(infoPlist: Data([0xEF, 0xBB, 0xBF, 0x0A]) + xml).manifest
        #expect(manifest.appID.rawValue == "com.example.app")
    }

    /// Foundation's binary reader crashes the process on this (a valid file holding a set);
    /// ours refuses it.
    @Test func binaryPlistWithASetIsRefusedNotCrashed() {
        let set = BinaryPlistBuilder(objects: [
            BinaryPlistBuilder.dict([1, 2], [3, 4]), BinaryPlistBuilder.ascii("CFBundleIdentifier"),
            BinaryPlistBuilder.ascii("CFBundleExecutable"), [0xC1, 0x05], BinaryPlistBuilder.ascii("libx.so"),
            BinaryPlistBuilder.ascii("com.example.x"),
        ])
        let data = Data(set.bytes())
        let offset = set.layout.objectOffsets[3]
        #expect(throws: BundleError.notAPropertyList(
            path: "p", reason: "at byte \(offset): a set object is not accepted (property lists here use arrays)")) {
            try BundleManifest.parse(infoPlist: data, path: "p")
        }
        #expect(throws: StringsTableError.propertyList(
            reason: "not a property list: at byte \(offset): a set object is not accepted (property lists here use arrays)")) {
            try StringsTable.parse(data)
        }
    }

    /// Foundation's XML reader turns `<dict><key>CF$UID</key>…` into a keyed-archiver UID object.
    @Test(arguments: [
        ("<plist><dict><key>CF$UID</key><integer>1</integer></dict></plist>", "the top level holds a"),
        ("<plist><dict><key>a</key><array><dict><key>CF$UID</key><integer>1</integer></dict></array></dict></plist>",
         ".a[0] holds a"),
    ])
    func xmlUIDsAreRefused(_ xml: String, _ reason: String) {
        do {
            let value = try PropertyListReader.read(Data(xml.utf8))
            Issue.record("expected an error, got \(value)")
        } catch {
            #expect(error.reason.contains(reason), "\(error)")
            #expect(error.reason.contains("not a property-list value"), "\(error)")
        }
    }

    @Test func xmlIsCheckedForDepth() {
        let depth = PropertyListLimits.maximumDepth + 1
        let xml = "<plist>" + String(repeating: "<array>", count: depth) + String(repeating: "</array>", count: depth) + "</plist>"
        #expect(throws: PropertyListError.self) { try PropertyListReader.read(Data(xml.utf8)) }
    }

    @Test func brokenXMLIsNotAPropertyList() {
        #expect(throws: BundleError.self) {
            try BundleManifest.parse(infoPlist: Data("<plist><dict><key>a</key></plist>".utf8))
        }
        #expect(throws: StringsTableError.self) { try StringsTable.parse(Data("<?xml <<<".utf8)) }
    }

    @Test func stringsTablesStillReadEveryFormat() throws {
        let entries = ["Play": "Abspielen", "Grüße": "😀"]
        for format in [PropertyListSerialization.PropertyListFormat.xml, .binary] {
            let data = try PropertyListSerialization.data(fromPropertyList: entries, format: format, options: 0)
            #expect(try StringsTable.parse(data).entries == entries)
        }
        #expect(try StringsTable.parse(Data("{ Play = Abspielen; }".utf8)).entries == ["Play": "Abspielen"])
    }

    /// Seeded random damage to valid binary and XML files (bytes overwritten, cut, repeated;
    /// trailer fields set to edge values) must give a result or an error, never a crash or a hang.
    @Test func survivesTwentyThousandMutations() throws {
        var generator = SeededGenerator(seed: 0xB9_1157)
        let info = BundleFixtures.fullInfoPlist()
        let strings: [String: Any] = ["Play": "Abspielen", "Grüße": "Schön 😀", "n": "1"]
        let seeds = [
            [UInt8](try BundleFixtures.data(info, format: .binary)),
            [UInt8](try PropertyListSerialization.data(fromPropertyList: strings, format: .binary, options: 0)),
            [UInt8](try BundleFixtures.data(info, format: .xml)),
            [UInt8](try PropertyListSerialization.data(fromPropertyList: strings, format: .xml, options: 0)),
        ]
        var outcomes = [0, 0]
        for round in 0..<20_000 {
            // Three binary rounds to each XML round: XML goes through Foundation and is slower.
            let seed = round % 4 == 3 ? 2 + round / 4 % 2 : round % 2
            let bytes = Data(Self.mutate(seeds[seed], using: &generator))
            let parsed = seed % 2 == 0
                ? (try? BundleManifest.parse(infoPlist: bytes)) != nil : (try? StringsTable.parse(bytes)) != nil
            outcomes[parsed ? 0 : 1] += 1
        }
        // Both outcomes happen, so the loop exercises the readers rather than only the gate.
        #expect(outcomes[0] > 100 && outcomes[1] > 100, "parsed, refused: \(outcomes)")
    }

    private static func mutate(_ seed: [UInt8], using generator: inout SeededGenerator) -> [UInt8] {
        var bytes = seed
        for _ in 0..<Int.random(in: 1...4, using: &generator) {
            guard !bytes.isEmpty else { break }
            let index = Int.random(in: 0..<bytes.count, using: &generator)
            switch Int.random(in: 0..<10, using: &generator) {
            case 0:
                bytes.removeSubrange(index...)
            case 1:
                let end = min(bytes.count, index + Int.random(in: 1...16, using: &generator))
                bytes.insert(contentsOf: bytes[index..<end], at: index)
            case 2:
                // A trailer or offset-table byte set to an edge value.
                let tail = max(0, bytes.count - Int.random(in: 1...48, using: &generator))
                bytes[tail] = [0, 1, 2, 8, 9, 0x7F, 0x80, 0xFF].randomElement(using: &generator) ?? 0
            case 3:
                // A marker byte turned into another type's, a set's or a UID's.
                bytes[index] = [0x0F, 0x14, 0x33, 0x5F, 0x6F, 0x80, 0xAF, 0xC1, 0xDF, 0xD1].randomElement(using: &generator) ?? 0
            default:
                bytes[index] = UInt8.random(in: 0...255, using: &generator)
            }
        }
        return bytes
    }
}
