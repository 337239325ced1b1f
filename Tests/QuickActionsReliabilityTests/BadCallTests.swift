import DBus
import Foundation
import QuickActionsAPI
import QuickActionsBundles
import QuickActionsModel
import QuickActionsTestSupport
import Testing

/// Issue 7 item 4, through our own binding (it can express every input the
/// bus lets through): bad input on every method gets InvalidArgs or the
/// documented error, with a message naming the value; the broker keeps
/// serving after each one. ListingTests already covers one bad call per
/// kind; these tables go through every method and every option.
@Suite(.serialized) struct BadCallTests {
    static let rootInterface = BrokerAPI.interface
    static let appInterface = BrokerAPI.applicationInterface
    static let properties = BrokerAPI.properties
    static let appPath = BrokerAPI.appPath("org.example.fast1")
    static let long = String(repeating: "n", count: 256)
    /// How an error names `long`: a bounded prefix and its length, never the whole value.
    static let longQuoted = "\"\(String(repeating: "n", count: 64))…\" (256 bytes)"

    struct BadCall: Sendable, CustomStringConvertible {
        var path: ObjectPath = BrokerClient.root
        var interface: InterfaceName = BadCallTests.rootInterface
        var member: MemberName
        var arguments: [Value]
        var error: ErrorName
        /// What the error message must name.
        var mentions: [String]

        var description: String {
            "\(interface.rawValue).\(member.rawValue)(\(arguments.map(\.type.signature).joined(separator: ", "))) at \(path.rawValue)"
        }
    }

    static let none = BrokerClient.options()
    static func with(_ key: String, _ value: Value) -> Value { BrokerClient.options([(key, value)]) }
    static func nested(_ value: Value, variants: Int) -> Value {
        (0..<variants).reduce(value) { inner, _ in .variant(inner) }
    }

    /// Every method with arguments of the wrong signature: the binding names
    /// the signature it wants and the one it got.
    static let wrongSignatures: [BadCall] = [
        BadCall(member: BrokerAPI.Member.listApplications, arguments: [.string("x")], error: .invalidArgs, mentions: ["\"\"", "\"s\""]),
        BadCall(member: BrokerAPI.Member.getItems, arguments: [.string("org.example.fast1")], error: .invalidArgs, mentions: ["sa{sv}", "\"s\""]),
        BadCall(member: BrokerAPI.Member.getItems, arguments: [.string("org.example.fast1"), .string("x")], error: .invalidArgs,
                mentions: ["sa{sv}", "\"ss\""]),
        BadCall(member: BrokerAPI.Member.getItems, arguments: [.string("org.example.fast1"), none, .string("x")], error: .invalidArgs,
                mentions: ["sa{sv}", "sa{sv}s"]),
        BadCall(member: BrokerAPI.Member.getItems, arguments: [.int32(1), none], error: .invalidArgs, mentions: ["sa{sv}", "ia{sv}"]),
        BadCall(member: BrokerAPI.Member.getAllItems, arguments: [], error: .invalidArgs, mentions: ["a{sv}", "\"\""]),
        BadCall(member: BrokerAPI.Member.getAllItems, arguments: [.dictionary(key: .string, value: .string, [])], error: .invalidArgs,
                mentions: ["a{sv}", "a{ss}"]),
        BadCall(member: BrokerAPI.Member.perform, arguments: [.string("org.example.fast1"), .string("fast")], error: .invalidArgs,
                mentions: ["ssa{sv}", "\"ss\""]),
        BadCall(member: BrokerAPI.Member.perform, arguments: [.string("org.example.fast1"), .string("fast"), .string("x")],
                error: .invalidArgs, mentions: ["ssa{sv}", "sss"]),
        BadCall(member: BrokerAPI.Member.perform, arguments: [.string("org.example.fast1"), .string("fast"),
                                               .dictionary(key: .string, value: .string, [])],
                error: .invalidArgs, mentions: ["ssa{sv}", "ssa{ss}"]),
        BadCall(member: BrokerAPI.Member.reload, arguments: [.uint32(1)], error: .invalidArgs, mentions: ["\"\"", "\"u\""]),
        BadCall(path: appPath, interface: appInterface, member: BrokerAPI.Member.perform, arguments: [.string("fast")],
                error: .invalidArgs, mentions: ["sa{sv}", "\"s\""]),
        BadCall(path: appPath, interface: appInterface, member: BrokerAPI.Member.perform,
                arguments: [.string("org.example.fast1"), .string("fast"), none], error: .invalidArgs,
                mentions: ["sa{sv}", "ssa{sv}"]),
        BadCall(interface: properties, member: "Get", arguments: [.string(BrokerAPI.interface.rawValue)],
                error: .invalidArgs, mentions: ["ss", "\"s\""]),
        BadCall(interface: properties, member: "GetAll", arguments: [.uint32(1)], error: .invalidArgs, mentions: ["\"u\""]),
        BadCall(interface: properties, member: "Set", arguments: [.string(BrokerAPI.interface.rawValue), .string(BrokerAPI.Property.version)],
                error: .invalidArgs, mentions: ["ssv", "\"ss\""]),
        BadCall(interface: "org.freedesktop.DBus.Introspectable", member: "Introspect", arguments: [.string("x")],
                error: .invalidArgs, mentions: ["\"s\""]),
        BadCall(interface: "org.freedesktop.DBus.ObjectManager", member: "GetManagedObjects", arguments: [.boolean(true)],
                error: .invalidArgs, mentions: ["\"b\""]),
    ]

