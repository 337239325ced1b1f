import DBus
import Testing

/// A dotted name of exactly `bytes` bytes: "a." followed by "b"s (prefix `prefix`).
func dottedName(bytes: Int, prefix: String = "a.") -> String {
    prefix + String(repeating: "b", count: bytes - prefix.utf8.count)
}

@Suite("Bus names")
struct BusNameTests {
    static let valid: [String] = [
        "org.freedesktop.DBus", "com.example.Music", "a.b", "_a.b", "-a.b", "a-b.c_d", "org.example.App-2",
        "a.b.c.d.e", "A.B9", ":1.42", ":1.0", ":abc.def", ":1.2.3", ":-.-", ":1._",
        dottedName(bytes: 255), dottedName(bytes: 255, prefix: ":1."),
    ]

    static let invalid: [(String, DBusNameError)] = [
        ("", .empty(kind: .busName)),
        ("org", .tooFewElements(kind: .busName, value: "org")),
        (".org.example", .emptyElement(kind: .busName, value: ".org.example", element: 1)),
        ("org..example", .emptyElement(kind: .busName, value: "org..example", element: 2)),
        ("org.example.", .emptyElement(kind: .busName, value: "org.example.", element: 3)),
        ("1org.example", .leadingDigit(kind: .busName, value: "1org.example", element: 1)),
        ("org.2example", .leadingDigit(kind: .busName, value: "org.2example", element: 2)),
        ("org.exa mple", .invalidCharacter(kind: .busName, value: "org.exa mple", character: " ", offset: 7)),
        ("org.exämple", .invalidCharacter(kind: .busName, value: "org.exämple", character: "ä", offset: 6)),
        ("org/x.y", .invalidCharacter(kind: .busName, value: "org/x.y", character: "/", offset: 3)),
        ("a:b.c", .invalidCharacter(kind: .busName, value: "a:b.c", character: ":", offset: 1)),
        (":", .emptyElement(kind: .busName, value: ":", element: 1)),
        (":1", .tooFewElements(kind: .busName, value: ":1")),
        (":1.", .emptyElement(kind: .busName, value: ":1.", element: 2)),
        (":1..2", .emptyElement(kind: .busName, value: ":1..2", element: 2)),
        (":1.4:2", .invalidCharacter(kind: .busName, value: ":1.4:2", character: ":", offset: 4)),
        (dottedName(bytes: 256), .tooLong(kind: .busName, value: dottedName(bytes: 256), byteCount: 256)),
        (
            dottedName(bytes: 256, prefix: ":1."),
            .tooLong(kind: .busName, value: dottedName(bytes: 256, prefix: ":1."), byteCount: 256)
        ),
    ]

    @Test("valid bus names are accepted unchanged", arguments: valid)
    func acceptsValid(_ string: String) throws {
        let name = try BusName(string)
        #expect(name.rawValue == string)
        #expect(name.isUnique == string.hasPrefix(":"))
        #expect((name.uniqueName != nil) == name.isUnique)
    }

    @Test("invalid bus names are rejected with the reason", arguments: invalid)
    func rejectsInvalid(_ string: String, _ expected: DBusNameError) {
        #expect(throws: expected) { try BusName(string) }
    }

    @Test("a unique name converts to a bus name and back")
    func uniqueConversion() throws {
        let text = ":1.42"
        let unique = try UniqueName(text)
        #expect(BusName(unique).rawValue == ":1.42")
        #expect(BusName(unique).uniqueName == unique)
        #expect(unique.busName.isUnique)
        let wellKnown: BusName = "org.example.App"
        #expect(wellKnown.uniqueName == nil)
    }
}

@Suite("Unique names")
struct UniqueNameTests {
    static let valid: [String] = [":1.42", ":1.0", ":abc.def-1", ":1.2.3", ":_.9", dottedName(bytes: 255, prefix: ":1.")]

