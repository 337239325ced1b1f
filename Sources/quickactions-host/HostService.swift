import DBus
import Glibc
import QuickActionsAPI
import QuickActionsHost
import QuickActionsHostProtocol
import QuickActionsModel
import WorkQueues

/// What a host runs: one app's plugin, loaded with the broker's checks, served over the peer
/// connection to the broker that started it (dbus/org.quickactions.Host1.xml).
///
/// Calls into the plugin run on the connection's loop thread while the plugin's queue is idle
/// (a perform that completes at once costs no thread switch), else on the plugin's queue; a
/// perform that takes longer than ``LoadedPlugin/inlineBudget`` has the later calls queued,
/// so the host keeps reading the broker's messages, until
/// ``LoadedPlugin/calmCallsToRunInline`` queued calls in a row keep within it again. A plugin that blocks blocks only
/// this process.
final class HostService: Sendable {
    let connection: Connection
    let appID: String
    private let plugin: LoadedPlugin
    let ended = Semaphore(value: 0)

    /// Connects, loads the plugin and tells the broker which happened. Throws when the
    /// broker cannot be reached or the plugin did not load (after telling the broker why).
    init(configuration: HostConfiguration) throws {
        connection = try Connection(peer: configuration.address)
        appID = configuration.appID
        let connection = self.connection
        let callbacks = PluginCallbacks(
            setDynamicItems: { items throws(DynamicItemsRejection) in
                try Self.sendDynamicItems(items, on: connection)
            },
            log: { record in
                guard let message = try? Message.methodCall(
                    destination: nil, path: HostAPI.brokerPath, interface: HostAPI.brokerInterface,
                    member: HostAPI.BrokerMember.log) else { return }
                try? message.append([
                    .uint32(UInt32(record.level.rawValue)), .boolean(record.origin == .loader), .string(record.message),
                ])
                message.noReplyExpected = true
                try? connection.send(message)
            },
            dynamicItems: {
                guard let reply = try? Self.call(connection, HostAPI.BrokerMember.getDynamicItems, []),
                      let value = try? reply.arguments().first,
                      let items = try? HostItemCodec.decodeList(value) else { return [] }
                return items
            })
        do {
            plugin = try LoadedPlugin.load(
                library: configuration.library, bundle: configuration.bundle, appID: configuration.appID,
                dataDirectory: configuration.dataDirectory, callbacks: callbacks)
        } catch {
            _ = try? Self.call(connection, HostAPI.BrokerMember.loadFailed, [.string(error.description)])
            connection.close()
            throw error
        }
        try connection.export([hostInterface()], at: HostAPI.hostPath)
        connection.onDisconnect { [ended] _ in ended.signal() }
        _ = try Self.call(connection, HostAPI.BrokerMember.loaded, [
            .string(plugin.name ?? ""), .uint32(plugin.abiVersion.major), .uint32(plugin.abiVersion.minor),
        ])
    }

    private func hostInterface() -> Interface {
        let outputs = [Argument("success", .boolean), Argument("result", .dictionary(key: .string, value: .variant))]
        let replies = PerformReplies()
        let prepared = PreparedRequests()
        return Interface(HostAPI.hostInterface, methods: [
            // Read by hand: a request with a key already seen (protocol 1.1) is neither decoded
            // nor encoded for the ABI again (PreparedRequests); any other is decoded as [Value],
            // which measured cheaper here than typed decoding into [String: Value]. Each
            // outcome's reply is encoded once (PerformReplies).
            Method(HostAPI.HostMember.perform,
                   inputs: [Argument("item", HostItemCodec.itemType), Argument("request", HostItemCodec.itemType),
                            Argument("launch", .boolean)],
                   outputs: outputs,
                   reading: { [plugin, prepared] message, reply in
                var reader = MessageReader(message)
                let itemLeftOut = reader.isAtEmptyContainer()
                try reader.skip()
                let key = try reader.leadingEntry(named: HostAPI.RequestKey.key).flatMap(\.uint64)
                let launching = try reader.read(Bool.self)
                let perform: PreparedPerform
                var kept: UInt64?
                if let key, let known = prepared.request(forKey: key) {
                    perform = known
                } else if itemLeftOut, let key {
                    throw DBusError(HostAPI.unknownRequestKeyError,
                                    "this host does not keep request key \(key); send its item again")
                } else {
                    let arguments = try message.arguments()
                    let item = try HostItemCodec.decode(arguments[0], label: "item")
                    let request = try HostItemCodec.decodeRequest(arguments[1])
                    perform = PreparedPerform(PerformRequest(
                        item: item, resolvedIcon: request.resolvedIcon, arguments: request.arguments,
                        activationToken: request.activationToken))
                    if let key {
                        prepared.store(perform, forKey: key)
                        kept = key
                    }
                }
                plugin.perform(prepared: perform, launching: launching, inline: Self.runHere) { [kept] outcome in
                    let answer = PerformReplies.Outcome(success: outcome.success, message: outcome.message)
                    if let kept {
                        // Once per key: later calls may leave the item out (protocol 1.1).
                        reply.send(PerformReplies.values(answer, keptRequestKey: kept))
                    } else if let prepared = replies.prepared(answer) {
                        reply.send(prepared)
                    } else {
                        reply.send(PerformReplies.values(answer))
                    }
                }
            }),
            Method(HostAPI.HostMember.willResign, handler: .deferred { [plugin] _, reply in
                plugin.willResign { reply.send([]) }
            }),
            Method(HostAPI.HostMember.stop, handler: .deferred { [ended] _, reply in
                reply.send([])
                ended.signal()
            }),
        ])
    }

    /// Runs a call into the plugin on this thread (the loop thread, from a handler).
    private static let runHere: LoadedPlugin.InlineRunner = { work in
        work()
        return true
    }

    /// The plugin set its dynamic items: the broker checks and stores them, and says why not.
    private static func sendDynamicItems(_ items: [ShortcutItem], on connection: Connection) throws(DynamicItemsRejection) {
        do {
            _ = try call(connection, HostAPI.BrokerMember.setDynamicItems, [HostItemCodec.encode(items)])
        } catch {
            throw DynamicItemsRejection(error.message)
        }
    }

    /// Calls the broker and waits, on any thread, the loop thread included.
    private static func call(_ connection: Connection, _ member: MemberName, _ arguments: [Value]) throws(DBusError) -> Message {
        let message = try Message.methodCall(
            destination: nil, path: HostAPI.brokerPath, interface: HostAPI.brokerInterface, member: member)
        try message.append(arguments)
        return try connection.sendAndWait(message, timeout: .seconds(30))
    }
}

/// What the broker tells a host in its environment (``HostAPI/Environment``). The paths are
/// passed on as given: the loader standardises the bundle's and the library's.
struct HostConfiguration {
    let address: String
    let appID: String
    let bundle: String
    let library: String
    let dataDirectory: String

    /// Reads the variables with `variable`: by default from this process's environment (`getenv`).
    init(variable: (String) -> String? = Self.processVariable) throws(HostStartError) {
        func value(_ name: String) throws(HostStartError) -> String {
            guard let text = variable(name), !text.isEmpty else { throw HostStartError("\(name) is not set") }
            return text
        }
        address = try value(HostAPI.Environment.address)
        appID = try value(HostAPI.Environment.appID)
        bundle = try value(HostAPI.Environment.bundle)
        library = try value(HostAPI.Environment.library)
        dataDirectory = try value(HostAPI.Environment.dataDirectory)
    }

    /// The environment variable `name` of this process, or nil.
    static func processVariable(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}

struct HostStartError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
