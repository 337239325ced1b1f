import DBus
@testable import QuickActionsProviders
import QuickActionsProviding
import Testing

/// From players and installed applications to apps and items.
@Suite struct MediaPlayersCatalogTests {
    static func player(
        _ busName: String, owner: String, status: PlayerProperties.PlaybackStatus? = .playing, desktopEntry: String? = nil,
        identity: String? = nil, canPlay: Bool = true, canPause: Bool = true, canGoNext: Bool = true,
        canGoPrevious: Bool = true, canControl: Bool = true, title: String? = nil, artists: [String] = []
    ) -> PlayerSnapshot {
        var properties = PlayerProperties()
        properties.hasPlayerInterface = true
        properties.playbackStatus = status
        properties.desktopEntry = desktopEntry
        properties.identity = identity
        properties.canPlay = canPlay
        properties.canPause = canPause
        properties.canGoNext = canGoNext
        properties.canGoPrevious = canGoPrevious
        properties.canControl = canControl
        properties.title = title
        properties.artists = artists
        return PlayerSnapshot(busName: busName, owner: owner, properties: properties)
    }

    struct ControlsCase: Sendable, CustomStringConvertible {
        let status: PlayerProperties.PlaybackStatus?
        let canPlay, canPause, canGoNext, canGoPrevious, canControl: Bool
        let expected: [String]
        var description: String { "\(String(describing: status)) play \(canPlay) pause \(canPause) → \(expected)" }
    }

    static let controls: [ControlsCase] = [
        ControlsCase(status: .playing, canPlay: true, canPause: true, canGoNext: true, canGoPrevious: true, canControl: true,
                     expected: ["pause", "next", "previous"]),
        ControlsCase(status: .paused, canPlay: true, canPause: true, canGoNext: false, canGoPrevious: false, canControl: true,
                     expected: ["play"]),
        ControlsCase(status: .stopped, canPlay: true, canPause: false, canGoNext: true, canGoPrevious: false, canControl: true,
                     expected: ["play", "next"]),
        // A live stream that cannot pause: Play would do nothing.
        ControlsCase(status: .playing, canPlay: true, canPause: false, canGoNext: false, canGoPrevious: false, canControl: true,
                     expected: []),
        ControlsCase(status: .paused, canPlay: false, canPause: true, canGoNext: false, canGoPrevious: true, canControl: true,
                     expected: ["previous"]),
        ControlsCase(status: .playing, canPlay: true, canPause: true, canGoNext: true, canGoPrevious: true, canControl: false,
                     expected: []),
    ]

    @Test(arguments: controls) func exactlyOneOfPlayAndPauseAndTheSkipsThePlayerAllows(_ test: ControlsCase) {
        let catalog = MediaPlayersCatalog(players: [Self.player(
            "org.mpris.MediaPlayer2.vlc", owner: ":1.5", status: test.status, canPlay: test.canPlay, canPause: test.canPause,
            canGoNext: test.canGoNext, canGoPrevious: test.canGoPrevious, canControl: test.canControl)], installed: [:])
        #expect((catalog.apps.first?.items.map(\.id) ?? []) == test.expected)
    }

    @Test func itemsGoToTheInstalledApplicationTheDesktopEntryNames() throws {
        let installed = ["vlc": FakeInstalledApplications.app("vlc", name: "VLC")]
        let catalog = MediaPlayersCatalog(
            players: [Self.player("org.mpris.MediaPlayer2.vlc", owner: ":1.5", desktopEntry: "vlc", identity: "VLC media player",
                                  title: "Song", artists: ["Band", "Singer"])],
            installed: installed)
        let app = try #require(catalog.apps.first)
        #expect(catalog.apps.count == 1)
        #expect(app.appID == "vlc")
        #expect(app.desktopID == "vlc.desktop")
        #expect(app.name.value == "VLC")
        let pause = try #require(app.items.first)
        #expect(pause.title.value == "Pause")
        #expect(pause.title.resolved(for: "de_DE.UTF-8") == "Pausieren")
        #expect(pause.title.resolved(for: "fr_FR") == "Pause")
        #expect(pause.title.resolved(for: "es") == "Pausar")
        #expect(pause.subtitle?.value == "Band, Singer — Song")
        #expect(pause.icon == "media-playback-pause")
        #expect(pause.isStatic == false)
        #expect(pause.userInfo["mpris-player"] == .string("org.mpris.MediaPlayer2.vlc"))
        #expect(app.items.map(\.icon) == ["media-playback-pause", "media-skip-forward", "media-skip-backward"])
        #expect(catalog.targets["vlc"]?["next"] == .init(busName: "org.mpris.MediaPlayer2.vlc", control: .next))
    }

