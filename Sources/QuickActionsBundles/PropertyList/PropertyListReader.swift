import Foundation

/// Reads property lists from untrusted files (`Info.plist`, `InfoPlist.strings`) without ever
/// crashing the process.
///
/// Binary property lists (starting with `bplist`) go to `BinaryPropertyList`, never to Foundation,
/// whose binary reader on Linux crashes on some inputs (any set object; some corrupted files).
/// XML property lists (starting, after an optional UTF-8 byte-order mark and white space, with
/// `<?xml`, `<plist` or `<!DOCTYPE`) go to `XMLPropertyList`, about twenty times cheaper than
/// Foundation's reader and its bridging; only one declaring another encoding than UTF-8 goes to
/// Foundation's XML reader, whose result is checked by `FoundationPropertyList`. Anything else
/// is not a property list.
enum PropertyListReader {
    /// The formats `format(of:)` tells apart by their first bytes.
    enum Format: Equatable {
        case binary
        case xml
        case unknown
    }

    /// The format the first bytes of `bytes` announce.
    static func format(of bytes: some Collection<UInt8>) -> Format {
        if bytes.starts(with: "bplist".utf8) { return .binary }
        var rest = bytes[...]
        if rest.starts(with: [0xEF, 0xBB, 0xBF]) { rest = rest.dropFirst(3) }
        let text = rest.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        for start in ["<?xml", "<plist", "<!DOCTYPE"] where text.starts(with: start.utf8) {
            return .xml
        }
        return .unknown
    }

    /// Reads a binary or XML property list.
    /// - Returns: the top-level value, typed as `PropertyListSerialization` types it on Linux.
    /// - Throws: `PropertyListError` naming the fault (and its offset in a binary file).
    static func read(_ data: Data) throws(PropertyListError) -> Any {
        switch format(of: data) {
        case .binary:
            return try BinaryPropertyList.decode([UInt8](data))
        case .xml:
            if let value = try XMLPropertyList.decode([UInt8](data)) { return value }
            return try foundation(data, expecting: .xml)
        case .unknown:
            throw PropertyListError(offset: 0, "neither a binary (bplist00) nor an XML property list")
        }
    }

    /// Reads an old-style (OpenStep, `{ key = value; }`) property list with Foundation's text
    /// parser, which understands no binary and makes no sets; its result is checked like XML's.
    static func readOldStyle(_ data: Data) throws(PropertyListError) -> Any {
        guard format(of: data) == .unknown else {
            throw PropertyListError(offset: 0, "a binary or XML property list is not an old-style one")
        }
        return try foundation(data, expecting: .openStep)
    }

    /// Foundation's reading of a text property list, refused unless it is in `expected` format.
    private static func foundation(
        _ data: Data, expecting expected: PropertyListSerialization.PropertyListFormat
    ) throws(PropertyListError) -> Any {
        var found = PropertyListSerialization.PropertyListFormat.binary
        let object: Any
        do {
            object = try PropertyListSerialization.propertyList(from: data, options: [], format: &found)
        } catch {
            throw PropertyListError(reason(error))
        }
        guard found == expected else {
            throw PropertyListError("Foundation read it as a \(name(found)) property list, not \(name(expected))")
        }
        return try FoundationPropertyList.checked(object)
    }

    private static func name(_ format: PropertyListSerialization.PropertyListFormat) -> String {
        switch format {
        case .xml: return "an XML"
        case .binary: return "a binary"
        case .openStep: return "an old-style"
        @unknown default: return "an unknown"
        }
    }

    /// Foundation's description of a property-list error, in one line.
    private static func reason(_ error: any Error) -> String {
        let nsError = error as NSError
        let text = (nsError.userInfo["NSDebugDescription"] as? String) ?? nsError.localizedDescription
        return text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }
}
