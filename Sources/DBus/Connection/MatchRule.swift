/// A D-Bus match rule for signals (`AddMatch`), matched locally as well so
/// each subscription sees only its own signals.
public struct MatchRule: Sendable, Hashable, CustomStringConvertible {
    public var sender: String?
    public var path: ObjectPath?
    public var interface: InterfaceName?
    public var member: MemberName?
    /// The first argument must be this string.
    public var arg0: String?

    public init(
        sender: String? = nil, path: ObjectPath? = nil, interface: InterfaceName? = nil,
        member: MemberName? = nil, arg0: String? = nil
    ) {
        self.sender = sender
        self.path = path
        self.interface = interface
        self.member = member
        self.arg0 = arg0
    }

    /// The rule's text as the bus expects it, e.g.
    /// `type='signal',interface='org.example.I',member='Changed'`.
    public var description: String {
        var parts = ["type='signal'"]
        if let sender { parts.append("sender='\(Self.quote(sender))'") }
        if let path { parts.append("path='\(path.rawValue)'") }
        if let interface { parts.append("interface='\(interface.rawValue)'") }
        if let member { parts.append("member='\(member.rawValue)'") }
        if let arg0 { parts.append("arg0='\(Self.quote(arg0))'") }
        return parts.joined(separator: ",")
    }

    /// Whether a received signal matches. A well-known sender name cannot be
    /// compared locally (signals carry the unique name), so only unique names
    /// and the bus driver's own name are checked here; the bus checks the rest.
    func matches(_ message: Message) -> Bool {
        if let sender, sender.hasPrefix(":") || sender == "org.freedesktop.DBus", message.sender != sender {
            return false
        }
        if let path, message.path != path { return false }
        if let interface, message.interface != interface { return false }
        if let member, message.member != member { return false }
        if let arg0 {
            guard case .string(let first)? = try? message.arguments().first, first == arg0 else { return false }
        }
        return true
    }

    /// Match rule values are single-quoted; a quote is written as '\''.
    private static func quote(_ value: String) -> String {
        var out = ""
        for character in value {
            if character == "'" { out += "'\\''" } else { out.append(character) }
        }
        return out
    }
}
