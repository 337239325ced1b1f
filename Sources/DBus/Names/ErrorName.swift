/// An error name ("org.freedesktop.DBus.Error.InvalidArgs").
///
/// Rules (D-Bus specification, "Error names"): the same as interface names: at most
/// 255 bytes; two or more non-empty elements separated by "."; elements contain only
/// `[A-Za-z0-9_]` and do not begin with a digit.
public struct ErrorName: DBusName {
    /// The name as sent on the bus.
    public let rawValue: String

    /// Validates `string` as an error name.
    public init(_ string: String) throws(DBusNameError) {
        try NameRules.checkInterfaceRules(string, kind: .errorName)
        rawValue = string
    }

    /// Wraps a string known to be a valid error name (e.g. one libdbus has validated).
    init(unchecked string: String) {
        rawValue = string
    }
}