    /// Every option of the wrong type (or out of range) on every method that takes options.
    static let wrongOptions: [BadCall] = {
        let bad: [(String, Value)] = [
            (BrokerAPI.Option.locale, .uint32(3)), (BrokerAPI.Option.locale, nested(.string("de"), variants: 2)), (BrokerAPI.Option.limit, .string("3")),
            (BrokerAPI.Option.limit, .int32(3)), (BrokerAPI.Option.timeoutMilliseconds, .int32(5)), (BrokerAPI.Option.timeoutMilliseconds, .uint32(0)), (BrokerAPI.Option.timeoutMilliseconds, .uint32(BrokerAPI.maximumTimeoutMilliseconds + 1)),
            (BrokerAPI.Option.arguments, .string("x")), (BrokerAPI.Option.arguments, .array(.string, [.string("x")])),
            (BrokerAPI.Option.arguments, .dictionary(key: .uint32, value: .variant, [])), (BrokerAPI.Option.activationToken, .boolean(true)),
        ]
        var calls: [BadCall] = []
        for (key, value) in bad {
            let options = with(key, value)
            calls.append(BadCall(member: BrokerAPI.Member.getItems, arguments: [.string("org.example.fast1"), options],
                                 error: .invalidArgs, mentions: [key]))
            calls.append(BadCall(member: BrokerAPI.Member.getAllItems, arguments: [options], error: .invalidArgs, mentions: [key]))
            calls.append(BadCall(member: BrokerAPI.Member.perform, arguments: [.string("org.example.fast1"), .string("fast"), options],
                                 error: .invalidArgs, mentions: [key]))
            calls.append(BadCall(path: appPath, interface: appInterface, member: BrokerAPI.Member.perform,
                                 arguments: [.string("fast"), options], error: .invalidArgs, mentions: [key]))
        }
        return calls
    }()

