/// A unique connection name, assigned by the bus to each connection (":1.42").
///
/// Rules (D-Bus specification, "Bus names"): begins with ":"; at most 255 bytes;
/// after the ":", two or more non-empty elements separated by "."; elements
/// contain only `[A-Za-z0-9_-]` and may begin with a digit.
public struct UniqueName: DBusName {
    /// The name as sent on the bus.
    public let rawValue: String

    /// Validates `string` as a unique connection name.
    public init(_ string: String) throws(DBusNameError) {
        try NameRules.checkUniqueName(string, kind: .uniqueName)
        rawValue = string
    }

    /// Wraps a string known to be a valid unique name (e.g. one libdbus has validated).
    init(unchecked string: String) {
        rawValue = string
    }

    /// This name as a ``BusName``.
    public var busName: BusName { BusName(self) }
}
