import Glibc

/// Local `file://` URIs as GLib's `g_filename_from_uri` reads them: no host or `localhost`,
/// an absolute path, percent-escapes decoded; no NUL; UTF-8 (a name that is not is skipped,
/// since titles and the bus need text).
public enum FileURI {
    /// The path of a local `file://` URI, or nil for any other URI.
    public static func path(of uri: String) -> String? {
        var utf8 = Substring(uri).utf8[...]
        let scheme = "file://".utf8
        guard utf8.count > scheme.count,
              utf8.prefix(scheme.count).elementsEqual(scheme, by: { lowercased($0) == $1 })
        else { return nil }
        utf8 = utf8.dropFirst(scheme.count)
        guard let slash = utf8.firstIndex(of: UInt8(ascii: "/")) else { return nil }
        let host = utf8[utf8.startIndex..<slash]
        guard host.isEmpty || host.elementsEqual("localhost".utf8, by: { lowercased($0) == $1 }) else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var index = slash
        while index < utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "#") || byte == UInt8(ascii: "?") { return nil }
            if byte == UInt8(ascii: "%") {
                let first = utf8.index(after: index)
                guard first < utf8.endIndex else { return nil }
                let second = utf8.index(after: first)
                guard second < utf8.endIndex, let high = hex(utf8[first]), let low = hex(utf8[second]) else { return nil }
                let decoded = high << 4 | low
                // An escaped NUL or slash would change which file is meant.
                guard decoded != 0, decoded != UInt8(ascii: "/") else { return nil }
                bytes.append(decoded)
                index = utf8.index(after: second)
            } else {
                bytes.append(byte)
                index = utf8.index(after: index)
            }
        }
        let path = String(decoding: bytes, as: UTF8.self)
        guard path.utf8.elementsEqual(bytes) else { return nil }
        return path
    }

    /// Whether the file exists (`stat`, following symbolic links).
    public static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
    }

    private static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
