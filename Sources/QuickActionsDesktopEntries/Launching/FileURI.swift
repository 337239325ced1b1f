/// `file://` URIs and local paths (RFC 8089 as GLib's `g_filename_from_uri` reads it): an
/// empty or `localhost` authority, an absolute path, `%XX` escapes decoded; no query or
/// fragment.
public enum FileURI {
    /// The local path `uri` names; nil when it is not a local `file://` URI, escapes a `/` or a
    /// NUL, or decodes to something that is not UTF-8.
    public static func path(of uri: String) -> String? {
        let scheme = "file://"
        guard uri.count > scheme.count, uri.lowercased().hasPrefix(scheme) else { return nil }
        var rest = Substring(uri.dropFirst(scheme.count))
        guard let slash = rest.firstIndex(of: "/") else { return nil }
        let authority = rest[..<slash].lowercased()
        guard authority.isEmpty || authority == "localhost" else { return nil }
        rest = rest[slash...]
        guard !rest.contains("?"), !rest.contains("#") else { return nil }
        var bytes: [UInt8] = []
        var utf8 = Array(rest.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%") {
                guard utf8.count >= 2, let high = hexValue(utf8[utf8.startIndex]), let low = hexValue(utf8[utf8.startIndex + 1]) else {
                    return nil
                }
                utf8.removeFirst(2)
                let decoded = high << 4 | low
                guard decoded != 0, decoded != UInt8(ascii: "/") else { return nil }
                bytes.append(decoded)
            } else {
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// A `file://` URI for absolute `path`, escaping all but unreserved characters and `/`
    /// (as `g_filename_to_uri` does, near enough for every reader).
    public static func uri(ofPath path: String) -> String {
        var result = "file://"
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                result += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return result
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
