import DBus
@testable import QuickActionsProviders
import Testing

/// Reading a player's properties: types checked, sizes bounded.
@Suite struct PlayerPropertiesTests {
    static func metadata(_ entries: [(String, Value)]) -> Value {
        .dictionary(key: .string, value: .variant, entries.map { DictionaryEntry(.string($0.0), .variant($0.1)) })
    }

    struct Case: Sendable, CustomStringConvertible {
        let property: String
        let value: Value
        let accepted: Bool
        var description: String { "\(property) = \(value.type.signature)" }
    }

    static let cases: [Case] = [
        Case(property: "Identity", value: .string("VLC media player"), accepted: true),
        Case(property: "Identity", value: .int32(3), accepted: false),
        Case(property: "DesktopEntry", value: .string("vlc"), accepted: true),
        Case(property: "DesktopEntry", value: .string("../../etc/passwd"), accepted: false),
        Case(property: "DesktopEntry", value: .string(String(repeating: "a", count: 300)), accepted: false),
        Case(property: "DesktopEntry", value: .boolean(true), accepted: false),
        Case(property: "PlaybackStatus", value: .string("Playing"), accepted: true),
        Case(property: "PlaybackStatus", value: .string("Dancing"), accepted: false),
        Case(property: "PlaybackStatus", value: .uint32(1), accepted: false),
        Case(property: "CanPause", value: .boolean(true), accepted: true),
        Case(property: "CanPause", value: .string("yes"), accepted: false),
        Case(property: "CanGoNext", value: .int32(1), accepted: false),
        Case(property: "Metadata", value: metadata([("xesam:title", .string("Song"))]), accepted: true),
        Case(property: "Metadata", value: .array(.string, [.string("x")]), accepted: false),
        Case(property: "Metadata", value: metadata([("xesam:title", .int64(7))]), accepted: false),
        Case(property: "Metadata", value: metadata([("xesam:artist", .array(.int32, [.int32(1)]))]), accepted: false),
    ]

    @Test(arguments: cases) func aPropertyIsTakenOnlyWithTheTypeTheSpecificationGivesIt(_ test: Case) {
        var properties = PlayerProperties()
        let problem = properties.apply(test.property, .variant(test.value))
        #expect((problem == nil) == test.accepted, "\(test): \(problem.map(String.init(describing:)) ?? "taken")")
        if let problem {
            #expect(problem.description.hasPrefix(test.property), "the problem names the property: \(problem)")
        }
    }

    @Test func aWronglyTypedPropertyLeavesTheValueBefore() {
        var properties = PlayerProperties()
        _ = properties.apply("PlaybackStatus", .string("Playing"))
        _ = properties.apply("PlaybackStatus", .int32(2))
        #expect(properties.playbackStatus == .playing)
    }

    @Test func metadataStringsAreCutAtACharacterBoundaryAndArtistsCapped() {
        var properties = PlayerProperties()
        let title = String(repeating: "é", count: 1000)  // 2000 bytes
        let artists = (0..<100).map { Value.string("Artist \($0)") }
        #expect(properties.apply("Metadata", Self.metadata([
            ("xesam:title", .string(title)), ("xesam:artist", .array(.string, artists)),
        ])) == nil)
        #expect(properties.title?.utf8.count == PlayerProperties.Limits.textBytes)
        #expect(properties.title?.allSatisfy { $0 == "é" } == true)
        #expect(properties.artists.count == PlayerProperties.Limits.artists)
    }

    @Test func metadataPastItsEntryLimitIsNotReadFurther() {
        var properties = PlayerProperties()
        var entries = (0..<1000).map { ("junk:\($0)", Value.string("x")) }
        entries.append(("xesam:title", .string("Too late")))
        let problem = properties.apply("Metadata", Self.metadata(entries))
        #expect(properties.title == nil)
        #expect(problem?.description.contains("1001 entries") == true, "\(String(describing: problem))")
    }

    @Test func newMetadataReplacesTheOldTrack() {
        var properties = PlayerProperties()
        _ = properties.apply("Metadata", Self.metadata([("xesam:title", .string("One")), ("xesam:artist", .array(.string, [.string("A")]))]))
        _ = properties.apply("Metadata", Self.metadata([("xesam:title", .string("Two"))]))
        #expect(properties.title == "Two")
        #expect(properties.artists.isEmpty)
    }

    @Test(arguments: [
        ("vlc", "vlc"), ("org.gnome.Lollypop.desktop", "org.gnome.Lollypop"), ("", nil), (".desktop", nil),
    ] as [(String, String?)])
    func desktopEntryDropsASuffixPlayersAddByMistake(_ given: String, _ expected: String?) throws {
        #expect(try PlayerProperties.desktopEntry(given).get() == expected)
    }
}
