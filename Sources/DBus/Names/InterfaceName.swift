/// An interface name ("org.freedesktop.DBus.Properties").
///
/// Rules (D-Bus specification, "Interface names"): at most 255 bytes; two or more
/// non-empty elements separated by "."; elements contain only `[A-Za-z0-9_]` and
/// do not begin with a digit; no "-" (unlike bus names).
public struct InterfaceName: DBusName {
    /// The name as sent on the bus.
    public let rawValue: String

    /// Validates `string` as an interface name.
    public init(_ string: String) throws(DBusNameError) {
        try NameRules.checkInterfaceRules(string, kind: .interfaceName)
        rawValue = string
    }

    /// Wraps a string known to be a valid interface name (e.g. one libdbus has validated).
    init(unchecked string: String) {
        rawValue = string
    }
}
