// libFuzzer target: bundle reading, `BundleManifest.parse(infoPlist:path:)` and
// `StringsTable.parse(_:)`.
//
// Built by Fuzz/run.sh together with every source of QuickActionsModel and QuickActionsBundles
// into one binary. Every input goes to both parsers (each refuses the other's files at once).
// Properties checked:
//
// 1. Both return a value or throw their typed error; they never crash, hang or leak.
// 2. An accepted manifest keeps the promises its type makes: a valid app id, an executable that
//    is a plain file name, and items that pass `ItemLimits`.
// 3. An accepted strings table, written back out in the text format (UTF-8, and UTF-16 with a
//    BOM), parses to the same table: the escapes and encodings round-trip.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBundleReading(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = start.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    let data = Data(bytes)
    let manifestAccepted = checkManifest(data, input: bytes)
    let stringsAccepted = checkStrings(data, input: bytes)
    if !manifestAccepted && !stringsAccepted {
        FuzzSeedCheck.rejected("neither BundleManifest.parse nor StringsTable.parse accepts the input")
    }
    return 0
}

/// Parses `data` as an Info.plist; true when it was accepted.
private func checkManifest(_ data: Data, input: [UInt8]) -> Bool {
    let parsed: (manifest: BundleManifest, diagnostics: [Diagnostic])
    do {
        parsed = try BundleManifest.parse(infoPlist: data, path: "/fuzz/Info.plist")
    } catch {
        _ = error.description
        return false
    }
    let manifest = parsed.manifest
    do {
        _ = try AppID(manifest.appID.rawValue)
    } catch {
        FuzzFailure.report("accepted app id \(manifest.appID.rawValue.debugDescription) is invalid: \(error)", input: input)
    }
    let executable = manifest.executable
    if executable.isEmpty || executable == "." || executable == ".." || executable.contains("/")
        || executable.unicodeScalars.contains("\0")
    {
        FuzzFailure.report("accepted executable \(executable.debugDescription) is not a plain file name", input: input)
    }
    for (index, item) in manifest.items.enumerated() {
        do {
            try ItemLimits.validate(item, index: index)
        } catch {
            FuzzFailure.report("accepted static item \(index) breaks a limit: \(error)", input: input)
        }
    }
    for diagnostic in parsed.diagnostics where diagnostic.file != "/fuzz/Info.plist" {
        FuzzFailure.report("a diagnostic names \(diagnostic.file), not the manifest's path", input: input)
    }
    return true
}

/// Parses `data` as a strings table; true when it was accepted.
private func checkStrings(_ data: Data, input: [UInt8]) -> Bool {
    let table: StringsTable
    do {
        table = try StringsTable.parse(data)
    } catch {
        _ = error.description
        return false
    }
    let text = StringsTextWriter.text(of: table)
    var utf16 = Data([0xFF, 0xFE])
    for unit in text.utf16 {
        utf16.append(contentsOf: [UInt8(truncatingIfNeeded: unit), UInt8(truncatingIfNeeded: unit >> 8)])
    }
    for (encoding, encoded) in [("UTF-8", Data(text.utf8)), ("UTF-16LE", utf16)] {
        let again: StringsTable
        do {
            again = try StringsTable.parse(encoded)
        } catch {
            FuzzFailure.report("the table written back as \(encoding) text does not parse: \(error)", input: input)
        }
        if again != table {
            FuzzFailure.report(
                "the table written back as \(encoding) text parses to a different table"
                    + " (\(table.entries.count) entries in, \(again.entries.count) out)",
                input: input)
        }
    }
    return true
}

/// Writes a table in the `.strings` text format, escaping what the parser must see escaped:
/// quotes, backslashes and control characters (a raw NUL would also make UTF-8 text look like
/// UTF-16 to the encoding sniffer).
enum StringsTextWriter {
    static func text(of table: StringsTable) -> String {
        var text = "/* written back by the fuzz target */\n"
        for key in table.entries.keys.sorted() {
            guard let value = table.entries[key] else { continue }
            text += "\(quoted(key)) = \(quoted(value));\n"
        }
        return text
    }

    private static func quoted(_ string: String) -> String {
        var result = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F || scalar == "\u{FEFF}":
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\U" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
