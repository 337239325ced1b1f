import DBus

/// What the provider keeps of one player's MPRIS properties, read from the wire with every
/// size bounded and every type checked: a player can only make its own items wrong, never
/// make the provider keep more than a few kilobytes for it.
struct PlayerProperties: Sendable, Hashable {
    enum PlaybackStatus: String, Sendable, Hashable {
        case playing = "Playing"
        case paused = "Paused"
        case stopped = "Stopped"
    }

    /// `Identity`: the player's name for people ("VLC media player").
    var identity: String?
    /// `DesktopEntry`: the player's desktop file id without `.desktop` ("vlc").
    var desktopEntry: String?
    var playbackStatus: PlaybackStatus?
    var canPlay = false
    var canPause = false
    var canGoNext = false
    var canGoPrevious = false
    /// `CanControl`; true until the player says otherwise (a player that leaves it out is
    /// still offered its controls; each `Can…` still has to say yes).
    var canControl = true
    /// `xesam:artist`, at most ``Limits/artists`` of them.
    var artists: [String] = []
    /// `xesam:title`.
    var title: String?
    /// Whether any property of `org.mpris.MediaPlayer2.Player` has arrived: until then the
    /// player has no items.
    var hasPlayerInterface = false

    /// The bounds on what a player sends.
    enum Limits {
        /// Bytes kept of a string (`Identity`, a title, an artist); longer ones are cut at a
        /// character boundary.
        static let textBytes = 512
        /// `DesktopEntry`: a desktop file id is a file name, so at most 255 bytes; a longer
        /// one is refused.
        static let desktopEntryBytes = 255
        /// Artists kept of `xesam:artist`.
        static let artists = 8
        /// Entries of `Metadata` looked at; the rest are passed over (and the player told
        /// about in the log).
        static let metadataEntries = 256
    }

    /// A property the player sent in a form the specification does not allow: the property
    /// is ignored and the player named in the log, once per player and property.
    struct Problem: Sendable, Hashable, CustomStringConvertible {
        var property: String
        var what: String
        var description: String { "\(property) \(what)" }
    }

    /// Sets `property` (one of ``MPRIS/rootProperties`` or ``MPRIS/playerProperties``) from
    /// `value` (variants looked through). Returns what was wrong with it, leaving the old value,
    /// or nil when it was taken (or is a property the provider does not read).
    mutating func apply(_ property: String, _ value: Value) -> Problem? {
        let value = value.unwrappedVariant
        func wrongType(_ expected: String) -> Problem {
            Problem(property: property, what: "has type \(value.type.signature.quoted(prefix: 16)), not \"\(expected)\"")
        }
        switch property {
        case "Identity":
            guard let text = value.string else { return wrongType("s") }
            identity = Self.bounded(text).nonEmpty
        case "DesktopEntry":
            guard let text = value.string else { return wrongType("s") }
            switch Self.desktopEntry(text) {
            case .success(let entry): desktopEntry = entry
            case .failure(let problem): return Problem(property: property, what: problem.description)
            }
        case "PlaybackStatus":
            guard let text = value.string else { return wrongType("s") }
            guard let status = PlaybackStatus(rawValue: text) else {
                return Problem(property: property, what: "is \(text.quoted(prefix: 32)), not Playing, Paused or Stopped")
            }
            playbackStatus = status
            hasPlayerInterface = true
        case "CanPlay", "CanPause", "CanGoNext", "CanGoPrevious", "CanControl":
            guard let flag = value.bool else { return wrongType("b") }
            switch property {
            case "CanPlay": canPlay = flag
            case "CanPause": canPause = flag
            case "CanGoNext": canGoNext = flag
            case "CanGoPrevious": canGoPrevious = flag
            default: canControl = flag
            }
            hasPlayerInterface = true
        case "Metadata":
            guard case .dictionary(key: .string, value: .variant, let entries) = value else { return wrongType("a{sv}") }
            hasPlayerInterface = true
            return applyMetadata(entries)
        default:
            break
        }
        return nil
    }

    /// `Metadata`: only `xesam:artist` (`as`) and `xesam:title` (`s`) are kept; a wrongly
    /// typed one is dropped (the other kept). Both are cleared first: metadata without them is
    /// a track without them.
    private mutating func applyMetadata(_ entries: [DictionaryEntry]) -> Problem? {
        artists = []
        title = nil
        var problem: Problem?
        for entry in entries.prefix(Limits.metadataEntries) {
            guard let key = entry.key.string else { continue }
            let value = entry.value.unwrappedVariant
            switch key {
            case "xesam:title":
                if let text = value.string {
                    title = Self.bounded(text).nonEmpty
                } else {
                    problem = Problem(property: "Metadata xesam:title",
                                      what: "has type \(value.type.signature.quoted(prefix: 16)), not \"s\"")
                }
            case "xesam:artist":
                if case .array(.string, let names) = value {
                    artists = names.prefix(Limits.artists).compactMap { $0.string.map { Self.bounded($0) }?.nonEmpty }
                } else if let single = value.string {
                    // Some players send one string; the specification says "as", but the
                    // meaning is plain.
                    artists = Self.bounded(single).nonEmpty.map { [$0] } ?? []
                } else {
                    problem = Problem(property: "Metadata xesam:artist",
                                      what: "has type \(value.type.signature.quoted(prefix: 16)), not \"as\"")
                }
            default:
                continue
            }
        }
        if entries.count > Limits.metadataEntries, problem == nil {
            problem = Problem(property: "Metadata",
                              what: "has \(entries.count) entries; only the first \(Limits.metadataEntries) are read")
        }
        return problem
    }

    /// The text cut to ``Limits/textBytes`` bytes at a character boundary.
    static func bounded(_ text: String, bytes limit: Int = Limits.textBytes) -> String {
        guard text.utf8.count > limit else { return text }
        var kept = ""
        var used = 0
        for character in text {
            let size = character.utf8.count
            guard used + size <= limit else { break }
            kept.append(character)
            used += size
        }
        return kept
    }

    /// `DesktopEntry` checked: a desktop file id without `.desktop` (a trailing `.desktop` some
    /// players add is taken off), no folder, at most 255 bytes; empty means none.
    static func desktopEntry(_ text: String) -> Result<String?, DesktopEntryProblem> {
        var entry = Substring(text)
        if entry.hasSuffix(".desktop") { entry = entry.dropLast(".desktop".count) }
        if entry.isEmpty { return .success(nil) }
        guard text.utf8.count <= Limits.desktopEntryBytes else {
            return .failure(DesktopEntryProblem("is \(text.quoted()), longer than \(Limits.desktopEntryBytes) bytes"))
        }
        guard !entry.contains("/"), !entry.hasPrefix("."), !entry.unicodeScalars.contains(where: { $0.value < 0x20 })
        else {
            return .failure(DesktopEntryProblem("is \(text.quoted()), not a desktop file id"))
        }
        return .success(String(entry))
    }

    struct DesktopEntryProblem: Error, Sendable, Hashable, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}

extension String {
    /// nil for "", else the string.
    var nonEmpty: String? { isEmpty ? nil : self }
}