    /// Empty and 256-byte names where the API takes names (a member name
    /// is 255 bytes at most on the bus, so the longest one there).
    static func names() throws -> [BadCall] { [
        BadCall(member: BrokerAPI.Member.getItems, arguments: [.string(""), none], error: BrokerAPI.ErrorNames.unknownApplication,
                mentions: ["\"\""]),
        BadCall(member: BrokerAPI.Member.getItems, arguments: [.string(long), none], error: BrokerAPI.ErrorNames.unknownApplication,
                mentions: [longQuoted]),
        BadCall(member: BrokerAPI.Member.perform, arguments: [.string(""), .string("fast"), none],
                error: BrokerAPI.ErrorNames.unknownApplication, mentions: ["\"\""]),
        BadCall(member: BrokerAPI.Member.perform, arguments: [.string(long), .string("fast"), none],
                error: BrokerAPI.ErrorNames.unknownApplication, mentions: [longQuoted]),
        BadCall(member: BrokerAPI.Member.perform, arguments: [.string("org.example.fast1"), .string(""), none],
                error: BrokerAPI.ErrorNames.unknownItem, mentions: ["\"\"", "org.example.fast1"]),
        BadCall(member: BrokerAPI.Member.perform, arguments: [.string("org.example.fast1"), .string(long), none],
                error: BrokerAPI.ErrorNames.unknownItem, mentions: [longQuoted]),
        BadCall(path: appPath, interface: appInterface, member: BrokerAPI.Member.perform, arguments: [.string(""), none],
                error: BrokerAPI.ErrorNames.unknownItem, mentions: ["\"\""]),
        BadCall(path: appPath, interface: appInterface, member: BrokerAPI.Member.perform, arguments: [.string(long), none],
                error: BrokerAPI.ErrorNames.unknownItem, mentions: [longQuoted]),
        BadCall(path: try ObjectPath("\(BrokerAPI.appsPath.rawValue)/\(long)"), interface: appInterface,
                member: BrokerAPI.Member.perform, arguments: [.string("fast"), none], error: .unknownObject,
                mentions: ["\(BrokerAPI.appsPath.rawValue)/\(long)".quoted()]),
        BadCall(interface: properties, member: "Get", arguments: [.string(BrokerAPI.interface.rawValue), .string("")],
                error: .unknownProperty, mentions: ["\"\""]),
        BadCall(interface: properties, member: "Get", arguments: [.string(BrokerAPI.interface.rawValue), .string(long)],
                error: .unknownProperty, mentions: [longQuoted]),
        BadCall(interface: properties, member: "Get", arguments: [.string(""), .string(BrokerAPI.Property.version)],
                error: .unknownInterface, mentions: ["\"\""]),
        BadCall(interface: properties, member: "GetAll", arguments: [.string(long)], error: .unknownInterface,
                mentions: [longQuoted]),
        BadCall(interface: properties, member: "Set",
                arguments: [.string(BrokerAPI.interface.rawValue), .string(BrokerAPI.Property.version), .variant(.string("9"))],
                error: .propertyReadOnly, mentions: [BrokerAPI.Property.version]),
        BadCall(interface: properties, member: "Set",
                arguments: [.string(BrokerAPI.interface.rawValue), .string(BrokerAPI.Property.pendingPerforms), .variant(.uint32(0))],
                error: .propertyReadOnly, mentions: [BrokerAPI.Property.pendingPerforms]),
        BadCall(member: try MemberName(String(long.dropLast())), arguments: [], error: .unknownMethod,
                mentions: [String(long.dropLast())]),
    ] }

    /// Nesting at the bus's limit of 64 containers, variants included.
    static let deep: [BadCall] = [
        // a{sv} is two containers, so 62 variants make 64.
        BadCall(member: BrokerAPI.Member.getItems, arguments: [.string("org.example.fast1"),
                                                 with(BrokerAPI.Option.locale, nested(.string("de"), variants: 61))],
                error: .invalidArgs, mentions: [BrokerAPI.Option.locale, "\"v\""]),
        BadCall(member: BrokerAPI.Member.perform, arguments: [.string("org.example.fast1"), .string("fast"),
                                                with(BrokerAPI.Option.timeoutMilliseconds, nested(.uint32(5), variants: 61))],
                error: .invalidArgs, mentions: [BrokerAPI.Option.timeoutMilliseconds, "\"v\""]),
        BadCall(member: BrokerAPI.Member.perform, arguments: [.string("org.example.fast1"), .string("fast"),
                                                with(BrokerAPI.Option.activationToken, nested(.string("t"), variants: 61))],
                error: .invalidArgs, mentions: [BrokerAPI.Option.activationToken, "\"v\""]),
        BadCall(member: BrokerAPI.Member.perform, arguments: [.string("org.example.fast1"), .string("fast"),
                                                with(BrokerAPI.Option.arguments, nested(.string("x"), variants: 61))],
                error: .invalidArgs, mentions: [BrokerAPI.Option.arguments]),
    ]

