// libFuzzer target: the dynamic-item store's file format (`DynamicItemCoder`).
//
// Built by Fuzz/run.sh together with every source of QuickActionsModel and QuickActionsBundles
// into one binary, so internal API (`CRC32`) is visible. Properties checked on every input:
//
// 1. `decode` returns items or throws `StoreFormatError`; it never crashes, hangs or leaks.
// 2. Anything `decode` accepts in the current format version re-encodes to exactly the bytes it
//    came from: the format is canonical ("decode accepts only what encode can write"), so
//    nothing is lost, reordered or merged on the way through, and doubles keep their bit
//    patterns. A file of an older version (1, without ids) re-encodes in the current one, and
//    that file decodes and re-encodes to itself (bytes, not items, are compared: a NaN is not
//    equal to itself).
// 3. The same input with its CRC-32 recomputed is decoded too, with the same property: without
//    that, almost every mutation dies at the checksum and the fuzzer never reaches the item
//    and value readers.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzItemStore(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = start.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    checkRoundTrip(bytes)
    if bytes.count >= 4 {
        var fixed = bytes
        let crc = CRC32.checksum(fixed[..<(fixed.count - 4)])
        fixed.replaceSubrange((fixed.count - 4)..., with: withUnsafeBytes(of: crc.bigEndian, Array.init))
        if fixed != bytes { checkRoundTrip(fixed) }
    }
    return 0
}

/// Decodes `bytes`; when that succeeds, encoding the items must give `bytes` back.
private func checkRoundTrip(_ bytes: [UInt8]) {
    let items: [ShortcutItem]
    do {
        items = try DynamicItemCoder.decode(bytes)
    } catch {
        // Every error must describe itself; building the text runs the formatting code too.
        _ = error.description
        FuzzSeedCheck.rejected("DynamicItemCoder.decode: \(error)")
        return
    }
    let encoded: [UInt8]
    do {
        encoded = try DynamicItemCoder.encode(items)
    } catch {
        FuzzFailure.report("decode accepted \(items.count) items that encode refuses: \(error)", input: bytes)
    }
    if bytes.count >= 6, UInt16(bytes[4]) << 8 | UInt16(bytes[5]) != DynamicItemCoder.formatVersion {
        let again: [UInt8]
        do {
            again = try DynamicItemCoder.encode(try DynamicItemCoder.decode(encoded))
        } catch {
            FuzzFailure.report("an older file re-encoded does not decode and encode again: \(error)", input: bytes)
        }
        if again != encoded {
            FuzzFailure.report("an older file re-encoded changes when decoded and encoded again", input: bytes)
        }
        return
    }
    if encoded != bytes {
        FuzzFailure.report(
            "decode → encode changed the file: \(bytes.count) bytes in, \(encoded.count) out,"
                + " first difference at byte \(firstDifference(bytes, encoded))",
            input: bytes)
    }
}

private func firstDifference(_ a: [UInt8], _ b: [UInt8]) -> Int {
    zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(a.count, b.count)
}
