import DBus
import Foundation
import QuickActionsTestSupport
import Testing

/// Methods declared with Swift types, called by clients written by others
/// (busctl, gdbus, python3's dbus) on a private bus.
@Suite struct TypedMethodTests {
    /// EchoEvery's arguments as busctl takes them; the same values as
    /// TestService.everyValue, which `expectedEvery` holds as decoded.
    static let busctlEvery = ClientToolsTests.busctlArguments

    /// What EchoEvery's handler must have decoded from those arguments (its
    /// dictionary sorted by key, as TypedService records it).
    static var expectedEvery: [Value] {
        var values = TestService.everyValue
        values[14] = .dictionary(key: .string, value: .variant, [
            DictionaryEntry(.string("n"), .variant(.int32(7))),
            DictionaryEntry(.string("nested"), .variant(.variant(.array(.int64, [.int64(1), .int64(-1)])))),
        ])
        return values
    }

    @Test func busctlRoundTripsEveryTypeThroughATypedMethod() async throws {
        let service = try await TypedService()
        let result = try await Command.run("busctl", [
            "--address=\(service.bus.address)", "--json=short", "call", "--",
            TypedService.name.rawValue, TypedService.path.rawValue, TypedService.interfaceName.rawValue, "EchoEvery",
        ] + Self.busctlEvery)
        #expect(result.status == 0, "\(result)")
        #expect(service.lastEvery.withLock { $0 } == Self.expectedEvery)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(json["type"] as? String == "ybnqiuxtdsogayasa{sv}(is)v")
        let data = try #require(json["data"] as? [Any])
        #expect(data.count == 17)
        #expect(data[safe: 0] as? Int == 255)
        #expect(data[safe: 1] as? Bool == true)
        #expect(data[safe: 2] as? Int == -32768)
        #expect(data[safe: 3] as? Int == 65535)
        #expect(data[safe: 4] as? Int == -2_147_483_648)
        #expect(data[safe: 5] as? Int == 4_294_967_295)
        #expect(data[safe: 6] as? Int64 == Int64.min)
        #expect((data[safe: 7] as? NSNumber)?.uint64Value == UInt64.max)
        #expect(data[safe: 8] as? Double == -1.5)
        #expect(data[safe: 9] as? String == "grüße ✓ \"quoted\"")
        #expect(data[safe: 10] as? String == "/a/b_c/D1")
        #expect(data[safe: 11] as? String == "a{sv}(ii)")
        #expect(data[safe: 12] as? [Int] == [0, 1, 255])
        #expect(data[safe: 13] as? [String] == ["x", ""])
        let dictionary = try #require(data[safe: 14] as? [String: Any])
        #expect((dictionary["n"] as? [String: Any])?["data"] as? Int == 7)
        #expect((dictionary["nested"] as? [String: Any])?["type"] as? String == "v")
        let structure = data[safe: 15] as? [Any]
        #expect(structure?.first as? Int == 42)
        #expect(structure?.last as? String == "answer")
        let variant = try #require(data[safe: 16] as? [String: Any])
        #expect(variant["type"] as? String == "a{sas}")
        #expect((variant["data"] as? [String: Any])?["k"] as? [String] == ["v"])
    }

    @Test func gdbusRoundTripsEveryTypeThroughATypedMethod() async throws {
        let service = try await TypedService()
        let result = try await Command.run("gdbus", [
            "call", "--address", service.bus.address, "--dest", TypedService.name.rawValue,
            "--object-path", TypedService.path.rawValue, "--method", "\(TypedService.interfaceName.rawValue).EchoEvery",
            "--", "255", "true", "-32768", "65535", "-2147483648", "4294967295",
            "-9223372036854775808", "18446744073709551615", "-1.5",
            "'grüße ✓ \"quoted\"'", "'/a/b_c/D1'", "'a{sv}(ii)'", "[0, 1, 255]", "['x', '']",
            "{'n': <int32 7>, 'nested': <<[int64 1, -1]>>}", "(42, 'answer')", "<{'k': ['v']}>",
        ])
        #expect(result.status == 0, "\(result)")
        #expect(service.lastEvery.withLock { $0 } == Self.expectedEvery)
        // The reply's dictionary comes out in the Swift dictionary's order.
        let head = "(byte 0xff, true, int16 -32768, uint16 65535, -2147483648, uint32 4294967295, "
            + "int64 -9223372036854775808, uint64 18446744073709551615, -1.5, 'grüße ✓ \"quoted\"', "
            + "objectpath '/a/b_c/D1', signature 'a{sv}(ii)', [byte 0x00, 0x01, 0xff], ['x', ''], "
        let tail = ", (42, 'answer'), <{'k': ['v']}>)"
        let orders = ["{'n': <7>, 'nested': <<[int64 1, -1]>>}", "{'nested': <<[int64 1, -1]>>, 'n': <7>}"]
        let printed = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(orders.map { head + $0 + tail }.contains(printed), "\(printed)")
    }

