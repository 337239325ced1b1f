extension Connection {
    /// Flags of `RequestName`.
    public struct NameFlags: OptionSet, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        /// Let a later `replaceExisting` request take the name from us.
        public static let allowReplacement = NameFlags(rawValue: 1)
        /// Take the name from its owner if that owner allows replacement.
        public static let replaceExisting = NameFlags(rawValue: 2)
        /// Fail instead of waiting in the queue.
        public static let doNotQueue = NameFlags(rawValue: 4)
    }

    /// What `RequestName` answered.
    public enum NameReply: UInt32, Sendable {
        case primaryOwner = 1
        case inQueue = 2
        case exists = 3
        case alreadyOwner = 4
    }

    /// Asks the bus for a well-known name.
    public func requestName(_ name: BusName, flags: NameFlags = [.doNotQueue]) async throws(DBusError) -> NameReply {
        let reply = try await call(destination: .bus, path: .bus, interface: .bus, member: "RequestName",
                                   [.string(name.rawValue), .uint32(flags.rawValue)])
        guard case .uint32(let code)? = reply.first, let answer = NameReply(rawValue: code) else {
            throw DBusError(.failed, "RequestName for \(name.rawValue) returned an unexpected reply")
        }
        return answer
    }

    /// Gives a well-known name back to the bus.
    public func releaseName(_ name: BusName) async throws(DBusError) {
        _ = try await call(destination: .bus, path: .bus, interface: .bus, member: "ReleaseName", [.string(name.rawValue)])
    }

    /// The unique name owning `name`, or nil when nobody does.
    public func owner(of name: BusName) async throws(DBusError) -> String? {
        do {
            let reply = try await call(destination: .bus, path: .bus, interface: .bus, member: "GetNameOwner",
                                       [.string(name.rawValue)])
            guard case .string(let owner)? = reply.first else { return nil }
            return owner
        } catch let error where error.name == .nameHasNoOwner {
            return nil
        }
    }
}
