/// The D-Bus specification's size and nesting limits, in one place.
public enum DBusLimits {
    /// Longest bus, interface, member or error name, in bytes.
    public static let maximumNameLength = 255
    /// Longest signature, in bytes.
    public static let maximumSignatureLength = 255
    /// Deepest nesting of arrays ("a" type codes).
    public static let maximumArrayNesting = 32
    /// Deepest nesting of structs and dict entries.
    public static let maximumStructureNesting = 32
    /// Deepest nesting of containers of every kind in a message body, variants included
    /// (libdbus rejects a body whose values nest deeper: `DBUS_INVALID_NESTED_TOO_DEEPLY`).
    public static let maximumTotalNesting = 64
    /// Longest array, in bytes of marshalled elements (2^26, 64 MiB).
    public static let maximumArrayLength = 64 * 1024 * 1024
    /// Longest message, header and body included, in bytes (2^27, 128 MiB).
    public static let maximumMessageSize = 128 * 1024 * 1024
}
