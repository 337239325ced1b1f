import QuickActionsModel
import QuickActionsProviding

/// One player on the bus as the provider last read it.
struct PlayerSnapshot: Sendable, Hashable {
    /// Its `org.mpris.MediaPlayer2.*` name.
    var busName: String
    /// The unique name owning it (":1.42"): where its signals come from and calls go.
    var owner: String
    var properties: PlayerProperties
}

/// The apps and items the players give, and which player and control each item stands for:
/// a pure function of the players and the installed applications.
///
/// - An item goes to the installed application whose app id is the player's `DesktopEntry`
///   (its desktop file id is that plus `.desktop`). A player naming no entry, or one that is
///   not installed, gives an app of its own, id `mpris.<player>`: `<player>` is the first
///   element after `org.mpris.MediaPlayer2.` in its bus name (`org.mpris.MediaPlayer2.vlc.instance42`
///   → `mpris.vlc`), which the bus name rules already make a valid app id element, so every
///   instance of a player lands in one app. Its name is the player's `Identity` (else that
///   element), its icon `multimedia-player` (the Icon Naming Specification's player icon), its
///   desktop id the `DesktopEntry` it named plus `.desktop`, or "" when it named none.
/// - Item ids are the control (`play`, `pause`, `next`, `previous`) for a player whose bus
///   name has no instance part (`org.mpris.MediaPlayer2.mpv`), else the control, `@` and the
///   instance part (`pause@instance4321`); should two players of an app still meet, the later
///   one (by bus name) uses its whole player part (`pause@mpv.instance4321`). An id lasts as
///   long as its player and control.
/// - When an app has several players, each title names its player: the track's title when it
///   is known and no other player of the app plays one of that title, else the player's part
///   of the bus name: "Pause (Bohemian Rhapsody)", "Pause (mpv.instance4321)".
/// - Several names owned by one connection are one player (the shortest name is kept).
struct MediaPlayersCatalog: Sendable, Equatable {
    /// Which player and control an item stands for.
    struct Target: Sendable, Hashable {
        var busName: String
        var control: MediaControl
    }

    /// Sorted by app id; apps without items are left out.
    var apps: [ProvidedApp] = []
    /// By app id, then item id.
    var targets: [String: [String: Target]] = [:]

    static let fallbackIcon = "multimedia-player"
    static let fallbackPrefix = "mpris."
    /// Players kept per app: with four items each, an app stays within ItemLimits' 64 items.
    static let playersPerApp = ItemLimits.maximumItems / MediaControl.allCases.count
    /// The user info key naming the player's bus name.
    static let playerKey = "mpris-player"

    init() {}

    init(players: [PlayerSnapshot], installed: [String: InstalledApplication]) {
        // One player per owner, then grouped by app.
        var byOwner: [String: PlayerSnapshot] = [:]
        for player in players {
            if let kept = byOwner[player.owner], Self.precedes(kept.busName, player.busName) { continue }
            byOwner[player.owner] = player
        }
        var groups: [String: (app: ProvidedApp, players: [PlayerSnapshot])] = [:]
        for player in byOwner.values {
            guard let key = MPRIS.playerKey(of: player.busName) else { continue }
            let app = Self.app(for: player, key: key, installed: installed)
            groups[app.appID, default: (app, [])].players.append(player)
        }
        for appID in groups.keys.sorted() {
            guard var (app, members) = groups[appID] else { continue }
            members.sort { Self.precedes($0.busName, $1.busName) }
            members = Array(members.prefix(Self.playersPerApp))
            if installed[appID] == nil {
                // A fallback app takes its name from its first player that has one.
                if let identity = members.lazy.compactMap(\.properties.identity).first {
                    app.name = LocalizedText(identity)
                }
            }
            let offering = members.filter { !MediaControl.offered(by: $0.properties).isEmpty }
            var usedSuffixes: Set<String> = []
            var items: [ProvidedItem] = []
            var appTargets: [String: Target] = [:]
            for player in offering {
                guard let key = MPRIS.playerKey(of: player.busName) else { continue }
                var suffix = Self.instance(of: key)
                if usedSuffixes.contains(suffix) { suffix = key }
                guard usedSuffixes.insert(suffix).inserted else { continue }
                let label = offering.count > 1 ? Self.label(of: player, key: key, among: offering) : nil
                for control in MediaControl.offered(by: player.properties) {
                    let id = suffix.isEmpty ? control.rawValue : "\(control.rawValue)@\(suffix)"
                    items.append(ProvidedItem(
                        id: id, type: control.type, title: Self.title(control.title, naming: label),
                        subtitle: Self.subtitle(player.properties).map { LocalizedText($0) }, icon: control.icon,
                        userInfo: [Self.playerKey: .string(player.busName)], isStatic: false))
                    appTargets[id] = Target(busName: player.busName, control: control)
                }
            }
            guard !items.isEmpty else { continue }
            app.items = items
            apps.append(app)
            targets[appID] = appTargets
        }
    }

