import DBus

/// The names of the MPRIS D-Bus Interface Specification (version 2.2) the media-players
/// provider reads: <https://specifications.freedesktop.org/mpris-spec/latest/>.
enum MPRIS {
    /// Every player owns a bus name beginning with this, then a dot and its own name
    /// (`org.mpris.MediaPlayer2.vlc`), and `.instance<pid>` after that when several of one
    /// player run.
    static let busNamePrefix = "org.mpris.MediaPlayer2."
    static let path: ObjectPath = "/org/mpris/MediaPlayer2"
    static let root: InterfaceName = "org.mpris.MediaPlayer2"
    static let player: InterfaceName = "org.mpris.MediaPlayer2.Player"
    static let properties: InterfaceName = "org.freedesktop.DBus.Properties"
    static let propertiesChanged: MemberName = "PropertiesChanged"

    /// The root interface's properties the provider reads.
    static let rootProperties = ["Identity", "DesktopEntry"]
    /// The player interface's properties the provider reads.
    static let playerProperties = [
        "PlaybackStatus", "CanPlay", "CanPause", "CanGoNext", "CanGoPrevious", "CanControl", "Metadata",
    ]

    /// The properties of `interface` the provider reads; empty for any other interface.
    static func properties(of interface: String) -> [String] {
        switch interface {
        case root.rawValue: rootProperties
        case player.rawValue: playerProperties
        default: []
        }
    }

    /// The player's own part of an MPRIS bus name (`vlc.instance4321` for
    /// `org.mpris.MediaPlayer2.vlc.instance4321`), or nil for a name that is not a player's.
    static func playerKey(of busName: String) -> String? {
        guard busName.hasPrefix(busNamePrefix) else { return nil }
        let key = String(busName.dropFirst(busNamePrefix.count))
        return key.isEmpty ? nil : key
    }
}
