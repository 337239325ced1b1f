import DBus
import Foundation
import QuickActionsTestSupport
import Synchronization

/// A private bus with an exported test object, for the binding's bus tests.
///
/// Object /org/quickactions/Test, interface org.quickactions.Test1, offers a
/// method for each way a handler can answer, properties of each kind, and a
/// signal; /org/quickactions/Test is also an object manager.
///
/// Its methods keep `[Value]` handlers on purpose: they are what tests the
/// binding's untyped handler API (immediate, deferred, async, a reply of the
/// wrong signature, a second answer), which the standard interfaces still use.
/// The typed API has its own service (TypedService).
final class TestService: Sendable {
    static let name: BusName = "org.quickactions.Test"
    static let path: ObjectPath = "/org/quickactions/Test"
    static let interface: InterfaceName = "org.quickactions.Test1"

    let bus: TestBus
    let server: Connection
    let label = Mutex("initial")
    let calls = Atomic<Int>(0)
    let duplicatesDropped = Atomic<Int>(0)
    let parked = Mutex<[Reply]>([])
    /// The arguments EchoAll last received, to check what a client really sent.
    let lastEchoAll = Mutex<[Value]>([])
    /// Tags of the OnLoop work run so far, in the order it ran.
    let workDone = Mutex<[String]>([])

    init() async throws {
        bus = try await TestBus()
        server = try Connection(.address(bus.address))
        try server.export([makeInterface()], at: Self.path)
        server.addObjectManager(at: Self.path)
        let reply = try await server.requestName(Self.name)
        guard reply == .primaryOwner else { throw TestSupportError("could not own \(Self.name): \(reply)") }
    }

    deinit {
        server.close()
        bus.stop()
    }

    /// A fresh client connection on the same bus.
    func client() throws -> Connection {
        try Connection(.address(bus.address))
    }

    /// Calls a method of the test object from `client`. The default timeout
    /// is no deadline any answer is expected to meet (no test waits for it):
    /// under ThreadSanitizer, with the whole suite running at once on 2
    /// cores, a service's loop thread was once kept from answering for 10 s.
    func call(
        _ client: Connection, _ member: MemberName, _ arguments: [Value] = [],
        interface: InterfaceName? = TestService.interface, path: ObjectPath = TestService.path,
        timeout: Duration = .seconds(120)
    ) async throws(DBusError) -> [Value] {
        try await client.call(destination: Self.name, path: path, interface: interface, member: member,
                              arguments, timeout: timeout)
    }

    /// Environment for tools that use the session bus (busctl --user, gdbus --session, python).
    var environment: [String: String] { bus.environment() }

