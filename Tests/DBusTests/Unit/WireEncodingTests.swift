@testable import DBus
import Testing

/// `WireEncoding`, the byte writer behind `PreparedReply([Value])`: its body is byte for byte
/// the one libdbus's `DBusMessageIter` writes for the same values, libdbus reads it back as
/// those values, and what libdbus would refuse falls back to libdbus's own encoding and error.
@Suite struct WireEncodingTests {
    /// The body of a message as libdbus marshals it: after the 16 fixed header bytes and the
    /// header fields (their length at offset 12), padded to 8.
    static func body(of message: Message) throws -> [UInt8] {
        let bytes = try message.marshalled()
        let fields = Int(bytes[12]) | Int(bytes[13]) << 8 | Int(bytes[14]) << 16 | Int(bytes[15]) << 24
        let start = (16 + fields + 7) / 8 * 8
        return Array(bytes[start...])
    }

    /// `values` encoded by libdbus, value by value (in a method call: a body is a body).
    static func libdbusBody(_ values: [Value]) throws -> [UInt8] {
        let call = try Message.methodCall(destination: nil, path: "/t", interface: "org.quickactions.T", member: "M")
        try call.append(values)
        return try body(of: call)
    }

    static let item: Value = .dictionary(key: .string, value: .variant, [
        DictionaryEntry(.string("id"), .variant(.string("org.example.Editor/new-window"))),
        DictionaryEntry(.string("title"), .variant(.string("Neues Fenster — ünïcødé"))),
        DictionaryEntry(.string("user-info"), .variant(.dictionary(key: .string, value: .variant, [
            DictionaryEntry(.string("uri"), .variant(.string("file:///home/mia/a.txt"))),
            DictionaryEntry(.string("count"), .variant(.int64(-3))),
        ]))),
    ])

    static let cases: [(String, [Value])] = [
        ("no values", []),
        ("every basic type, each after a byte that misaligns it", [
            .byte(7), .boolean(true), .byte(1), .int16(-2), .byte(1), .uint16(3), .byte(1), .int32(-4), .byte(1),
            .uint32(5), .byte(1), .int64(-6), .byte(1), .uint64(7), .byte(1), .double(-0.5), .byte(1), .string("s"),
            .byte(1), .objectPath(ObjectPath(unchecked: "/org/example/x_2d")), .byte(1), .signature("a{sv}"),
        ]),
        ("empty arrays whose elements are 8-aligned", [
            .byte(1), .array(.int64, []), .byte(1), .array(.structure([.string, .int32]), []),
            .byte(1), .dictionary(key: .string, value: .variant, []),
        ]),
        ("a listing: apps with their items", [
            .array(.structure([.string, .array(.dictionary(key: .string, value: .variant))]), [
                .structure([.string("org.example.Editor"), .array(.dictionary(key: .string, value: .variant), [item, item])]),
                .structure([.string("org.example.Empty"), .array(.dictionary(key: .string, value: .variant), [])]),
            ]),
        ]),
        ("variants of containers, nested", [
            .variant(.structure([.byte(1), .variant(.array(.double, [.double(1), .double(2)]))])),
            .variant(.variant(.boolean(false))),
            .array(.array(.byte), [.array(.byte, [.byte(1), .byte(2), .byte(3)]), .array(.byte, [])]),
        ]),
    ]

    @Test(arguments: cases.indices)
    func theBodyIsLibdbussOwnAndReadsBackAsTheValues(_ index: Int) throws {
        let (_, values) = Self.cases[index]
        let message = try #require(WireEncoding.methodReturn(values), "\(Self.cases[index].0)")
        #expect(try Self.body(of: message) == Self.libdbusBody(values), "\(Self.cases[index].0)")
        #expect(try message.arguments() == values)
        #expect(message.kind == .methodReturn)
        let reply = try PreparedReply(values)
        #expect(reply.types == values.map(\.type))
        #expect(try Self.body(of: reply.template) == Self.libdbusBody(values))
    }

    @Test func aCopyHasNoSerialOfItsOwnSoTheConnectionNumbersIt() throws {
        let prepared = try PreparedReply([Self.item])
        #expect(prepared.template.serial == 1, "the placeholder demarshalling needs")
        let copy = try prepared.compacted()
        #expect(copy.template.serial == 0)
        #expect(try copy.template.arguments() == [Self.item])
    }

    static let refused: [(String, Value, String)] = [
        ("a NUL in a string", .string("a\u{0}b"), "NUL"),
        ("an element not of its array's type", .array(.int32, [.string("x")]), "expected \"i\" but got \"s\""),
        ("a variant nested past the limit", (0..<70).reduce(Value.byte(1)) { inner, _ in .variant(inner) }, "nest"),
    ]

    @Test(arguments: refused.indices)
    func whatLibdbusWouldRefuseIsNotEncodedAndThePreparedReplyNamesIt(_ index: Int) throws {
        let (what, value, named) = Self.refused[index]
        #expect(WireEncoding.methodReturn([value]) == nil, "\(what)")
        do {
            _ = try PreparedReply([value])
            Issue.record("\(what) was prepared")
        } catch {
            #expect("\(error)".contains(named), "\(what): \(error)")
        }
    }
}

/// Signals in the wire format: what `Connection.emit` sends for a body with containers.
@Suite struct WireEncodedSignalTests {
    @Test(arguments: WireEncodingTests.cases.indices)
    func aSignalHasLibdbussBodyAndHeaderAndNoSerial(_ index: Int) throws {
        let (what, values) = WireEncodingTests.cases[index]
        let path = try ObjectPath("/org/quickactions/Broker1"), interface = try InterfaceName("org.freedesktop.DBus.ObjectManager")
        let member = try MemberName("InterfacesAdded")
        let signal = try #require(WireEncoding.signal(path: path, interface: interface, member: member, values), "\(what)")
        let made = try Message.signal(path: path, interface: interface, member: member)
        try made.append(values)
        #expect(signal.kind == .signal)
        #expect(signal.path == path && signal.interface == interface && signal.member == member)
        #expect(signal.serial == 0, "the connection numbers it")
        #expect(try WireEncodingTests.body(of: signal) == WireEncodingTests.body(of: made), "\(what)")
        #expect(try signal.arguments() == values)
    }

    @Test func aSignalLibdbusWouldRefuseIsNotEncoded() throws {
        #expect(WireEncoding.signal(path: try ObjectPath("/a"), interface: try InterfaceName("a.b"),
                                    member: try MemberName("C"), [.array(.int32, [.string("x")])]) == nil)
    }
}
