import DBus
import QuickActionsAPI
import QuickActionsModel
import Testing
@testable import QuickActionsBroker
import QuickActionsHostProtocol

/// User info and options at the D-Bus edge.
@Suite struct ConversionTests {
    static func options(_ entries: [(String, Value)]) -> Value {
        .dictionary(key: .string, value: .variant, entries.map { DictionaryEntry(.string($0.0), .variant($0.1)) })
    }

    @Test func everyUserInfoTypeMapsToItsDocumentedSignature() {
        let info: UserInfo = [
            "s": .string("x"), "b": .bool(true), "x": .int(-5), "d": .double(1.5), "ay": .bytes([1, 2]),
            "av": .array([.int(1), .string("two")]), "a{sv}": .dictionary(["k": .bool(false)]),
        ]
        guard case .dictionary(.string, .variant, let entries) = UserInfoConversion.value(info) else {
            Issue.record("user info is not a{sv}")
            return
        }
        for entry in entries {
            guard case .string(let key) = entry.key, case .variant(let inner) = entry.value else { continue }
            #expect(inner.type.signature == key)
        }
        #expect(entries.count == info.count)
    }

    @Test func callerDataRoundTripsEveryType() throws {
        let sent: UserInfo = [
            "text": .string("hi"), "flag": .bool(false), "number": .int(Int64.min), "ratio": .double(-0.0),
            "bytes": .bytes([0, 255]), "list": .array([.array([.int(1)]), .dictionary(["a": .string("b")])]),
        ]
        let received = try UserInfoConversion.userInfo(UserInfoConversion.value(sent), option: BrokerAPI.Option.arguments)
        #expect(received == sent)
    }

    struct Refused: Sendable, CustomTestStringConvertible {
        let value: Value
        let mentions: String
        var testDescription: String { mentions }
    }

    static let refused: [Refused] = [
        Refused(value: options([("path", .objectPath("/x"))]), mentions: "arguments.path"),
        Refused(value: options([("sig", .signature("s"))]), mentions: "arguments.sig"),
        Refused(value: options([("pair", .structure([.int32(1), .int32(2)]))]), mentions: "arguments.pair"),
        Refused(value: options([("huge", .uint64(UInt64.max))]), mentions: "arguments.huge"),
        Refused(value: options([("map", .dictionary(key: .int32, value: .string, []))]), mentions: "arguments.map"),
        Refused(value: options([("deep", deep(ItemLimits.maximumUserInfoDepth))]), mentions: "arguments.deep"),
    ]

    static func deep(_ levels: Int) -> Value {
        var value = Value.array(.int32, [])
        for _ in 1..<levels { value = .array(.variant, [.variant(value)]) }
        return value
    }

    @Test(arguments: refused)
    func callerDataOfOtherTypesIsRefusedNamingTheKey(_ case_: Refused) {
        #expect {
            _ = try UserInfoConversion.userInfo(case_.value, option: BrokerAPI.Option.arguments)
        } throws: { error in
            guard let error = error as? DBusError else { return false }
            return error.name == .invalidArgs && error.message.contains(case_.mentions)
        }
    }

    @Test func userInfoAtTheDepthLimitIsAccepted() throws {
        // deep(n) is n levels by itself; inside the arguments dictionary it is one more.
        let limit = ItemLimits.maximumUserInfoDepth
        let info = try UserInfoConversion.userInfo(Self.options([("deep", Self.deep(limit - 1))]), option: BrokerAPI.Option.arguments)
        #expect(UserInfoValue.dictionary(info).depth == limit)
    }

    @Test func optionsAreTypedAndUnknownOnesIgnored() throws {
        let options = try CallOptions(Self.options([
            (BrokerAPI.Option.locale, .string("de")), (BrokerAPI.Option.limit, .uint32(2)),
            (BrokerAPI.Option.timeoutMilliseconds, .uint32(BrokerAPI.maximumTimeoutMilliseconds)),
            (BrokerAPI.Option.activationToken, .string("t")), ("future-option", .int32(1)),
        ]))
        #expect(options.locale == "de")
        #expect(options.limit == 2)
        #expect(options.timeoutMilliseconds == 600_000)
        #expect(options.activationToken == "t")
        #expect(throws: DBusError.self) {
            try CallOptions(Self.options([
                (BrokerAPI.Option.timeoutMilliseconds, .uint32(BrokerAPI.maximumTimeoutMilliseconds + 1)),
            ]))
        }
        #expect(throws: DBusError.self) { try CallOptions(Self.options([(BrokerAPI.Option.limit, .int32(2))])) }
    }
}
