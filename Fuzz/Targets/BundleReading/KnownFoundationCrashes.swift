// Inputs that crash swift-corelibs-foundation itself, skipped so that the fuzzer can keep
// looking for other problems. Each entry is a known, reported bug; FUZZING.md lists them.
// Set QA_FUZZ_NO_WORKAROUNDS=1 to fuzz without skipping (for example to check a fix).
//
// Delete an entry once the library code guards against it: then the fuzzer checks the guard.
#if canImport(Glibc)
import Glibc
#endif

enum KnownFoundationCrashes {
    static let disabled: Bool = getenv("QA_FUZZ_NO_WORKAROUNDS").map { String(cString: $0) == "1" } ?? false

    /// True when `bytes` would crash `PropertyListSerialization.propertyList(from:)` for a
    /// reason reported upstream.
    static func matches(_ bytes: [UInt8]) -> Bool {
        !disabled && BinaryPropertyList.containsSet(bytes)
    }
}

/// Just enough of the binary property-list format ("bplist00") to find set objects.
///
/// Foundation on Linux (Swift 6.3.1) dies with SIGSEGV in `swift_conformsToProtocol…`, while
/// bridging the NSSet to `Set<AnyHashable>`, on any binary property list holding a non-empty set
/// (object marker 0xC1…0xCF), e.g. these 46 bytes:
///
///     62706c6973743030c1015161080a0000000000000101
///     00000000000000020000000000000000000000000000000c
///
/// Property lists have no set type (Apple documents arrays, dictionaries, strings, data, dates,
/// numbers and booleans); Info.plist and .strings files never contain one. The same check,
/// placed before `PropertyListSerialization` in QuickActionsModel, would make the parsers
/// refuse such a file with an error instead of crashing the broker.
enum BinaryPropertyList {
    /// True when `bytes` is a binary property list whose object table holds a set of any size.
    /// Any input that is not readable as one (bad trailer, offsets out of bounds) gives false:
    /// Foundation refuses those itself.
    static func containsSet(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 8 + 32, bytes.starts(with: Array("bplist0".utf8)) else { return false }
        let trailer = bytes.count - 32
        let offsetSize = Int(bytes[trailer + 6])
        guard (1...8).contains(offsetSize) else { return false }
        let objectCount = bigEndian(bytes[(trailer + 8)..<(trailer + 16)])
        let tableOffset = bigEndian(bytes[(trailer + 24)..<(trailer + 32)])
        guard tableOffset >= 8, tableOffset < UInt64(trailer) else { return false }
        let table = Int(tableOffset)
        let entries = min(objectCount, UInt64((trailer - table) / offsetSize))
        for index in 0..<Int(entries) {
            let start = table + index * offsetSize
            let offset = bigEndian(bytes[start..<(start + offsetSize)])
            guard offset >= 8, offset < UInt64(trailer) else { continue }
            if bytes[Int(offset)] >> 4 == 0xC { return true }
        }
        return false
    }

    private static func bigEndian(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.reduce(0) { $0 << 8 | UInt64($1) }
    }
}
