import DBus
import Testing

@Suite("Object paths")
struct ObjectPathTests {
    static let valid: [String] = [
        "/", "/a", "/org/example/Music", "/a/1", "/_/A_b9", "/0",
        // The specification sets no length limit for object paths.
        "/" + Array(repeating: String(repeating: "p", count: 99), count: 10).joined(separator: "/"),
    ]

    static let invalid: [(String, DBusNameError)] = [
        ("", .empty(kind: .objectPath)),
        ("a", .missingLeadingSlash(kind: .objectPath, value: "a")),
        ("org/x", .missingLeadingSlash(kind: .objectPath, value: "org/x")),
        ("/a/", .trailingSlash(kind: .objectPath, value: "/a/")),
        ("//", .trailingSlash(kind: .objectPath, value: "//")),
        ("//a", .emptyElement(kind: .objectPath, value: "//a", element: 1)),
        ("/a//b", .emptyElement(kind: .objectPath, value: "/a//b", element: 2)),
        ("/a-b", .invalidCharacter(kind: .objectPath, value: "/a-b", character: "-", offset: 2)),
        ("/a.b", .invalidCharacter(kind: .objectPath, value: "/a.b", character: ".", offset: 2)),
        ("/a b", .invalidCharacter(kind: .objectPath, value: "/a b", character: " ", offset: 2)),
        ("/ä", .invalidCharacter(kind: .objectPath, value: "/ä", character: "ä", offset: 1)),
    ]

    @Test("valid object paths are accepted", arguments: valid)
    func acceptsValid(_ string: String) throws {
        let path = try ObjectPath(string)
        #expect(path.rawValue == string)
        #expect(try ObjectPath(elements: path.elements) == path)
    }

    @Test("invalid object paths are rejected with the reason", arguments: invalid)
    func rejectsInvalid(_ string: String, _ expected: DBusNameError) {
        #expect(throws: expected) { try ObjectPath(string) }
    }

    @Test(
        "elements and parent",
        arguments: [
            ("/", [String](), nil as String?),
            ("/a", ["a"], "/"),
            ("/a/b", ["a", "b"], "/a"),
            ("/org/example/Music", ["org", "example", "Music"], "/org/example"),
        ])
    func elementsAndParent(_ string: String, _ elements: [String], _ parent: String?) throws {
        let path = try ObjectPath(string)
        #expect(path.elements == elements)
        #expect(path.parent?.rawValue == parent)
        #expect(path.lastElement == elements.last)
    }

    @Test(
        "isAncestor(of:) is true only for paths strictly below",
        arguments: [
            ("/", "/a", true), ("/", "/a/b", true), ("/", "/", false),
            ("/a", "/a/b", true), ("/a", "/a/b/c", true), ("/a", "/a", false),
            ("/a", "/ab", false), ("/a/b", "/a", false), ("/a", "/b/a", false),
        ])
    func ancestor(_ ancestor: String, _ descendant: String, _ expected: Bool) throws {
        #expect(try ObjectPath(ancestor).isAncestor(of: ObjectPath(descendant)) == expected)
    }

    @Test("appending adds one validated element")
    func appending() throws {
        #expect(try ObjectPath.root.appending("a").rawValue == "/a")
        #expect(try ObjectPath("/a").appending("b").appending("9").rawValue == "/a/b/9")
        #expect(throws: DBusNameError.empty(kind: .objectPathElement)) { try ObjectPath.root.appending("") }
        #expect(
            throws: DBusNameError.invalidCharacter(kind: .objectPathElement, value: "a/b", character: "/", offset: 1)
        ) { try ObjectPath.root.appending("a/b") }
        #expect(
            throws: DBusNameError.invalidCharacter(kind: .objectPathElement, value: "a-b", character: "-", offset: 1)
        ) { try ObjectPath("/x").appending("a-b") }
        #expect(ObjectPath.root.appendingEscaped("com.example.music").rawValue == "/com_2eexample_2emusic")
    }

    static let escapes: [(String, String)] = [
        ("com.example.music", "com_2eexample_2emusic"),
        ("", "_"),
        ("abc", "abc"),
        ("ABCxyz", "ABCxyz"),
        ("a1", "a1"),
        // sd-bus also escapes a digit in the first position.
        ("1up", "_31up"),
        ("a b", "a_20b"),
        ("_", "_5f"),
        ("a/b", "a_2fb"),
        ("-", "_2d"),
        ("ä", "_c3_a4"),
        ("org.gnome.Nautilus.desktop", "org_2egnome_2eNautilus_2edesktop"),
    ]

    @Test("escapedElement matches sd-bus and round-trips", arguments: escapes)
    func escaping(_ text: String, _ escaped: String) throws {
        #expect(ObjectPath.escapedElement(text) == escaped)
        #expect(ObjectPath.unescapedElement(escaped) == text)
        // Every escaped string is a valid path element.
        #expect(try ObjectPath.root.appending(escaped).elements == [escaped])
    }

    @Test(
        "unescapedElement keeps malformed escapes literally and refuses bytes that are not text",
        arguments: [
            ("a_zz", "a_zz" as String?), ("_4", "_4"), ("a_", "a_"), ("_41", "A"), ("_4a_4A", "JJ"),
            ("_00", nil), ("_ff", nil), ("_c3", nil),
        ])
    func unescaping(_ element: String, _ expected: String?) {
        #expect(ObjectPath.unescapedElement(element) == expected)
    }
}