    static func check(_ table: [BadCall], _ client: BrokerClient) async throws {
        for bad in table {
            let message = try Message.methodCall(destination: BrokerClient.broker, path: bad.path,
                                                 interface: bad.interface, member: bad.member)
            try message.append(bad.arguments)
            do {
                let reply = try await client.connection.call(message, timeout: .seconds(30))
                Issue.record("\(bad): expected \(bad.error.rawValue), got a reply \(try reply.arguments())")
            } catch {
                #expect(error.name == bad.error, "\(bad): \(error)")
                for needle in bad.mentions {
                    #expect(error.message.contains(needle), "\(bad): the message does not name \(needle.prefix(40)): \(error.message)")
                }
            }
            #expect(try await client.applicationIDs() == ["org.example.fast1", "org.example.swift"],
                    "the broker still serves after \(bad)")
        }
    }

    @Test func everyMethodRefusesArgumentsOfTheWrongSignature() async throws {
        let harness = try await BrokerHarness(bundles: [Apps.fast("org.example.fast1"), Apps.swift])
        defer { harness.stop() }
        try await Self.check(Self.wrongSignatures, try BrokerClient(harness))
    }

    @Test func everyOptionOfTheWrongTypeIsRefusedByEveryMethodNamingIt() async throws {
        let harness = try await BrokerHarness(bundles: [Apps.fast("org.example.fast1"), Apps.swift])
        defer { harness.stop() }
        try await Self.check(Self.wrongOptions, try BrokerClient(harness))
    }

    @Test func emptyAndLongNamesGetTheDocumentedErrorNamingThem() async throws {
        let harness = try await BrokerHarness(bundles: [Apps.fast("org.example.fast1"), Apps.swift])
        defer { harness.stop() }
        try await Self.check(try Self.names(), try BrokerClient(harness))
    }

    @Test func variantsNested64DeepAreReadAndRefusedWhereTheTypeIsWrong() async throws {
        let harness = try await BrokerHarness(bundles: [Apps.fast("org.example.fast1"), Apps.swift])
        defer { harness.stop() }
        let client = try BrokerClient(harness)
        try await Self.check(Self.deep, client)
        // An unknown option nested as deep is ignored.
        let items = try await client.call(BrokerAPI.Member.getItems, [.string("org.example.fast1"),
                                                      Self.with("x-unknown", Self.nested(.string("?"), variants: 61))])
        #expect(items.first?.array?.count == Apps.fast("org.example.fast1").items.count)
        // Variants inside `arguments` are looked through, at the bus's depth limit:
        // options a{sv} v, arguments a{sv} v: six containers, 58 more variants.
        let arguments = BrokerClient.options([("deep", Self.nested(.int32(7), variants: 57))])
        let echoed = try await client.perform("org.example.swift", "echo-items", Self.with(BrokerAPI.Option.arguments, arguments))
        #expect(echoed.success, "\(echoed)")
        let stored = try await client.items("org.example.swift").last
        #expect(stored?["user-info"]?.dictionary?[.string("deep")]?.unwrappedVariant == .int64(7), "\(String(describing: stored))")
        // One variant more is past the bus's limit: our binding will not even send it.
        #expect(throws: DBusError.self) {
            try Message.methodCall(destination: BrokerClient.broker, path: BrokerClient.root,
                                   interface: Self.rootInterface, member: BrokerAPI.Member.getItems)
                .append([.string("org.example.fast1"), Self.with(BrokerAPI.Option.locale, Self.nested(.string("de"), variants: 62))])
        }
    }

    /// `arguments` may be 64 KiB encoded (the store's encoding of the whole
    /// dictionary, keys and framing included, as user info is counted): at
    /// the limit it reaches the plugin, one byte more is refused naming the size.
    @Test func argumentsPast64KiBAreRefusedNamingTheirSize() async throws {
        let harness = try await BrokerHarness(bundles: [Apps.fast("org.example.fast1"), Apps.swift])
        defer { harness.stop() }
        let client = try BrokerClient(harness)
        let limit = ItemLimits.maximumUserInfoBytes
        let overhead = DynamicItemCoder.encodedSize(of: .dictionary(["blob": .bytes([])]))
        func arguments(_ bytes: Int) -> Value {
            Self.with(BrokerAPI.Option.arguments, BrokerClient.options([("blob", .array(.byte, Array(repeating: .byte(7), count: bytes)))]))
        }
        let atLimit = try await client.perform("org.example.fast1", "fast", arguments(limit - overhead))
        #expect(atLimit.success)
        do {
            let reply = try await client.perform("org.example.fast1", "fast", arguments(limit - overhead + 1))
            Issue.record("arguments of \(limit + 1) bytes were accepted: \(reply)")
        } catch {
            #expect(error.name == .invalidArgs)
            #expect(error.message.contains("\"arguments\" is \(limit + 1) bytes"), "\(error.message)")
        }
        #expect(try await client.applicationIDs().count == 2)
    }
}