    /// Shorter bus names first (`mpv` before `mpv.instance42`), then by text.
    static func precedes(_ left: String, _ right: String) -> Bool {
        left.utf8.count != right.utf8.count ? left.utf8.count < right.utf8.count : left < right
    }

    /// The player's part of a key after its first element ("" for `mpv`, `instance42` for `mpv.instance42`).
    static func instance(of key: String) -> String {
        guard let dot = key.firstIndex(of: ".") else { return "" }
        return String(key[key.index(after: dot)...])
    }

    /// The app a player's items go to (without items yet).
    static func app(for player: PlayerSnapshot, key: String, installed: [String: InstalledApplication]) -> ProvidedApp {
        if let entry = player.properties.desktopEntry, let found = installed[entry] {
            return ProvidedApp(appID: found.appID, desktopID: found.desktopID, name: found.name, icon: found.icon, items: [])
        }
        let name = key.split(separator: ".").first.map(String.init) ?? key
        let candidate = fallbackPrefix + name
        let appID = (try? AppID(candidate))?.rawValue ?? fallbackPrefix + "player"
        return ProvidedApp(
            appID: appID, desktopID: player.properties.desktopEntry.map { $0 + ".desktop" } ?? "",
            name: LocalizedText(player.properties.identity ?? name), icon: fallbackIcon, items: [])
    }

    /// What names a player among its app's others: its track's title when no other has the
    /// same, else the player's part of its bus name.
    static func label(of player: PlayerSnapshot, key: String, among players: [PlayerSnapshot]) -> String {
        guard let title = player.properties.title,
              !players.contains(where: { $0.busName != player.busName && $0.properties.title == title })
        else { return key }
        return title
    }

    /// "Artist — Title", or whichever of the two is known; several artists joined by ", ".
    static func subtitle(_ properties: PlayerProperties) -> String? {
        // Each half bounded alone, so many long artists never crowd the title out.
        let artist = properties.artists.isEmpty ? nil : PlayerProperties.bounded(properties.artists.joined(separator: ", "))
        let text: String? = switch (artist, properties.title) {
        case (let artist?, let title?): "\(artist) — \(title)"
        case (let artist?, nil): artist
        case (nil, let title?): title
        case (nil, nil): nil
        }
        return text.map { PlayerProperties.bounded($0, bytes: ItemLimits.maximumSubtitleBytes) }
    }

    /// The control's title, with "(label)" after it in every language when given.
    static func title(_ title: LocalizedText, naming label: String?) -> LocalizedText {
        guard let label else { return title }
        func named(_ text: String) -> String {
            PlayerProperties.bounded("\(text) (\(label))", bytes: ItemLimits.maximumTitleBytes)
        }
        return LocalizedText(named(title.value), translations: title.translations.mapValues(named))
    }
}
