import Foundation
import Testing
@testable import QuickActionsBundles
@testable import QuickActionsModel

@Suite struct BinaryPropertyListTests {
    /// Every value type Foundation's binary writer produces, in the shapes that pick each
    /// encoding (short and length-follows counts, ASCII and UTF-16, 1- to 16-byte integers).
    static let roundTrips: [(String, any Sendable)] = [
        ("ASCII string", "CFBundleIdentifier"),
        ("empty string", ""),
        ("long string (length follows)", String(repeating: "abc", count: 100)),
        ("UTF-16 string with a surrogate pair", "Grüße 😀 \u{0}"),
        ("true", true),
        ("false", false),
        ("integer 0", 0),
        ("integer 1", 1),
        ("1-byte integer", 200),
        ("2-byte integer", 40_000),
        ("4-byte integer", 3_000_000_000),
        ("negative integer (8 bytes)", -7),
        ("Int64.min", Int64.min),
        ("Int64.max", Int64.max),
        ("UInt64.max (16 bytes)", UInt64.max),
        ("double", 2.5),
        ("whole double", 2.0),
        ("float (4 bytes)", Float(1.5)),
        ("date", Date(timeIntervalSince1970: 1_700_000_000.25)),
        ("empty data", Data()),
        ("data (length follows)", Data((0..<300).map { UInt8(truncatingIfNeeded: $0) })),
        ("array of mixed values", [1, "two", [3.5], ["k": false]] as [any Sendable]),
        ("empty array", [Int]()),
        ("array with 2-byte references", (0..<600).map { "item \($0)" }),
        ("nested dictionary", ["a": ["b": ["c": "d"]], "e": [String: Int]()] as [String: any Sendable]),
        ("offsets past 64 KiB (4-byte offsets)", [Data(count: 70_000), "after", 12] as [any Sendable]),
    ]

    @Test(arguments: roundTrips)
    func decodesWhatFoundationWrites(_ name: String, _ value: any Sendable) throws {
        let data = try PropertyListSerialization.data(fromPropertyList: ["v": value], format: .binary, options: 0)
        let expected = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        let decoded = try BinaryPropertyList.decode([UInt8](data))
        #expect(Self.shape(decoded) == Self.shape(expected), "\(name)")
        #expect(decoded is [String: Any], "\(name): the top level is \(type(of: decoded))")
    }

    /// Booleans stay `Bool` and numbers `NSNumber` of the codes `PropertyListUserInfo` tells apart.
    @Test func scalarTypesMatchWhatTheModelExpects() throws {
        let plist: [String: Any] = ["t": true, "i": 5, "one": 1, "big": UInt64.max, "d": 2.0, "f": Float(0.5)]
        let data = try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
        let decoded = try #require(try BinaryPropertyList.decode([UInt8](data)) as? [String: Any])
        #expect(type(of: decoded["t"] ?? 0) == Bool.self)
        #expect(Self.shape(decoded["i"] ?? ()) == "signed(5)")
        #expect(Self.shape(decoded["one"] ?? ()) == "signed(1)")
        #expect((decoded["big"] as? NSNumber).map { String(cString: $0.objCType) } == "Q")
        #expect((decoded["d"] as? NSNumber).map { String(cString: $0.objCType) } == "d")
        #expect((decoded["f"] as? NSNumber).map { String(cString: $0.objCType) } == "f")
    }

    @Test func sharedObjectsAndBothReferenceSizesDecode() throws {
        // One string object used as two keys' values, and 2-byte references and offsets.
        var builder = BinaryPlistBuilder(objects: [
            BinaryPlistBuilder.dict([1, 2], [3, 3], refSize: 2),
            BinaryPlistBuilder.ascii("a"), BinaryPlistBuilder.ascii("b"), BinaryPlistBuilder.ascii("shared"),
        ])
        builder.refSize = 2
        builder.offsetSize = 2
        let decoded = try BinaryPropertyList.decode(builder.bytes())
        #expect(decoded as? [String: String] == ["a": "shared", "b": "shared"])
    }

    /// A type-exact description: `PropertyListUserInfo` tells booleans, signed and unsigned
    /// integers, floats and doubles apart, so these must match Foundation's.
    static func shape(_ value: Any) -> String {
        if type(of: value) == Bool.self { return "bool(\(value))" }
        switch value {
        case let string as String: return "string(\(string.debugDescription))"
        case let data as Data: return "data(\(Array(data)))"
        case let date as Date: return "date(\(date.timeIntervalSinceReferenceDate))"
        case let array as [Any]: return "[" + array.map(shape).joined(separator: ", ") + "]"
        case let dictionary as [String: Any]:
            return "{" + dictionary.keys.sorted().map { "\($0.debugDescription): \(shape(dictionary[$0] ?? ()))" }
                .joined(separator: ", ") + "}"
        case let number as NSNumber:
            switch String(cString: number.objCType) {
            case "c", "B": return "bool(\(number.boolValue))"
            case "f": return "float(\(number.floatValue))"
            case "d": return "double(\(number.doubleValue))"
            case "Q", "L", "I", "S", "C": return "unsigned(\(number.uint64Value))"
            default: return "signed(\(number.int64Value))"
            }
        default: return "unexpected \(type(of: value))"
        }
    }
}
