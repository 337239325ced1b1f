import DBus
import Testing

/// Method dispatch and the standard errors, through our own client.
@Suite struct DispatchTests {
    @Test func roundTripsEveryTypeThroughAVariant() async throws {
        let service = try await TestService()
        let client = try service.client()
        for value in TestService.everyValue {
            let reply = try await service.call(client, "Echo", [.variant(value)])
            #expect(reply == [.variant(value)], "echo of \(value.type.signature)")
        }
    }

    @Test func roundTripsEveryTypeAsTypedArguments() async throws {
        let service = try await TestService()
        let client = try service.client()
        let reply = try await service.call(client, "EchoAll", TestService.everyValue)
        #expect(reply == TestService.everyValue)
    }

    @Test func callWithoutInterfaceIsDispatchedByMember() async throws {
        let service = try await TestService()
        let client = try service.client()
        let reply = try await service.call(client, "Echo", [.variant(.string("x"))], interface: nil)
        #expect(reply == [.variant(.string("x"))])
    }

    struct ErrorCase: Sendable, CustomTestStringConvertible {
        let path: ObjectPath
        let interface: InterfaceName?
        let member: MemberName
        let arguments: [Value]
        let expected: ErrorName
        let mentions: String
        var testDescription: String { "\(member.rawValue) → \(expected.rawValue)" }
    }

    static let errorCases: [ErrorCase] = [
        ErrorCase(path: "/nowhere", interface: TestService.interface, member: "Echo", arguments: [],
                  expected: .unknownObject, mentions: "/nowhere"),
        ErrorCase(path: TestService.path, interface: "org.example.Missing", member: "Echo", arguments: [],
                  expected: .unknownInterface, mentions: "org.example.Missing"),
        ErrorCase(path: TestService.path, interface: TestService.interface, member: "Missing", arguments: [],
                  expected: .unknownMethod, mentions: "Missing"),
        ErrorCase(path: TestService.path, interface: nil, member: "Missing", arguments: [],
                  expected: .unknownMethod, mentions: "Missing"),
        ErrorCase(path: TestService.path, interface: TestService.interface, member: "Echo", arguments: [.int32(1)],
                  expected: .invalidArgs, mentions: "\"i\""),
        ErrorCase(path: TestService.path, interface: TestService.interface, member: "Echo", arguments: [],
                  expected: .invalidArgs, mentions: "\"v\""),
        ErrorCase(path: TestService.path, interface: "org.freedesktop.DBus.Properties", member: "Get",
                  arguments: [.string(TestService.interface.rawValue), .string("Nope")],
                  expected: .unknownProperty, mentions: "Nope"),
        ErrorCase(path: TestService.path, interface: "org.freedesktop.DBus.Properties", member: "Get",
                  arguments: [.string("org.example.Other"), .string("Label")],
                  expected: .unknownInterface, mentions: "org.example.Other"),
        ErrorCase(path: TestService.path, interface: "org.freedesktop.DBus.Properties", member: "Set",
                  arguments: [.string(TestService.interface.rawValue), .string("Calls"), .variant(.int64(1))],
                  expected: .propertyReadOnly, mentions: "Calls"),
        ErrorCase(path: TestService.path, interface: "org.freedesktop.DBus.Properties", member: "Set",
                  arguments: [.string(TestService.interface.rawValue), .string("Label"), .variant(.int32(1))],
                  expected: .invalidArgs, mentions: "Label"),
        ErrorCase(path: TestService.path, interface: TestService.interface, member: "Fail",
                  arguments: [.string("org.quickactions.Test.Error.Custom"), .string("custom message")],
                  expected: "org.quickactions.Test.Error.Custom", mentions: "custom message"),
        ErrorCase(path: TestService.path, interface: TestService.interface, member: "WrongReply", arguments: [],
                  expected: .failed, mentions: "\"i\""),
        ErrorCase(path: TestService.path, interface: TestService.interface, member: "Forget", arguments: [],
                  expected: .noReply, mentions: "Forget"),
    ]

    @Test(arguments: errorCases)
    func answersWithTheStandardError(_ errorCase: ErrorCase) async throws {
        let service = try await TestService()
        let client = try service.client()
        do {
            let reply = try await service.call(client, errorCase.member, errorCase.arguments,
                                               interface: errorCase.interface, path: errorCase.path)
            Issue.record("expected \(errorCase.expected.rawValue), got reply \(reply)")
        } catch {
            #expect(error.name == errorCase.expected)
            #expect(error.message.contains(errorCase.mentions), "message: \(error.message)")
        }
        // The service keeps serving after every error.
        let reply = try await service.call(client, "Echo", [.variant(.boolean(true))])
        #expect(reply == [.variant(.boolean(true))])
    }

    @Test func aSlowAsyncHandlerDoesNotStallTheLoop() async throws {
        let service = try await TestService()
        let client = try service.client()
        let order = OrderLog()
        async let slow: Void = {
            _ = try await service.call(client, "Slow", [.uint32(1500)])
            await order.append("slow")
        }()
        try await Task.sleep(for: .milliseconds(100))
        _ = try await service.call(client, "Echo", [.variant(.string("fast"))])
        await order.append("fast")
        try await slow
        #expect(await order.entries == ["fast", "slow"])
    }

    @Test func introspectionListsMethodsArgumentsAndChildren() async throws {
        let service = try await TestService()
        try service.server.export([], at: "/org/quickactions/Test/child")
        let client = try service.client()
        let reply = try await service.call(client, "Introspect", interface: "org.freedesktop.DBus.Introspectable")
        guard case .string(let xml)? = reply.first else {
            Issue.record("Introspect returned \(reply)")
            return
        }
        #expect(xml.contains("<interface name=\"org.quickactions.Test1\">"))
        #expect(xml.contains("<arg name=\"milliseconds\" type=\"u\" direction=\"in\"/>"))
        #expect(xml.contains("<property name=\"Label\" type=\"s\" access=\"readwrite\">"))
        #expect(xml.contains("<interface name=\"org.freedesktop.DBus.ObjectManager\">"))
        #expect(xml.contains("<node name=\"child\"/>"))
        // The root is an intermediate node that leads to the object.
        let root = try await service.call(client, "Introspect", interface: "org.freedesktop.DBus.Introspectable",
                                          path: .root)
        #expect(root.first?.string?.contains("<node name=\"org\"/>") == true)
    }
}

actor OrderLog {
    private(set) var entries: [String] = []
    func append(_ entry: String) { entries.append(entry) }
}
