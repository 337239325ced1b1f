import DBus
import QuickActionsAPI

/// A client of the broker's D-Bus API v1 on one bus connection. Every call
/// maps failures to ``CLIError`` (see ``BrokerErrorMapping``).
public final class BrokerClient: Sendable {
    public let connection: Connection
    public let globals: GlobalOptions

    /// Connects to the bus `globals` names; a bus that cannot be reached is `.unreachable`.
    public init(globals: GlobalOptions) throws(CLIError) {
        self.globals = globals
        do {
            connection = try Connection(globals.bus)
        } catch {
            throw BrokerErrorMapping.connectionFailed(error, globals: globals)
        }
    }

    /// Closes the connection.
    public func close() {
        connection.close()
    }

    /// `ListApplications()`: id, name and icon of every app, sorted by id.
    public func listApplications() async throws(CLIError) -> [Application] {
        let reply = try await call(BrokerAPI.Member.listApplications, [])
        return try Application.list(decoding: reply.first)
    }

    /// Every app with its object's properties (version, loaded), from the
    /// root's ObjectManager.
    public func applicationDetails() async throws(CLIError) -> [Application] {
        let reply = try await call(BrokerAPI.Member.getManagedObjects, [], interface: BrokerAPI.objectManager)
        return try Application.list(managedObjects: reply.first)
    }

    /// The broker's status: the root's properties (Properties.GetAll) and
    /// every app object's, from the ObjectManager.
    public func status() async throws(CLIError) -> BrokerStatus {
        let root = try await call(BrokerAPI.Member.getAll, [.string(BrokerAPI.interface.rawValue)],
                                  interface: BrokerAPI.properties, what: "the broker's properties")
        let objects = try await call(BrokerAPI.Member.getManagedObjects, [], interface: BrokerAPI.objectManager)
        return try BrokerStatus(properties: root.first, managedObjects: objects.first)
    }

    /// `GetItems(app_id, options)`.
    public func items(of app: String, options: RequestOptions = RequestOptions()) async throws(CLIError) -> [Item] {
        let reply = try await call(BrokerAPI.Member.getItems, [.string(app), options.value])
        return try Item.list(decoding: reply.first, app: app)
    }

    /// `GetAllItems(options)`: every app's items, sorted by app id.
    public func allItems(options: RequestOptions = RequestOptions()) async throws(CLIError) -> [AppItems] {
        let reply = try await call(BrokerAPI.Member.getAllItems, [options.value])
        guard let groups = reply.first?.array else {
            throw .failed("the broker answered GetAllItems with something other than a list")
        }
        var result: [AppItems] = []
        for group in groups {
            guard let fields = group.structure, fields.count == 2, let app = fields[0].string else {
                throw .failed("the broker listed a group of items as \(group.type), not (saa{sv})")
            }
            result.append(AppItems(appID: app, items: try Item.list(decoding: fields[1], app: app)))
        }
        return result
    }

    /// `Perform(app_id, type, options)`. The call waits a little longer than
    /// the broker's own timeout, so the broker's Timeout error comes first.
    public func perform(app: String, type: String, options: RequestOptions) async throws(CLIError) -> PerformResult {
        let brokerTimeout = options.timeoutMilliseconds ?? BrokerAPI.maximumTimeoutMilliseconds
        let wait = Duration.milliseconds(Int64(brokerTimeout)) + .seconds(10)
        let reply = try await call(BrokerAPI.Member.perform, [.string(app), .string(type), options.value], timeout: wait,
                                   what: "Perform of \(type.quoted(mark: "'")) of app \(app.quoted(mark: "'"))")
        return try PerformResult(decoding: reply)
    }

    /// `ForgetApplication(app_id)`: how many stored items were removed.
    public func forget(app: String) async throws(CLIError) -> UInt32 {
        let reply = try await call(BrokerAPI.Member.forgetApplication, [.string(app)], what: "ForgetApplication of \(app.quoted(mark: "'"))")
        guard case .uint32(let removed)? = reply.first else {
            throw .failed("the broker answered ForgetApplication of \(app.quoted(mark: "'")) with \(reply), not a count")
        }
        return removed
    }

    /// `ForgetUsage(app_id)`: clears one app's usage history, or every app's for "";
    /// returns how many items had one.
    public func forgetUsage(app: String) async throws(CLIError) -> UInt32 {
        let reply = try await call(BrokerAPI.Member.forgetUsage, [.string(app)], what: app.isEmpty ? nil : "ForgetUsage of app \(app.quoted(mark: "'"))")
        guard case .uint32(let count)? = reply.first else {
            throw .failed("the broker answered ForgetUsage with something other than a count")
        }
        return count
    }

    /// Subscribes to the broker's signals (ItemsChanged, ApplicationsChanged);
    /// `handler` runs on the connection's loop thread.
    public func subscribeToChanges(
        _ handler: @escaping @Sendable (Message) -> Void
    ) async throws(CLIError) -> SignalSubscription {
        let rule = MatchRule(sender: BrokerAPI.busName.rawValue, path: BrokerAPI.rootPath, interface: BrokerAPI.interface)
        do {
            return try await connection.subscribe(rule, handler: handler)
        } catch {
            throw BrokerErrorMapping.map(error, globals: globals, calling: "a signal subscription")
        }
    }

    private func call(
        _ member: MemberName, _ arguments: [Value], interface: InterfaceName = BrokerAPI.interface,
        timeout: Duration = Connection.defaultTimeout, what: String? = nil
    ) async throws(CLIError) -> [Value] {
        do {
            return try await connection.call(
                destination: BrokerAPI.busName, path: BrokerAPI.rootPath, interface: interface,
                member: member, arguments, timeout: timeout)
        } catch {
            throw BrokerErrorMapping.map(error, globals: globals, calling: what ?? member.rawValue)
        }
    }
}
