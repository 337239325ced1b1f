import DBus

/// A client of the broker's public API on any connection: what a launcher, a bridge or a
/// test uses to list, perform and follow changes. It holds no state of its own beyond the
/// connection, so a broker that restarts is simply asked again.
public final class BrokerProxy: Sendable {
    public let connection: Connection
    public let destination: BusName

    public init(connection: Connection, destination: BusName = BrokerAPI.busName) {
        self.connection = connection
        self.destination = destination
    }

    /// ListApplications: id, display name and icon of every app, sorted by id.
    public func applications() async throws(DBusError) -> [ListedApplication] {
        let reply = try await call(BrokerAPI.Member.listApplications, [])
        return try decoded { () throws(APIDecodingError) in try ListedApplication.list(decoding: reply.first) }
    }

    /// GetItems: one app's items in display order.
    public func items(of appID: String, locale: String? = nil) async throws(DBusError) -> [ListedItem] {
        let reply = try await call(BrokerAPI.Member.getItems, [.string(appID), Self.options(locale: locale)])
        return try decoded { () throws(APIDecodingError) in try ListedItem.list(decoding: reply.first, app: appID) }
    }

    /// GetAllItems: every app's items, sorted by app id.
    public func allItems(locale: String? = nil) async throws(DBusError) -> [(appID: String, items: [ListedItem])] {
        let reply = try await call(BrokerAPI.Member.getAllItems, [Self.options(locale: locale)])
        return try decoded { () throws(APIDecodingError) in
            guard let groups = reply.first?.array else {
                throw APIDecodingError("GetAllItems answered \(reply.first?.type.signature ?? "nothing"), not a(saa{sv})")
            }
            var result: [(appID: String, items: [ListedItem])] = []
            for group in groups {
                guard let fields = group.structure, fields.count == 2, let app = fields[0].string else {
                    throw APIDecodingError("GetAllItems listed a group as \(group.type.signature), not (saa{sv})")
                }
                result.append((app, try ListedItem.list(decoding: fields[1], app: app)))
            }
            return result
        }
    }

    /// Perform: exactly the item `itemID` when given (its type must be `type`), else the
    /// first current item of `type`. Waits a little longer than the broker's own timeout,
    /// so the broker's Timeout error comes first.
    public func perform(
        appID: String, type: String, itemID: String?, arguments: Value? = nil, activationToken: String? = nil,
        startupID: String? = nil, locale: String? = nil, timeoutMilliseconds: UInt32? = nil
    ) async throws(DBusError) -> PerformOutcome {
        var entries: [DictionaryEntry] = []
        func add(_ key: String, _ value: Value) {
            entries.append(DictionaryEntry(.string(key), .variant(value)))
        }
        if let itemID { add(BrokerAPI.Option.itemID, .string(itemID)) }
        if let arguments { add(BrokerAPI.Option.arguments, arguments) }
        if let activationToken { add(BrokerAPI.Option.activationToken, .string(activationToken)) }
        if let startupID { add(BrokerAPI.Option.desktopStartupID, .string(startupID)) }
        if let locale { add(BrokerAPI.Option.locale, .string(locale)) }
        if let timeoutMilliseconds { add(BrokerAPI.Option.timeoutMilliseconds, .uint32(timeoutMilliseconds)) }
        let brokerTimeout = timeoutMilliseconds ?? BrokerAPI.maximumTimeoutMilliseconds
        let reply = try await call(
            BrokerAPI.Member.perform,
            [.string(appID), .string(type), .dictionary(key: .string, value: .variant, entries)],
            timeout: .milliseconds(Int64(brokerTimeout)) + .seconds(10))
        return try decoded { () throws(APIDecodingError) in try PerformOutcome(decoding: reply) }
    }

    /// Every property of one app's object (`org.freedesktop.DBus.Properties.GetAll` on
    /// Application1), by name; a broker older than a property simply lacks it.
    public func applicationProperties(of appID: String) async throws(DBusError) -> [String: Value] {
        let reply = try await connection.call(
            destination: destination, path: BrokerAPI.appPath(appID), interface: Self.propertiesInterface,
            member: "GetAll", [.string(BrokerAPI.applicationInterface.rawValue)])
        guard let entries = reply.first?.dictionary else {
            throw APIDecodingError("GetAll of app \(appID.prefix(80)) answered \(reply.first?.type.signature ?? "nothing"), not a{sv}").dbusError
        }
        var properties: [String: Value] = [:]
        for (key, value) in entries {
            if let name = key.string { properties[name] = value.unwrappedVariant }
        }
        return properties
    }

    static let propertiesInterface: InterfaceName = "org.freedesktop.DBus.Properties"

    /// Follows ItemsChanged(app_id); `handler` runs on the connection's loop thread.
    public func onItemsChanged(_ handler: @escaping @Sendable (String) -> Void) async throws(DBusError) -> SignalSubscription {
        try await connection.subscribe(rule(BrokerAPI.Signal.itemsChanged)) { message in
            guard let values = try? message.arguments(), let app = values.first?.string else { return }
            handler(app)
        }
    }

    /// Follows ApplicationsChanged; `handler` runs on the connection's loop thread.
    public func onApplicationsChanged(_ handler: @escaping @Sendable () -> Void) async throws(DBusError) -> SignalSubscription {
        try await connection.subscribe(rule(BrokerAPI.Signal.applicationsChanged)) { _ in handler() }
    }

    /// Follows the broker's name: `handler(true)` when a broker takes it (started, restarted,
    /// replaced), `handler(false)` when it goes away. A client re-reads everything on `true`.
    public func onBrokerOwnerChanged(
        _ handler: @escaping @Sendable (_ hasOwner: Bool) -> Void
    ) async throws(DBusError) -> SignalSubscription {
        try await connection.watchNameOwners(arg0: destination.rawValue) { _, _, newOwner in
            handler(!newOwner.isEmpty)
        }
    }

    private func rule(_ member: MemberName) -> MatchRule {
        // Signals come from the broker's unique name; the bus rewrites a well-known sender
        // in match rules to its current owner, so this also follows a restarted broker.
        MatchRule(sender: destination.rawValue, path: BrokerAPI.rootPath, interface: BrokerAPI.interface, member: member)
    }

    private func call(
        _ member: MemberName, _ arguments: [Value], timeout: Duration = Connection.defaultTimeout
    ) async throws(DBusError) -> [Value] {
        try await connection.call(
            destination: destination, path: BrokerAPI.rootPath, interface: BrokerAPI.interface, member: member,
            arguments, timeout: timeout)
    }

    private static func options(locale: String?) -> Value {
        var entries: [DictionaryEntry] = []
        if let locale { entries.append(DictionaryEntry(.string(BrokerAPI.Option.locale), .variant(.string(locale)))) }
        return .dictionary(key: .string, value: .variant, entries)
    }

    private func decoded<T>(_ body: () throws(APIDecodingError) -> T) throws(DBusError) -> T {
        do {
            return try body()
        } catch {
            throw error.dbusError
        }
    }
}