    @Test func aPlayerWhoseEntryIsNotInstalledGetsAnAppNamedByItsBusNameAndIdentity() throws {
        let catalog = MediaPlayersCatalog(
            players: [Self.player("org.mpris.MediaPlayer2.vlc.instance42", owner: ":1.5", desktopEntry: "vlc", identity: "VLC media player")],
            installed: [:])
        let app = try #require(catalog.apps.first)
        #expect(app.appID == "mpris.vlc")
        #expect(app.name.value == "VLC media player")
        #expect(app.icon == "multimedia-player")
        #expect(app.desktopID == "vlc.desktop")
        #expect(app.items.map(\.id) == ["pause@instance42", "next@instance42", "previous@instance42"])
    }

    @Test func severalPlayersOfOneAppKeepDistinctIdsAndTitlesNamingThem() throws {
        let installed = ["mpv": FakeInstalledApplications.app("mpv", name: "mpv")]
        let catalog = MediaPlayersCatalog(
            players: [
                Self.player("org.mpris.MediaPlayer2.mpv.instance77", owner: ":1.9", desktopEntry: "mpv", canGoNext: false, canGoPrevious: false),
                Self.player("org.mpris.MediaPlayer2.mpv", owner: ":1.5", desktopEntry: "mpv", canGoNext: false, canGoPrevious: false,
                            title: "First"),
                // Same app, no instance part either: it takes its whole name.
                Self.player("org.mpris.MediaPlayer2.other", owner: ":1.7", status: .paused, desktopEntry: "mpv", canGoNext: false,
                            canGoPrevious: false),
            ],
            installed: installed)
        let app = try #require(catalog.apps.first)
        #expect(app.items.map(\.id) == ["pause", "play@other", "pause@instance77"])
        #expect(app.items.map(\.title.value) == ["Pause (First)", "Play (other)", "Pause (mpv.instance77)"])
        #expect(app.items[0].title.resolved(for: "de") == "Pausieren (First)")
    }

    @Test func twoNamesOfOneConnectionAreOnePlayer() {
        let catalog = MediaPlayersCatalog(
            players: [
                Self.player("org.mpris.MediaPlayer2.vlc.instance42", owner: ":1.5"),
                Self.player("org.mpris.MediaPlayer2.vlc", owner: ":1.5"),
            ],
            installed: [:])
        #expect(catalog.apps.map(\.appID) == ["mpris.vlc"])
        #expect(catalog.apps.first?.items.map(\.id) == ["pause", "next", "previous"])
    }

    @Test func aPlayerWithoutThePlayerInterfaceGivesNothing() {
        var player = Self.player("org.mpris.MediaPlayer2.vlc", owner: ":1.5")
        player.properties.hasPlayerInterface = false
        #expect(MediaPlayersCatalog(players: [player], installed: [:]).apps.isEmpty)
    }

    @Test func everyControlHasATitleInGermanFrenchAndSpanish() {
        for control in MediaControl.allCases {
            for language in ["de", "fr", "es"] {
                #expect(control.title.translations[language]?.isEmpty == false, "\(control) in \(language)")
            }
        }
    }
}

/// What a Perform checks before it calls the player.
@Suite struct MediaControlTests {
    @Test func aStalePauseStillPausesButAControlThePlayerRefusesFails() {
        var properties = MediaPlayersCatalogTests.player(
            "org.mpris.MediaPlayer2.vlc", owner: ":1.5", status: .paused, canGoNext: false).properties
        // The menu showed Pause while it played; Pause on a paused player is harmless.
        #expect(MediaControl.pause.isAccepted(by: properties))
        #expect(!MediaControl.pause.isOffered(by: properties))
        #expect(!MediaControl.next.isAccepted(by: properties))
        properties.canControl = false
        #expect(MediaControl.allCases.allSatisfy { !$0.isAccepted(by: properties) })
    }

    @Test func typesNameTheMPRISMethod() {
        #expect(MediaControl.allCases.map(\.type) == [
            "org.mpris.MediaPlayer2.Player.Play", "org.mpris.MediaPlayer2.Player.Pause",
            "org.mpris.MediaPlayer2.Player.Next", "org.mpris.MediaPlayer2.Player.Previous",
        ])
    }
}
