import DBus
import Glibc

/// The binding's own floor: the smallest Perform responder written with our
/// DBus module, the Swift twin of qa-bench-floor. Its handler replies at
/// once, so a gap to the C floor is the binding's own cost (issue 2's bar:
/// at least 90% of the floor's calls per second).
///
/// `quickactions-bench echo-responder ADDRESS NAME` runs it until a signal ends it.
enum EchoResponder {
    static let interface = Interface(
        "org.quickactions.Broker1",
        methods: [
            Method(
                "Perform",
                inputs: [Argument("app_id", .string), Argument("type", .string),
                         Argument("options", .dictionary(key: .string, value: .variant))],
                outputs: [Argument("success", .boolean), Argument("result", .dictionary(key: .string, value: .variant))]
            ) { _ in
                [.boolean(true), .dictionary(key: .string, value: .variant, [
                    DictionaryEntry(.string("activation"), .variant(.string("resume"))),
                ])]
            },
        ])

    static func run(address: String, name: String) throws(BenchError) -> Never {
        let busName: BusName
        do {
            busName = try BusName(name)
        } catch {
            throw .usage("echo-responder: \"\(name)\" is not a bus name: \(error)")
        }
        do {
            let connection = try Connection(.address(address))
            try connection.export([interface], at: "/org/quickactions/Broker1")
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
