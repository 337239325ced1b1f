import Locking
import Synchronization

/// Delivers received signals to the subscriptions whose rules match them.
final class SignalRouter: Sendable {
    private struct Entry {
        let id: UInt64
        let rule: MatchRule
        let handler: @Sendable (Message) -> Void
    }

    private let entries = Locked<[Entry]>([])
    private let nextID = Atomic<UInt64>(1)

    func add(_ rule: MatchRule, _ handler: @escaping @Sendable (Message) -> Void) -> UInt64 {
        let id = nextID.wrappingAdd(1, ordering: .relaxed).oldValue
        entries.withLock { $0.append(Entry(id: id, rule: rule, handler: handler)) }
        return id
    }

    func remove(_ id: UInt64) {
        entries.withLock { $0.removeAll { $0.id == id } }
    }

    /// Runs on the loop thread for every signal received.
    func deliver(_ message: Message) {
        let matching = entries.withLock { entries in
            entries.filter { $0.rule.matches(message) }.map(\.handler)
        }
        for handler in matching {
            handler(message)
        }
    }
}

/// A live signal subscription; `cancel()` (or releasing it) ends it.
public final class SignalSubscription: Sendable {
    private let connection: Connection
    private let id: UInt64
    private let rule: MatchRule
    private let active = Atomic<Bool>(true)

    init(connection: Connection, id: UInt64, rule: MatchRule) {
        self.connection = connection
        self.id = id
        self.rule = rule
    }

    deinit {
        cancel()
    }

    /// Stops delivery and removes the match rule from the bus.
    public func cancel() {
        guard active.exchange(false, ordering: .acquiringAndReleasing) else { return }
        connection.signals.remove(id)
        guard connection.isConnected,
              let message = try? Message.methodCall(destination: .bus, path: .bus, interface: .bus, member: "RemoveMatch")
        else { return }
        try? message.append([.string(rule.description)])
        message.noReplyExpected = true
        try? connection.send(message)
    }
}

extension Connection {
    /// Subscribes to signals matching `rule` (`AddMatch` on the bus);
    /// `handler` runs on the loop thread for each one.
    public func subscribe(
        _ rule: MatchRule, handler: @escaping @Sendable (Message) -> Void
    ) async throws(DBusError) -> SignalSubscription {
        let id = signals.add(rule, handler)
        do {
            _ = try await call(destination: .bus, path: .bus, interface: .bus, member: "AddMatch", [.string(rule.description)])
        } catch {
            signals.remove(id)
            throw error
        }
        return SignalSubscription(connection: self, id: id, rule: rule)
    }

    /// Follows `NameOwnerChanged`: `handler(name, oldOwner, newOwner)`, with
    /// an empty string for no owner. A unique name whose new owner is empty
    /// has left the bus. `arg0` narrows it to one name.
    public func watchNameOwners(
        arg0: String? = nil,
        _ handler: @escaping @Sendable (_ name: String, _ oldOwner: String, _ newOwner: String) -> Void
    ) async throws(DBusError) -> SignalSubscription {
        let rule = MatchRule(sender: "org.freedesktop.DBus", path: .bus, interface: .bus,
                             member: "NameOwnerChanged", arg0: arg0)
        return try await subscribe(rule) { message in
            guard let values = try? message.arguments(), values.count == 3,
                  case .string(let name) = values[0], case .string(let old) = values[1],
                  case .string(let new) = values[2] else { return }
            handler(name, old, new)
        }
    }
}

extension BusName {
    /// The bus driver, `org.freedesktop.DBus`.
    public static let bus = BusName(unchecked: "org.freedesktop.DBus")
}

extension ObjectPath {
    /// The bus driver's object, `/org/freedesktop/DBus`.
    public static let bus = ObjectPath(unchecked: "/org/freedesktop/DBus")
}

extension InterfaceName {
    /// The bus driver's interface, `org.freedesktop.DBus`.
    public static let bus = InterfaceName(unchecked: "org.freedesktop.DBus")
}