    static let invalid: [(String, DBusNameError)] = [
        ("", .empty(kind: .uniqueName)),
        ("org.example.App", .missingColon(kind: .uniqueName, value: "org.example.App")),
        ("1.42", .missingColon(kind: .uniqueName, value: "1.42")),
        (":", .emptyElement(kind: .uniqueName, value: ":", element: 1)),
        (":1", .tooFewElements(kind: .uniqueName, value: ":1")),
        (":.1", .emptyElement(kind: .uniqueName, value: ":.1", element: 1)),
        (":1..2", .emptyElement(kind: .uniqueName, value: ":1..2", element: 2)),
        (":1.4 2", .invalidCharacter(kind: .uniqueName, value: ":1.4 2", character: " ", offset: 4)),
        (
            dottedName(bytes: 256, prefix: ":1."),
            .tooLong(kind: .uniqueName, value: dottedName(bytes: 256, prefix: ":1."), byteCount: 256)
        ),
    ]

    @Test("valid unique names are accepted", arguments: valid)
    func acceptsValid(_ string: String) throws {
        #expect(try UniqueName(string).rawValue == string)
    }

    @Test("invalid unique names are rejected with the reason", arguments: invalid)
    func rejectsInvalid(_ string: String, _ expected: DBusNameError) {
        #expect(throws: expected) { try UniqueName(string) }
    }
}

@Suite("Interface and error names")
struct InterfaceNameTests {
    static let valid: [String] = [
        "org.freedesktop.DBus.Properties", "org.freedesktop.DBus.Error.InvalidArgs", "a.b", "_a._b", "A1.B2_c",
        "com.example.v2", dottedName(bytes: 255),
    ]

    /// Invalid strings and the error an interface name reports; error names share the rules.
    static let invalid: [(String, DBusNameError)] = [
        ("", .empty(kind: .interfaceName)),
        ("org", .tooFewElements(kind: .interfaceName, value: "org")),
        ("org..x", .emptyElement(kind: .interfaceName, value: "org..x", element: 2)),
        (".org.x", .emptyElement(kind: .interfaceName, value: ".org.x", element: 1)),
        ("org.x.", .emptyElement(kind: .interfaceName, value: "org.x.", element: 3)),
        ("1org.x", .leadingDigit(kind: .interfaceName, value: "1org.x", element: 1)),
        ("org.1x", .leadingDigit(kind: .interfaceName, value: "org.1x", element: 2)),
        ("org.ex-ample", .invalidCharacter(kind: .interfaceName, value: "org.ex-ample", character: "-", offset: 6)),
        (":1.42", .invalidCharacter(kind: .interfaceName, value: ":1.42", character: ":", offset: 0)),
        ("org.x y", .invalidCharacter(kind: .interfaceName, value: "org.x y", character: " ", offset: 5)),
        ("org.x/y", .invalidCharacter(kind: .interfaceName, value: "org.x/y", character: "/", offset: 5)),
        (dottedName(bytes: 256), .tooLong(kind: .interfaceName, value: dottedName(bytes: 256), byteCount: 256)),
    ]

    @Test("valid interface names are accepted", arguments: valid)
    func acceptsValidInterface(_ string: String) throws {
        #expect(try InterfaceName(string).rawValue == string)
    }

    @Test("valid error names are accepted", arguments: valid)
    func acceptsValidError(_ string: String) throws {
        #expect(try ErrorName(string).rawValue == string)
    }

    @Test("invalid interface names are rejected with the reason", arguments: invalid)
    func rejectsInvalidInterface(_ string: String, _ expected: DBusNameError) {
        #expect(throws: expected) { try InterfaceName(string) }
    }

    @Test("invalid error names are rejected with the same reason", arguments: invalid)
    func rejectsInvalidError(_ string: String, _ expected: DBusNameError) {
        #expect(throws: Self.relabel(expected, as: .errorName)) { try ErrorName(string) }
    }

