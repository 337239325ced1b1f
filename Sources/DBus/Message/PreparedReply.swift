import CDBus

/// A reply body encoded once and sent to many callers: for large answers that
/// change rarely (a listing of every item), where encoding and validating the
/// values again for every call would cost more than the call itself.
///
/// Each `Reply.send(_:)` copies the body (`dbus_message_copy`, a memcpy) and
/// addresses the copy to its caller.
public final class PreparedReply: Sendable {
    let template: Message
    let types: [DBusType]

    /// Encodes `values` once, in the wire format (``WireEncoding``, validated by libdbus as it
    /// reads the bytes back); values it refuses are validated and encoded through libdbus
    /// (`dbus_message_new(METHOD_RETURN)`), which names the one at fault.
    public init(_ values: [Value]) throws(DBusError) {
        types = values.map(\.type)
        if let encoded = WireEncoding.methodReturn(values) {
            template = encoded
            return
        }
        guard let raw = dbus_message_new(DBUS_MESSAGE_TYPE_METHOD_RETURN) else {
            throw DBusError.noMemory("creating a prepared reply")
        }
        template = Message(owning: raw)
        try template.append(values)
    }

    /// Encodes typed `values` once, straight into the body as a typed
    /// method's reply writes them: a reply of those declared outputs.
    public init<each T: DBusArgument>(encoding values: repeat each T) throws(DBusError) {
        guard let raw = dbus_message_new(DBUS_MESSAGE_TYPE_METHOD_RETURN) else {
            throw DBusError.noMemory("creating a prepared reply")
        }
        template = Message(owning: raw)
        var writer = MessageWriter(template)
        var types: [DBusType] = []
        for value in repeat each values {
            try value.encode(to: &writer)
            types.append(type(of: value).dbusType)
        }
        self.types = types
    }

    /// A reply body already written into `template` (a METHOD_RETURN), of `types`.
    init(encoded template: Message, types: [DBusType]) {
        self.template = template
        self.types = types
    }

    /// The same reply in buffers of its own size: a body appended value by value grows its
    /// buffer by doubling, up to twice what it holds, which a reply kept for many callers
    /// should not keep (`dbus_message_copy` allocates exactly the lengths it copies).
    public func compacted() throws(DBusError) -> PreparedReply {
        guard let raw = dbus_message_copy(template.raw) else {
            throw DBusError.noMemory("copying a prepared reply")
        }
        return PreparedReply(encoded: Message(owning: raw), types: types)
    }

    /// A copy of the body addressed as the reply to `call`.
    func reply(to call: Message) throws(DBusError) -> Message {
        guard let raw = dbus_message_copy(template.raw) else {
            throw DBusError.noMemory("copying a prepared reply")
        }
        let reply = Message(owning: raw)
        guard dbus_message_set_reply_serial(raw, call.serial) != 0 else {
            throw DBusError.noMemory("addressing a prepared reply")
        }
        if let sender = dbus_message_get_sender(call.raw) {
            guard dbus_message_set_destination(raw, sender) != 0 else {
                throw DBusError.noMemory("addressing a prepared reply")
            }
        }
        return reply
    }
}