    private func makeInterface() -> Interface {
        Interface(Self.interface, methods: [
            Method("Echo", inputs: [Argument("value", .variant)], outputs: [Argument("value", .variant)],
                   annotations: [.documentation("Returns its argument.")]) { [weak self] call in
                self?.calls.add(1, ordering: .relaxed)
                return call.arguments
            },
            Method("EchoAll",
                   inputs: Self.everyType.enumerated().map { Argument("in\($0.offset)", $0.element) },
                   outputs: Self.everyType.enumerated().map { Argument("out\($0.offset)", $0.element) }) { [weak self] call in
                self?.lastEchoAll.withLock { $0 = call.arguments }
                return call.arguments
            },
            Method("Fail", inputs: [Argument("name", .string), Argument("message", .string)]) { call in
                guard case .string(let name) = call.arguments[0], case .string(let message) = call.arguments[1] else {
                    return []
                }
                throw DBusError(try ErrorName(name), message)
            },
            Method("Later", inputs: [Argument("milliseconds", .uint32)], outputs: [Argument("thread", .string)],
                   handler: .deferred { call, reply in
                guard case .uint32(let milliseconds) = call.arguments[0] else { return }
                DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(Int(milliseconds))) {
                    reply.send([.string(Thread.isMainThread ? "main" : "worker")])
                }
            }),
            Method("Twice", outputs: [Argument("first", .string)], handler: .deferred { [weak self] _, reply in
                DispatchQueue.global().async { [weak self] in
                    reply.send([.string("first")])
                    if !reply.send([.string("second")]) {
                        self?.duplicatesDropped.add(1, ordering: .relaxed)
                    }
                }
            }),
            Method("Forget", handler: .deferred { _, _ in }),
            Method("Park", handler: .deferred { [weak self] _, reply in
                self?.parked.withLock { $0.append(reply) }
            }),
            Method("Slow", inputs: [Argument("milliseconds", .uint32)], outputs: [Argument("done", .boolean)],
                   handler: .async { call in
                guard case .uint32(let milliseconds) = call.arguments[0] else { return [.boolean(false)] }
                try await Task.sleep(for: .milliseconds(milliseconds))
                return [.boolean(true)]
            }),
            Method("Emit", inputs: [Argument("text", .string)]) { [weak self] call in
                try self?.server.emit(path: Self.path, interface: Self.interface, member: "Changed", call.arguments)
                return []
            },
            Method("OnLoop", inputs: [Argument("tag", .string)], outputs: [Argument("queued", .boolean)],
                   handler: .deferred { [weak self] call, reply in
                guard let self, case .string(let tag) = call.arguments[0] else { return }
                // Queued from another thread, so it goes through the loop's work queue.
                DispatchQueue.global().async { [weak self] in
                    guard let self else { return }
                    let queued = server.onLoopThread { [weak self] in
                        self?.workDone.withLock { $0.append(tag) }
                        reply.send([.boolean(true)])
                    }
                    if !queued { reply.send([.boolean(false)]) }
                }
            }),
            Method("WrongReply", outputs: [Argument("text", .string)]) { _ in [.int32(1)] },
            Method("Count", outputs: [Argument("calls", .int64)]) { [weak self] _ in
                [.int64(Int64(self?.calls.load(ordering: .relaxed) ?? 0))]
            },
        ], signals: [
            Signal("Changed", arguments: [Argument("text", .string)]),
        ], properties: [
            Property("Label", type: .string, get: { [weak self] in .string(self?.label.withLock { $0 } ?? "") },
                     set: { [weak self] value in
                guard case .string(let text) = value else { return }
                guard !text.isEmpty else { throw DBusError.invalidArgs("Label must not be empty") }
                self?.label.withLock { $0 = text }
            }),
            Property("Calls", type: .int64, get: { [weak self] in .int64(Int64(self?.calls.load(ordering: .relaxed) ?? 0)) }),
            Property("Kind", type: .string, changeSignal: .constant, get: { .string("test") }),
        ])
    }

    /// One of every basic type plus containers, for round trips.
    static let everyType: [DBusType] = [
        .byte, .boolean, .int16, .uint16, .int32, .uint32, .int64, .uint64, .double, .string, .objectPath,
        .signature, .array(.byte), .array(.string), .dictionary(key: .string, value: .variant),
        .structure([.int32, .string]), .variant,
    ]

    /// Values of `everyType`, edge values included.
    static let everyValue: [Value] = [
        .byte(255), .boolean(true), .int16(-32768), .uint16(65535), .int32(-2_147_483_648), .uint32(4_294_967_295),
        .int64(-9_223_372_036_854_775_808), .uint64(18_446_744_073_709_551_615), .double(-1.5),
        .string("grüße ✓ \"quoted\""), .objectPath("/a/b_c/D1"), .signature("a{sv}(ii)"),
        .array(.byte, [.byte(0), .byte(1), .byte(255)]), .array(.string, [.string("x"), .string("")]),
        .dictionary(key: .string, value: .variant, [
            DictionaryEntry(.string("n"), .variant(.int32(7))),
            DictionaryEntry(.string("nested"), .variant(.variant(.array(.int64, [.int64(1), .int64(-1)])))),
        ]),
        .structure([.int32(42), .string("answer")]),
        .variant(.dictionary(key: .string, value: .array(.string), [
            DictionaryEntry(.string("k"), .array(.string, [.string("v")])),
        ])),
    ]
}
