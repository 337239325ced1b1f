import DBus
import Foundation
import QuickActionsTestSupport
import Synchronization

/// A private bus with an object whose methods are all declared with Swift
/// types, for the typed-method tests: object /org/quickactions/Typed,
/// interface org.quickactions.Typed1.
final class TypedService: Sendable {
    static let name: BusName = "org.quickactions.Typed"
    static let path: ObjectPath = "/org/quickactions/Typed"
    static let interfaceName: InterfaceName = "org.quickactions.Typed1"

    /// EchoEvery's arguments, one of every supported type: "ybnqiuxtdsogayasa{sv}(is)v".
    typealias Every = (
        UInt8, Bool, Int16, UInt16, Int32, UInt32, Int64, UInt64, Double, String, ObjectPath, Signature,
        [UInt8], [String], [String: Value], DBusStruct<Int32, String>, Value
    )

    let bus: TestBus
    let server: Connection
    /// What EchoEvery last decoded, as values, to compare with what a client sent.
    let lastEvery = Mutex<[Value]>([])
    /// What EchoNested last decoded.
    let lastNested = Mutex<[Value]>([])

    init() async throws {
        bus = try await TestBus()
        server = try Connection(.address(bus.address))
        try server.export([Self.makeInterface(self)], at: Self.path)
        let reply = try await server.requestName(Self.name)
        guard reply == .primaryOwner else { throw TestSupportError("could not own \(Self.name): \(reply)") }
    }

    deinit {
        server.close()
        bus.stop()
    }

    func client() throws -> Connection {
        try Connection(.address(bus.address))
    }

    var environment: [String: String] { bus.environment() }

    /// The interface, built around `service` (held weakly) or around nothing,
    /// for checks that only need the declaration.
    static func makeInterface(_ service: TypedService?) -> Interface {
        weak let service = service
        return Interface(interfaceName, methods: [
            Method(
                "EchoEvery",
                inputs: TypedArgument("y", UInt8.self), TypedArgument("b", Bool.self), TypedArgument("n", Int16.self),
                TypedArgument("q", UInt16.self), TypedArgument("i", Int32.self), TypedArgument("u", UInt32.self),
                TypedArgument("x", Int64.self), TypedArgument("t", UInt64.self), TypedArgument("d", Double.self),
                TypedArgument("s", String.self), TypedArgument("o", ObjectPath.self),
                TypedArgument("g", Signature.self), TypedArgument("ay", [UInt8].self),
                TypedArgument("as", [String].self), TypedArgument("asv", [String: Value].self),
                TypedArgument("is", DBusStruct<Int32, String>.self), TypedArgument("v", Value.self),
                outputs: (
                    TypedArgument("y", UInt8.self), TypedArgument("b", Bool.self), TypedArgument("n", Int16.self),
                    TypedArgument("q", UInt16.self), TypedArgument("i", Int32.self), TypedArgument("u", UInt32.self),
                    TypedArgument("x", Int64.self), TypedArgument("t", UInt64.self), TypedArgument("d", Double.self),
                    TypedArgument("s", String.self), TypedArgument("o", ObjectPath.self),
                    TypedArgument("g", Signature.self), TypedArgument("ay", [UInt8].self),
                    TypedArgument("as", [String].self), TypedArgument("asv", [String: Value].self),
                    TypedArgument("is", DBusStruct<Int32, String>.self), TypedArgument("v", Value.self))
            ) { _, y, b, n, q, i, u, x, t, d, s, o, g, ay, array, dictionary, structure, v in
                service?.lastEvery.withLock {
                    $0 = [y.dbusValue, b.dbusValue, n.dbusValue, q.dbusValue, i.dbusValue, u.dbusValue,
                          x.dbusValue, t.dbusValue, d.dbusValue, s.dbusValue, o.dbusValue, g.dbusValue,
                          ay.dbusValue, array.dbusValue, Self.sorted(dictionary), structure.dbusValue, v.dbusValue]
                }
                return (y, b, n, q, i, u, x, t, d, s, o, g, ay, array, dictionary, structure, v)
            },
            Method(
                "EchoNested",
                inputs: TypedArgument("listings", [[String: Value]].self),
                TypedArgument("apps", [DBusStruct<String, [[String: Value]]>].self),
                TypedArgument("lists", [String: [String]].self), TypedArgument("names", [Int32: String].self),
                TypedArgument("count", Int.self),
                outputs: (
                    TypedArgument("listings", [[String: Value]].self),
                    TypedArgument("apps", [DBusStruct<String, [[String: Value]]>].self),
                    TypedArgument("lists", [String: [String]].self), TypedArgument("names", [Int32: String].self),
                    TypedArgument("count", Int.self))
            ) { _, listings, apps, lists, names, count in
                service?.lastNested.withLock {
                    $0 = [listings.dbusValue, apps.dbusValue, lists.dbusValue, names.dbusValue, count.dbusValue]
                }
                return (listings, apps, lists, names, count)
            },
            Method(
                "Perform",
                inputs: TypedArgument("app_id", String.self), TypedArgument("type", String.self),
                TypedArgument("options", [String: Value].self),
                outputs: (TypedArgument("success", Bool.self), TypedArgument("result", [String: Value].self))
            ) { _, appID, type, options in
                (true, ["app": .string(appID), "type": .string(type), "options": .uint32(UInt32(options.count))])
            },
            Method("Nothing", outputs: ()) { _ in },
            Method("Sender", outputs: (TypedArgument("sender", String.self))) { call in call.sender ?? "" },
            Method(
                "Later", inputs: TypedArgument("milliseconds", UInt32.self),
                outputs: (TypedArgument("thread", String.self), TypedArgument("milliseconds", UInt32.self)),
                deferred: { _, reply, milliseconds in
                    DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(Int(milliseconds))) {
                        reply.send(Thread.isMainThread ? "main" : "worker", milliseconds)
                    }
                }),
            Method(
                "Slow", inputs: TypedArgument("milliseconds", UInt32.self), outputs: (TypedArgument("done", Bool.self)),
                async: { _, milliseconds in
                    try await Task.sleep(for: .milliseconds(milliseconds))
                    return true
                }),
            Method(
                "Fail", inputs: TypedArgument("name", String.self), TypedArgument("message", String.self),
                outputs: ()
            ) { _, name, message in
                throw DBusError(try ErrorName(name), message)
            },
            Method("NulReply", outputs: (TypedArgument("text", String.self))) { _ in "before\0after" },
            Method(
                "DeepVariant", inputs: TypedArgument("depth", UInt32.self),
                outputs: (TypedArgument("values", [[Value]].self))
            ) { _, depth in
                var value = Value.string("bottom")
                for _ in 0..<depth { value = .variant(value) }
                return [[value]]
            },
        ])
    }

    /// A dictionary's value with its entries sorted by key, so two decodings compare equal.
    static func sorted(_ dictionary: [String: Value]) -> Value {
        .dictionary(key: .string, value: .variant,
                    dictionary.sorted { $0.key < $1.key }.map { DictionaryEntry(.string($0.key), .variant($0.value)) })
    }
}
