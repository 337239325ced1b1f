import CDBus

/// One D-Bus message. Owns a `DBusMessage*` reference.
///
/// A message is built (header, then `append`) by one thread and only read
/// after that; reads copy every string out of libdbus at once.
public final class Message: @unchecked Sendable {
    // @unchecked Sendable: libdbus reference counts atomically, and a message
    // is only mutated by its builder before it is handed to anyone else.

    public enum Kind: Sendable, Equatable {
        case methodCall, methodReturn, error, signal, unknown
    }

    let raw: OpaquePointer

    /// Takes over a reference the caller owns.
    init(owning raw: OpaquePointer) {
        self.raw = raw
    }

    /// Adds a reference of our own (`dbus_message_ref`).
    init(retaining raw: OpaquePointer) {
        self.raw = dbus_message_ref(raw)
    }

    deinit {
        dbus_message_unref(raw)
    }

    // MARK: Building

    /// A method call (`dbus_message_new_method_call`).
    public static func methodCall(
        destination: BusName?, path: ObjectPath, interface: InterfaceName?, member: MemberName
    ) throws(DBusError) -> Message {
        let raw = destination?.rawValue.withCString { destination in
            path.rawValue.withCString { path in
                member.rawValue.withCString { member in
                    newCall(destination, path, interface, member)
                }
            }
        } ?? path.rawValue.withCString { path in
            member.rawValue.withCString { member in
                newCall(nil, path, interface, member)
            }
        }
        guard let raw else { throw DBusError.noMemory("creating a method call") }
        return Message(owning: raw)
    }

    private static func newCall(
        _ destination: UnsafePointer<CChar>?, _ path: UnsafePointer<CChar>,
        _ interface: InterfaceName?, _ member: UnsafePointer<CChar>
    ) -> OpaquePointer? {
        guard let interface else {
            return dbus_message_new_method_call(destination, path, nil, member)
        }
        return interface.rawValue.withCString { dbus_message_new_method_call(destination, path, $0, member) }
    }

    /// A signal (`dbus_message_new_signal`).
    public static func signal(path: ObjectPath, interface: InterfaceName, member: MemberName) throws(DBusError) -> Message {
        let raw = path.rawValue.withCString { path in
            interface.rawValue.withCString { interface in
                member.rawValue.withCString { member in
                    dbus_message_new_signal(path, interface, member)
                }
            }
        }
        guard let raw else { throw DBusError.noMemory("creating a signal") }
        return Message(owning: raw)
    }

    /// The reply to this method call (`dbus_message_new_method_return`).
    public func makeReturn() throws(DBusError) -> Message {
        guard let reply = dbus_message_new_method_return(raw) else {
            throw DBusError.noMemory("creating a method return")
        }
        return Message(owning: reply)
    }

    /// An error reply to this method call (`dbus_message_new_error`).
    public func makeError(_ error: DBusError) throws(DBusError) -> Message {
        // libdbus aborts on a message that is not valid UTF-8 or holds a NUL;
        // a Swift String is valid UTF-8, so only NULs need replacing.
        let text = error.message.containsNUL ? error.message.replacingNUL() : error.message
        let reply = error.name.rawValue.withCString { name in
            text.withCString { dbus_message_new_error(raw, name, $0) }
        }
        guard let reply else { throw DBusError.noMemory("creating an error reply") }
        return Message(owning: reply)
    }

    /// The whole message in the wire format (`dbus_message_marshal`), as
    /// `dbus_message_demarshal` reads it back: header, serial included, and body.
    public func marshalled() throws(DBusError) -> [UInt8] {
        var buffer: UnsafeMutablePointer<CChar>?
        var length: Int32 = 0
        guard dbus_message_marshal(raw, &buffer, &length) != 0, let buffer else {
            throw DBusError.noMemory("marshalling a message")
        }
        defer { dbus_free(buffer) }
        return buffer.withMemoryRebound(to: UInt8.self, capacity: Int(length)) {
            Array(UnsafeBufferPointer(start: $0, count: Int(length)))
        }
    }

    // MARK: Header

    public var kind: Kind {
        switch dbus_message_get_type(raw) {
        case DBUS_MESSAGE_TYPE_METHOD_CALL: .methodCall
        case DBUS_MESSAGE_TYPE_METHOD_RETURN: .methodReturn
        case DBUS_MESSAGE_TYPE_ERROR: .error
        case DBUS_MESSAGE_TYPE_SIGNAL: .signal
        default: .unknown
        }
    }

    /// The object path; libdbus validated it when the message arrived.
    public var path: ObjectPath? {
        dbus_message_get_path(raw).map { ObjectPath(unchecked: String(cString: $0)) }
    }

    public var interface: InterfaceName? {
        dbus_message_get_interface(raw).map { InterfaceName(unchecked: String(cString: $0)) }
    }

    public var member: MemberName? {
        dbus_message_get_member(raw).map { MemberName(unchecked: String(cString: $0)) }
    }

    public var errorName: ErrorName? {
        dbus_message_get_error_name(raw).map { ErrorName(unchecked: String(cString: $0)) }
    }

    /// The sender's unique name, set by the bus.
    public var sender: String? {
        dbus_message_get_sender(raw).map { String(cString: $0) }
    }

    public var destination: String? {
        dbus_message_get_destination(raw).map { String(cString: $0) }
    }

    /// The body's signature as the raw string, e.g. "ssa{sv}".
    public var signature: String {
        dbus_message_get_signature(raw).map { String(cString: $0) } ?? ""
    }

    public var serial: UInt32 { dbus_message_get_serial(raw) }
    public var replySerial: UInt32 { dbus_message_get_reply_serial(raw) }

    /// NO_REPLY_EXPECTED: the caller wants no answer.
    public var noReplyExpected: Bool {
        get { dbus_message_get_no_reply(raw) != 0 }
        set { dbus_message_set_no_reply(raw, newValue ? 1 : 0) }
    }

    /// Whether the bus may start the destination service to deliver this call.
    public var autoStart: Bool {
        get { dbus_message_get_auto_start(raw) != 0 }
        set { dbus_message_set_auto_start(raw, newValue ? 1 : 0) }
    }

    /// True when the body's signature is exactly `signature` (no allocation).
    func hasSignature(_ signature: String) -> Bool {
        signature.withCString { dbus_message_has_signature(raw, $0) != 0 }
    }

    /// For an error message: the error it carries (name and first string argument).
    public var error: DBusError? {
        guard kind == .error, let name = errorName else { return nil }
        var text = ""
        if case .string(let first)? = try? arguments().first {
            text = first
        }
        return DBusError(name, text)
    }
}

extension String {
    func replacingNUL() -> String {
        String(unicodeScalars.map { $0 == "\0" ? "\u{FFFD}" : Character($0) })
    }
}
