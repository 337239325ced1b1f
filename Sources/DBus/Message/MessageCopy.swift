import CDBus

extension Message {
    /// A new, unsent message with this one's header and body (`dbus_message_copy`, a memcpy of
    /// both), which more arguments may be appended to. For a call sent many times with the
    /// same leading arguments: build it once as a template that is never sent itself, and
    /// send a copy each time; copying a template from several threads at once is safe, as
    /// libdbus only reads it.
    public func copy() throws(DBusError) -> Message {
        guard let raw = dbus_message_copy(raw) else { throw DBusError.noMemory("copying a message") }
        return Message(owning: raw)
    }
}
