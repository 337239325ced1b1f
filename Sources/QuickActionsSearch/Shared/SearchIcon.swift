import DBus

/// An icon as the broker lists it (a freedesktop icon name, or an absolute path to a file in
/// the app's bundle), in the forms the desktop shells take.
public enum SearchIcon {
    /// The icon for an entry: its own, else its app's; nil when neither has one.
    public static func name(for entry: SearchEntry) -> String? {
        if let icon = entry.icon, !icon.isEmpty { return icon }
        return entry.appIcon.isEmpty ? nil : entry.appIcon
    }

    /// A serialised GIcon (`g_icon_serialize`'s `(sv)`): `('themed', <['name']>)` for an
    /// icon name, `('file', <'file:///path'>)` for a file; `Gio.Icon.deserialize` reads both.
    public static func serializedGIcon(_ icon: String) -> Value {
        if icon.hasPrefix("/") {
            return .structure([.string("file"), .variant(.string(fileURI(icon)))])
        }
        return .structure([.string("themed"), .variant(.array(.string, [.string(icon)]))])
    }

    /// `file://` and the path, percent-encoded except for unreserved characters and "/".
    static func fileURI(_ path: String) -> String {
        var text = "file://"
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"), UInt8(ascii: "/"):
                text.unicodeScalars.append(UnicodeScalar(byte))
            default:
                let hex = Array("0123456789ABCDEF")
                text += "%\(hex[Int(byte >> 4)])\(hex[Int(byte & 0xF)])"
            }
        }
        return text
    }
}