    @Test func pythonDbusRoundTripsEveryAndNestedTypesThroughTypedMethods() async throws {
        let service = try await TypedService()
        let script = """
            import sys, dbus
            bus = dbus.SessionBus()
            typed = dbus.Interface(bus.get_object("org.quickactions.Typed", "/org/quickactions/Typed"),
                                   "org.quickactions.Typed1")
            every = [
                dbus.Byte(255), dbus.Boolean(True), dbus.Int16(-32768), dbus.UInt16(65535),
                dbus.Int32(-2147483648), dbus.UInt32(4294967295),
                dbus.Int64(-9223372036854775808), dbus.UInt64(18446744073709551615),
                dbus.Double(-1.5), dbus.String("grüße ✓ \\"quoted\\""), dbus.ObjectPath("/a/b_c/D1"),
                dbus.Signature("a{sv}(ii)"),
                dbus.Array([dbus.Byte(0), dbus.Byte(1), dbus.Byte(255)], signature="y"),
                dbus.Array(["x", ""], signature="s"),
                dbus.Dictionary({"n": dbus.Int32(7, variant_level=1),
                                 "nested": dbus.Array([dbus.Int64(1), dbus.Int64(-1)], signature="x", variant_level=2)},
                                signature="sv"),
                dbus.Struct((dbus.Int32(42), "answer"), signature="is"),
                dbus.Dictionary({"k": dbus.Array(["v"], signature="s")}, signature="sas", variant_level=1),
            ]
            reply = typed.EchoEvery(*every, signature="ybnqiuxtdsogayasa{sv}(is)v")
            for index, (sent, got) in enumerate(zip(every, reply)):
                if sent != got or type(sent) is not type(got):
                    sys.exit(f"EchoEvery value {index}: sent {sent!r}, got {got!r}")
            if len(reply) != len(every):
                sys.exit(f"EchoEvery returned {len(reply)} values")
            item = dbus.Dictionary({"title": dbus.String("Call", variant_level=1),
                                    "rank": dbus.UInt32(3, variant_level=1)}, signature="sv")
            nested = [
                dbus.Array([item, dbus.Dictionary({}, signature="sv")], signature="a{sv}"),
                dbus.Array([dbus.Struct(("app", dbus.Array([item], signature="a{sv}")), signature="saa{sv}"),
                            dbus.Struct(("empty", dbus.Array([], signature="a{sv}")), signature="saa{sv}")],
                           signature="(saa{sv})"),
                dbus.Dictionary({"a": dbus.Array(["1", "2"], signature="s"), "b": dbus.Array([], signature="s")},
                                signature="sas"),
                dbus.Dictionary({dbus.Int32(-1): "minus", dbus.Int32(2): "two"}, signature="is"),
                dbus.Int64(-9007199254740993),
            ]
            got = typed.EchoNested(*nested, signature="aa{sv}a(saa{sv})a{sas}a{is}x")
            for index, (sent, back) in enumerate(zip(nested, got)):
                if sent != back:
                    sys.exit(f"EchoNested value {index}: sent {sent!r}, got {back!r}")
            success, result = typed.Perform("org.example.app", "compose", {"a": dbus.UInt32(1, variant_level=1)})
            if success != True or type(success) is not dbus.Boolean or result != {"app": "org.example.app", "type": "compose", "options": 1}:
                sys.exit(f"Perform: {success!r} {result!r}")
            print("ok")
            """
        let result = try await Command.run("/usr/bin/python3", ["-c", script], environment: service.environment)
        #expect(result.status == 0 && result.stdout == "ok\n", "\(result)")
        #expect(service.lastEvery.withLock { $0 } == Self.expectedEvery)
        let item = Value.dictionary(key: .string, value: .variant, [
            DictionaryEntry(.string("rank"), .variant(.uint32(3))), DictionaryEntry(.string("title"), .variant(.string("Call"))),
        ])
        let nested = service.lastNested.withLock { $0 }.map(SampleValues.normalized)
        let listingsType = DBusType.dictionary(key: .string, value: .variant)
        let empty = Value.dictionary(key: .string, value: .variant, [])
        #expect(nested == [
            .array(listingsType, [item, empty]),
            .array(.structure([.string, .array(listingsType)]), [
                .structure([.string("app"), .array(listingsType, [item])]),
                .structure([.string("empty"), .array(listingsType, [])]),
            ]),
            .dictionary(key: .string, value: .array(.string), [
                DictionaryEntry(.string("a"), .array(.string, [.string("1"), .string("2")])),
                DictionaryEntry(.string("b"), .array(.string, [])),
            ]),
            .dictionary(key: .int32, value: .string, [
                DictionaryEntry(.int32(-1), .string("minus")), DictionaryEntry(.int32(2), .string("two")),
            ]),
            .int64(-9_007_199_254_740_993),
        ].map(SampleValues.normalized))
    }

    struct WrongCall: Sendable, CustomStringConvertible {
        let member: String
        let arguments: [String]
        let declared: String
        var description: String { "\(member)(\(arguments.first ?? ""))" }
    }

    static let wrongCalls: [WrongCall] = [
        WrongCall(member: "Perform", arguments: ["ss", "a", "b"], declared: "ssa{sv}"),
        WrongCall(member: "Perform", arguments: ["ssa{ss}", "a", "b", "0"], declared: "ssa{sv}"),
        WrongCall(member: "Later", arguments: ["i", "5"], declared: "u"),
        WrongCall(member: "Nothing", arguments: ["s", "extra"], declared: ""),
        WrongCall(member: "EchoNested", arguments: ["aa{sv}", "0"], declared: "aa{sv}a(saa{sv})a{sas}a{is}x"),
    ]

    @Test(arguments: wrongCalls)
    func aWrongSignatureIsRefusedWithInvalidArgsNamingBoth(_ call: WrongCall) async throws {
        let service = try await TypedService()
        let result = try await Command.run("busctl", [
            "--address=\(service.bus.address)", "call", "--",
            TypedService.name.rawValue, TypedService.path.rawValue, TypedService.interfaceName.rawValue, call.member,
        ] + call.arguments)
        #expect(result.status != 0, "\(result)")
        // busctl prints the error's message; the name it maps to EINVAL ("Invalid argument").
        #expect(result.stderr.contains("\"\(call.declared)\"") && result.stderr.contains("\"\(call.arguments[0])\""),
                "\(result)")
        let client = try service.client()
        defer { client.close() }
        let message = try Message.methodCall(
            destination: TypedService.name, path: TypedService.path, interface: TypedService.interfaceName,
            member: try MemberName(call.member))
        try message.append(try Signature(call.arguments[0]).types.map { SampleValues.value(of: $0) })
        let error = await #expect(throws: DBusError.self) { _ = try await client.call(message) }
        #expect(error?.name == .invalidArgs, "\(String(describing: error))")
        #expect(error?.message.contains("\"\(call.declared)\"") == true, "\(String(describing: error))")
    }

    @Test func aDictionaryWithAKeyTwiceIsRefusedNamingTheKey() async throws {
        // GVariant's a{sv} may carry a key twice (the wire format allows it); a Swift dictionary cannot.
        let service = try await TypedService()
        let result = try await Command.run("gdbus", [
            "call", "--address", service.bus.address, "--dest", TypedService.name.rawValue,
            "--object-path", TypedService.path.rawValue, "--method", "\(TypedService.interfaceName.rawValue).Perform",
            "--", "'app'", "'type'", "{'twice': <1>, 'twice': <2>}",
        ])
        #expect(result.status != 0, "\(result)")
        #expect(result.stderr.contains("org.freedesktop.DBus.Error.InvalidArgs"), "\(result)")
        #expect(result.stderr.contains("\"twice\" twice") && result.stderr.contains("Perform"), "\(result)")
    }

    @Test func deferredAndAsyncHandlersAnswerWithTheirTypedOutputs() async throws {
        let service = try await TypedService()
        let client = try service.client()
        defer { client.close() }
        let later = try await client.call(
            destination: TypedService.name, path: TypedService.path, interface: TypedService.interfaceName,
            member: "Later", [.uint32(20)])
        #expect(later == [.string("worker"), .uint32(20)])
        let slow = try await client.call(
            destination: TypedService.name, path: TypedService.path, interface: TypedService.interfaceName,
            member: "Slow", [.uint32(10)])
        #expect(slow == [.boolean(true)])
        let nothing = try await client.call(
            destination: TypedService.name, path: TypedService.path, interface: TypedService.interfaceName,
            member: "Nothing", [])
        #expect(nothing == [])
        let sender = try await client.call(
            destination: TypedService.name, path: TypedService.path, interface: TypedService.interfaceName,
            member: "Sender", [])
        #expect(sender == [.string(client.uniqueName)])
    }

    @Test func aHandlersErrorAndAnUnsendableReplyBecomeErrorReplies() async throws {
        let service = try await TypedService()
        let client = try service.client()
        defer { client.close() }
        let custom = await #expect(throws: DBusError.self) {
            _ = try await client.call(
                destination: TypedService.name, path: TypedService.path, interface: TypedService.interfaceName,
                member: "Fail", [.string("org.quickactions.Test.Error.Custom"), .string("told you")])
        }
        #expect(custom == DBusError(try ErrorName("org.quickactions.Test.Error.Custom"), "told you"))
        let nul = await #expect(throws: DBusError.self) {
            _ = try await client.call(
                destination: TypedService.name, path: TypedService.path, interface: TypedService.interfaceName,
                member: "NulReply", [])
        }
        #expect(nul?.name == .invalidArgs && nul?.message.contains("NulReply") == true
                && nul?.message.contains("before") == true, "\(String(describing: nul))")
        // A variant nested past D-Bus's 64 containers, inside typed arrays: refused, not sent to libdbus.
        let deep = await #expect(throws: DBusError.self) {
            _ = try await client.call(
                destination: TypedService.name, path: TypedService.path, interface: TypedService.interfaceName,
                member: "DeepVariant", [.uint32(63)])
        }
        #expect(deep?.name == .invalidArgs, "\(String(describing: deep))")
        let fine = try await client.call(
            destination: TypedService.name, path: TypedService.path, interface: TypedService.interfaceName,
            member: "DeepVariant", [.uint32(3)])
        #expect(fine == [.array(.array(.variant), [.array(.variant, [.variant(.variant(.variant(.variant(.string("bottom")))))])])])
        // The service still answers.
        let sender = try await client.call(
            destination: TypedService.name, path: TypedService.path, interface: TypedService.interfaceName,
            member: "Sender", [])
        #expect(sender == [.string(client.uniqueName)])
    }

    @Test func theProofHoldsForEveryTypedMethod() async throws {
        let bus = try await TestBus()
        defer { bus.stop() }
        let problems = try await InterfaceProof.problems(TypedService.makeInterface(nil), bus: bus)
        #expect(problems == [])
    }

    @Test func theProofNamesEveryMethodWhoseHandlerDecodesValues() async throws {
        let bus = try await TestBus()
        defer { bus.stop() }
        // Declared "s", but the handler reads an int32: exactly the drift typed methods rule out.
        let untyped = Interface("org.quickactions.Untyped1", methods: [
            Method("Echo", inputs: [Argument("value", .variant)], outputs: [Argument("value", .variant)]) { call in
                call.arguments
            },
            Method("Drifted", inputs: [Argument("name", .string)]) { call in
                guard case .int32? = call.arguments.first else { throw DBusError.invalidArgs("not an int32") }
                return []
            },
        ])
        let problems = try await InterfaceProof.problems(untyped, bus: bus)
        #expect(problems == [
            "org.quickactions.Untyped1.Echo: its handler decodes [Value] by hand, not the declared types",
            "org.quickactions.Untyped1.Drifted: its handler decodes [Value] by hand, not the declared types",
        ])
    }
}
