import DBus
import QuickActionsAPI
import Glibc

/// The binding's own floor: the smallest Perform responder written with our
/// DBus module, the Swift twin of qa-bench-floor. Its handler replies at
/// once, so a gap to the C floor is the binding's own cost (issue 2's bar:
/// at least 90% of the floor's calls per second).
///
/// `quickactions-bench echo-responder ADDRESS NAME [--typed]` runs it until a
/// signal ends it; `--typed` declares Perform with Swift types (decoded
/// straight from the message, the reply written straight into it) instead
/// of the `[Value]` handler.
enum EchoResponder {
    /// Perform with a `[Value]` handler.
    static let interface = Interface(
        BrokerAPI.interface,
        methods: [
            Method(
                BrokerAPI.Member.perform,
                inputs: [Argument("app_id", .string), Argument("type", .string),
                         Argument("options", .dictionary(key: .string, value: .variant))],
                outputs: [Argument("success", .boolean), Argument("result", .dictionary(key: .string, value: .variant))]
            ) { _ in
                [.boolean(true), .dictionary(key: .string, value: .variant, [
                    DictionaryEntry(.string(BrokerAPI.ResultKey.activation), .variant(.string(BrokerAPI.Activation.resume))),
                ])]
            },
        ])

    /// The same Perform declared with Swift types.
    static let typedInterface = Interface(
        BrokerAPI.interface,
        methods: [
            Method(
                BrokerAPI.Member.perform,
                inputs: TypedArgument("app_id", String.self), TypedArgument("type", String.self),
                TypedArgument("options", [String: Value].self),
                outputs: (TypedArgument("success", Bool.self), TypedArgument("result", [String: Value].self))
            ) { _, _, _, _ in
                (true, [BrokerAPI.ResultKey.activation: .string(BrokerAPI.Activation.resume)])
            },
        ])

    static func run(address: String, name: String, typed: Bool = false) throws(BenchError) -> Never {
        let busName: BusName
        do {
            busName = try BusName(name)
        } catch {
            throw .usage("echo-responder: \"\(name)\" is not a bus name: \(error)")
        }
        do {
            let connection = try Connection(.address(address))
            try connection.export([typed ? typedInterface : interface], at: BrokerAPI.rootPath)
            let reply = try connection.callBlocking(
                destination: .bus, path: .bus, interface: .bus, member: "RequestName",
                [.string(busName.rawValue), .uint32(Connection.NameFlags.doNotQueue.rawValue)])
            guard reply.first?.uint64 == UInt64(Connection.NameReply.primaryOwner.rawValue) else {
                throw BenchError.subject(name: "echo-responder", reason: "cannot own \(name): the name is taken")
            }
            connection.onDisconnect { _ in exit(0) }
            while true {
                pause()
            }
        } catch let error as BenchError {
            throw error
        } catch {
            throw .subject(name: "echo-responder", reason: "on \(address): \(error)")
        }
    }
}
