import CDBus
import Glibc

/// An error with a D-Bus error name and a message that says what was wrong
/// with which value.
///
/// It is what a method handler throws to send an error reply, what a call
/// throws when the peer answered with an error, and what the binding throws
/// for local failures (those carry the matching `org.freedesktop.DBus.Error.*`
/// name, as libdbus itself does).
public struct DBusError: Error, Sendable, Hashable, CustomStringConvertible {
    public let name: ErrorName
    public let message: String

    public init(_ name: ErrorName, _ message: String) {
        self.name = name
        self.message = message
    }

    public var description: String { "\(name.rawValue): \(message)" }
}

extension ErrorName {
    public static let failed = ErrorName(unchecked: "org.freedesktop.DBus.Error.Failed")
    public static let noMemory = ErrorName(unchecked: "org.freedesktop.DBus.Error.NoMemory")
    public static let noReply = ErrorName(unchecked: "org.freedesktop.DBus.Error.NoReply")
    public static let timeout = ErrorName(unchecked: "org.freedesktop.DBus.Error.Timeout")
    public static let disconnected = ErrorName(unchecked: "org.freedesktop.DBus.Error.Disconnected")
    public static let invalidArgs = ErrorName(unchecked: "org.freedesktop.DBus.Error.InvalidArgs")
    public static let invalidSignature = ErrorName(unchecked: "org.freedesktop.DBus.Error.InvalidSignature")
    public static let unknownObject = ErrorName(unchecked: "org.freedesktop.DBus.Error.UnknownObject")
    public static let unknownInterface = ErrorName(unchecked: "org.freedesktop.DBus.Error.UnknownInterface")
    public static let unknownMethod = ErrorName(unchecked: "org.freedesktop.DBus.Error.UnknownMethod")
    public static let unknownProperty = ErrorName(unchecked: "org.freedesktop.DBus.Error.UnknownProperty")
    public static let propertyReadOnly = ErrorName(unchecked: "org.freedesktop.DBus.Error.PropertyReadOnly")
    public static let limitsExceeded = ErrorName(unchecked: "org.freedesktop.DBus.Error.LimitsExceeded")
    public static let accessDenied = ErrorName(unchecked: "org.freedesktop.DBus.Error.AccessDenied")
    public static let serviceUnknown = ErrorName(unchecked: "org.freedesktop.DBus.Error.ServiceUnknown")
    public static let nameHasNoOwner = ErrorName(unchecked: "org.freedesktop.DBus.Error.NameHasNoOwner")
    public static let notSupported = ErrorName(unchecked: "org.freedesktop.DBus.Error.NotSupported")
    public static let ioError = ErrorName(unchecked: "org.freedesktop.DBus.Error.IOError")
}

extension DBusError {
    public static func invalidArgs(_ message: String) -> DBusError { DBusError(.invalidArgs, message) }
    public static func failed(_ message: String) -> DBusError { DBusError(.failed, message) }

    static func noMemory(_ doing: String) -> DBusError {
        DBusError(.noMemory, "out of memory while \(doing)")
    }

    static func system(_ function: String, errno code: Int32) -> DBusError {
        DBusError(.ioError, "\(function) failed: \(String(cString: strerror(code)))")
    }
}

/// Runs a libdbus call that reports failure through a `DBusError*`, and turns
/// that C error into a thrown Swift error (as swift-system's `valueOrErrno`).
/// `body` returns false when the C call failed.
func withCError<T>(_ body: (UnsafeMutablePointer<CDBus.DBusError>) -> T?) throws(DBusError) -> T {
    var error = CDBus.DBusError()
    dbus_error_init(&error)
    defer { dbus_error_free(&error) }
    if let value = body(&error), dbus_error_is_set(&error) == 0 {
        return value
    }
    throw DBusError(cError: error)
}

extension DBusError {
    /// Copies a libdbus error at once (its strings are borrowed).
    init(cError: CDBus.DBusError) {
        let name = cError.name.map { String(cString: $0) } ?? "org.freedesktop.DBus.Error.Failed"
        let message = cError.message.map { String(cString: $0) } ?? "libdbus reported an error without a message"
        self.init((try? ErrorName(name)) ?? .failed, message)
    }
}
