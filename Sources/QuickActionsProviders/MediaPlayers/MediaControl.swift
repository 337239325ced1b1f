import DBus
import QuickActionsProviding

/// One control a player's items offer, and the `org.mpris.MediaPlayer2.Player` method it calls.
///
/// Play and Pause are two items with two ids (`play`, `pause`), never one `play-pause` item
/// whose title flips: a Perform by id does what the title the user saw said, even from a
/// menu drawn before the player changed state, because MPRIS's `Play` and `Pause` do nothing
/// when the player already plays or is paused, while `PlayPause` would undo it. A dock menu
/// redrawn on `ItemsChanged` loses nothing by it: the item in that place gets a new id and
/// label together.
enum MediaControl: String, Sendable, Hashable, CaseIterable {
    case play, pause, next, previous

    /// The item's type: what a Perform by type (without `item-id`) names.
    var type: String { "org.mpris.MediaPlayer2.Player.\(method.rawValue)" }

    var method: MemberName {
        switch self {
        case .play: "Play"
        case .pause: "Pause"
        case .next: "Next"
        case .previous: "Previous"
        }
    }

    /// A themed icon of the Icon Naming Specification.
    var icon: String {
        switch self {
        case .play: "media-playback-start"
        case .pause: "media-playback-pause"
        case .next: "media-skip-forward"
        case .previous: "media-skip-backward"
        }
    }

    /// The item's title in English and the languages of ``MediaControlTitles``.
    var title: LocalizedText { MediaControlTitles.title(of: self) }

    /// Whether the player, as its properties stand, offers this control.
    func isOffered(by properties: PlayerProperties) -> Bool {
        guard properties.hasPlayerInterface, properties.canControl else { return false }
        switch self {
        case .play: return properties.playbackStatus != .playing && properties.canPlay
        case .pause: return properties.playbackStatus == .playing && properties.canPause
        case .next: return properties.canGoNext
        case .previous: return properties.canGoPrevious
        }
    }

    /// Whether the player accepts this control now, whatever it plays: what a Perform checks.
    /// A Pause from a menu drawn while the player played still pauses (or does nothing, as
    /// MPRIS's Pause does on a paused player) rather than fail.
    func isAccepted(by properties: PlayerProperties) -> Bool {
        guard properties.hasPlayerInterface, properties.canControl else { return false }
        switch self {
        case .play: return properties.canPlay
        case .pause: return properties.canPause
        case .next: return properties.canGoNext
        case .previous: return properties.canGoPrevious
        }
    }

    /// The controls a player offers, in display order: exactly one of Play and Pause (Pause
    /// while it plays and can pause; Play otherwise, when it can play: a stream playing that
    /// cannot pause shows neither, as Play would do nothing), then Next, then Previous.
    static func offered(by properties: PlayerProperties) -> [MediaControl] {
        allCases.filter { $0.isOffered(by: properties) }
    }

    /// What a successful Perform says: "Paused VLC media player".
    func succeeded(_ player: String) -> String {
        switch self {
        case .play: "Playing \(player)"
        case .pause: "Paused \(player)"
        case .next: "Skipped to the next track in \(player)"
        case .previous: "Went back to the previous track in \(player)"
        }
    }

    /// Why the player does not offer it now, for a failed Perform.
    func notOffered(_ player: String) -> String {
        switch self {
        case .play: "\(player) cannot play now"
        case .pause: "\(player) cannot pause now"
        case .next: "\(player) cannot go to a next track now"
        case .previous: "\(player) cannot go to a previous track now"
        }
    }
}