    @Test("the error message names the kind, the value and the reason")
    func message() {
        // Through variables: `InterfaceName("literal")` would be a literal conversion (SE-0213),
        // which traps on an invalid literal instead of throwing.
        let emptyElement = "org..x"
        let hyphen = "org.ex-ample"
        do {
            _ = try InterfaceName(emptyElement)
            Issue.record("\"org..x\" was accepted")
        } catch {
            #expect("\(error)" == #"invalid interface name "org..x": element 2 is empty"#)
        }
        do {
            _ = try InterfaceName(hyphen)
            Issue.record("\"org.ex-ample\" was accepted")
        } catch {
            #expect(
                "\(error)"
                    == #"invalid interface name "org.ex-ample": character "-" at offset 6 is not allowed (allowed: A-Z, a-z, 0-9 and "_")"#
            )
        }
    }

    /// The same error as reported for another kind of name.
    static func relabel(_ error: DBusNameError, as kind: DBusNameKind) -> DBusNameError {
        switch error {
        case .empty: .empty(kind: kind)
        case .tooLong(_, let value, let count): .tooLong(kind: kind, value: value, byteCount: count)
        case .emptyElement(_, let value, let element): .emptyElement(kind: kind, value: value, element: element)
        case .invalidCharacter(_, let value, let character, let offset):
            .invalidCharacter(kind: kind, value: value, character: character, offset: offset)
        case .leadingDigit(_, let value, let element): .leadingDigit(kind: kind, value: value, element: element)
        case .tooFewElements(_, let value): .tooFewElements(kind: kind, value: value)
        case .missingLeadingSlash(_, let value): .missingLeadingSlash(kind: kind, value: value)
        case .trailingSlash(_, let value): .trailingSlash(kind: kind, value: value)
        case .missingColon(_, let value): .missingColon(kind: kind, value: value)
        }
    }
}

@Suite("Member names")
struct MemberNameTests {
    static let valid: [String] = [
        "GetAll", "_private", "a", "A1_b2", "PropertiesChanged", String(repeating: "m", count: 255),
    ]

    static let invalid: [(String, DBusNameError)] = [
        ("", .empty(kind: .memberName)),
        ("1Get", .leadingDigit(kind: .memberName, value: "1Get", element: 1)),
        ("Get.All", .invalidCharacter(kind: .memberName, value: "Get.All", character: ".", offset: 3)),
        ("Get-All", .invalidCharacter(kind: .memberName, value: "Get-All", character: "-", offset: 3)),
        ("Get All", .invalidCharacter(kind: .memberName, value: "Get All", character: " ", offset: 3)),
        ("Größe", .invalidCharacter(kind: .memberName, value: "Größe", character: "ö", offset: 2)),
        ("a\u{0}b", .invalidCharacter(kind: .memberName, value: "a\u{0}b", character: "\u{0}", offset: 1)),
        (
            String(repeating: "m", count: 256),
            .tooLong(kind: .memberName, value: String(repeating: "m", count: 256), byteCount: 256)
        ),
    ]

    @Test("valid member names are accepted", arguments: valid)
    func acceptsValid(_ string: String) throws {
        #expect(try MemberName(string).rawValue == string)
    }

    @Test("invalid member names are rejected with the reason", arguments: invalid)
    func rejectsInvalid(_ string: String, _ expected: DBusNameError) {
        #expect(throws: expected) { try MemberName(string) }
    }

    @Test("a leading digit in a member name is reported without element numbers")
    func leadingDigitMessage() {
        let text = "1Get"
        do {
            _ = try MemberName(text)
            Issue.record("\"1Get\" was accepted")
        } catch {
            #expect("\(error)" == #"invalid member name "1Get": starts with a digit"#)
        }
    }

    @Test("names compare and hash by their string")
    func hashing() throws {
        let text = "A"
        let names: Set<MemberName> = [try MemberName(text), "A", "B"]
        #expect(names.count == 2)
        #expect(MemberName("A") < MemberName("B"))
    }
}
