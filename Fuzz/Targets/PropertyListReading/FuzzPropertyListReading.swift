// libFuzzer target: the XML property-list reader, `XMLPropertyList.decode(_:)`, on its own
// (the `bundle` target reaches it only behind `BundleManifest.parse`, whose checks refuse most
// mutations before their values would matter).
//
// Built by Fuzz/run.sh together with every source of QuickActionsModel and QuickActionsBundles
// into one binary. Properties checked:
//
// 1. It returns a value, nil (another encoding declared: Foundation's to read) or throws
//    `PropertyListError`; it never crashes, hangs or leaks.
// 2. A refusal's message is bounded: it names a prefix of the value at fault, never all of it.
// 3. `PropertyListReader.read(_:)`, the path bundles take, gives the same values.
// 4. An accepted value is made of property-list types only: Foundation's XML writer writes it,
//    and our reader reads that back to the same values (a round trip through an independent
//    writer).
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPropertyListReading(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = start.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    let decoded: Any?
    do {
        decoded = try XMLPropertyList.decode(bytes)
    } catch {
        // Offset, a reason of a few hundred characters at most: the limit on names and paths.
        if error.description.count > 600 {
            FuzzFailure.report("a refusal's message is \(error.description.count) characters long: "
                + "\(error.description.prefix(200))…", input: bytes)
        }
        FuzzSeedCheck.rejected("XMLPropertyList.decode refuses the input: \(error)")
        return 0
    }
    guard let value = decoded else {
        FuzzSeedCheck.rejected("XMLPropertyList.decode sends the input to Foundation (another encoding)")
        return 0
    }
    let text = PlistCanonical.text(value)
    if PropertyListReader.format(of: bytes) == .xml {
        do {
            let again = try PropertyListReader.read(Data(bytes))
            if PlistCanonical.text(again) != text {
                FuzzFailure.report("PropertyListReader.read gives other values than XMLPropertyList.decode", input: bytes)
            }
        } catch {
            FuzzFailure.report("PropertyListReader.read refuses what XMLPropertyList.decode accepts: \(error)",
                               input: bytes)
        }
    }
    let written: Data
    do {
        written = try PropertyListSerialization.data(fromPropertyList: value, format: .xml, options: 0)
    } catch {
        FuzzFailure.report("Foundation cannot write the accepted value: \(error)", input: bytes)
    }
    do {
        guard let back = try XMLPropertyList.decode([UInt8](written)) else {
            FuzzFailure.report("what Foundation wrote goes to Foundation", input: bytes)
        }
        if PlistCanonical.text(back) != text {
            FuzzFailure.report("the value written by Foundation reads back differently: "
                + "\(PlistCanonical.text(back).prefix(120)) against \(text.prefix(120))", input: bytes)
        }
    } catch {
        FuzzFailure.report("what Foundation wrote of an accepted value is refused: \(error)", input: bytes)
    }
    return 0
}

/// A property-list value as text that tells every type apart, dictionaries in key order (as
/// XMLPropertyListTests.canonical does); NaN reals all read alike.
enum PlistCanonical {
    static func text(_ value: Any) -> String {
        if type(of: value) == Bool.self { return "bool(\(value))" }
        switch value {
        case let string as String: return "string(\(Array(string.unicodeScalars.map(\.value))))"
        case let data as Data: return "data(\(Array(data)))"
        case let date as Date: return "date(\(date.timeIntervalSinceReferenceDate))"
        case let array as [Any]: return "[" + array.map(text).joined(separator: ", ") + "]"
        case let dictionary as [String: Any]:
            return "{" + dictionary.keys.sorted().map { "\(text($0)): \(text(dictionary[$0] as Any))" }
                .joined(separator: ", ") + "}"
        case let number as NSNumber:
            let kind = String(cString: number.objCType)
            if kind == "d" || kind == "f" {
                return number.doubleValue.isNaN ? "real(nan)" : "real(\(number.doubleValue.bitPattern))"
            }
            return "integer(\(number.int64Value))"
        default: return "other(\(type(of: value)))"
        }
    }
}
