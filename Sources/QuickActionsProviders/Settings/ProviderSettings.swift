import QuickActionsAPI

/// Which item providers quickactionsd runs, and how: its command line's `--no-desktop-actions`,
/// `--no-recent-documents`, `--no-media-players`, over the user's settings file
/// `$XDG_CONFIG_HOME/quickactions/quickactionsd.conf` (default `~/.config`), a key file as
/// desktop entries are:
///
/// ```ini
/// [Providers]
/// # Each is true unless set false here (or turned off on the command line).
/// desktop-actions=true
/// recent-documents=true
/// media-players=false
///
/// [Recent Documents]
/// # How many of each application's documents are offered, 0 to 64.
/// limit=5
/// ```
///
/// A line that is not a group, a comment or a known key with a good value is an error naming
/// the file, the line and the text at fault; flags win over the file.
public struct ProviderSettings: Sendable, Equatable {
    public var desktopActions = true
    public var recentDocuments = true
    public var mediaPlayers = true
    /// How many documents per application.
    public var recentDocumentsLimit = 5

    public static let recentDocumentsLimitRange: ClosedRange<Int> = 0...64

    public init() {}

    /// The settings file's path for `environment`, or nil when neither `XDG_CONFIG_HOME` nor
    /// `HOME` is an absolute path.
    public static func path(environment: [String: String]) -> String? {
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
            return config + "/quickactions/quickactionsd.conf"
        }
        if let home = environment["HOME"], home.hasPrefix("/") {
            return home + "/.config/quickactions/quickactionsd.conf"
        }
        return nil
    }

    /// A settings file's text applied over these settings.
    /// - Parameter path: names the file in errors.
    public func applying(_ text: String, path: String) throws(ProviderSettingsError) -> ProviderSettings {
        var settings = self
        var group: String?
        // By Character, "\r\n" is one grapheme and not "\n": a file written on Windows (or
        // by an editor set to CRLF) would be one line. Both end a line, as in GLib's key files.
        let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
        for (index, rawLine) in lines.enumerated() {
            let line = rawLine.trimmingSpaces()
            let number = index + 1
            func fail(_ reason: String) -> ProviderSettingsError {
                ProviderSettingsError(path: path, line: number, text: String(rawLine), reason: reason)
            }
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("[") {
                guard line.hasSuffix("]"), line.count > 2 else { throw fail("a group header must be [Name]") }
                let name = String(line.dropFirst().dropLast())
                guard Self.groups.contains(name) else {
                    throw fail("unknown group; known: \(Self.groups.map { "[\($0)]" }.joined(separator: ", "))")
                }
                group = name
                continue
            }
            guard let equals = line.firstIndex(of: "=") else { throw fail("expected key=value, a [Group] or a # comment") }
            let key = line[..<equals].trimmingSpaces()
            let value = line[line.index(after: equals)...].trimmingSpaces()
            switch (group, key) {
            // The keys are the providers' names.
            case (Self.providersGroup, ItemKey.Provider.desktopActions): settings.desktopActions = try boolean(value, fail)
            case (Self.providersGroup, ItemKey.Provider.recentDocuments): settings.recentDocuments = try boolean(value, fail)
            case (Self.providersGroup, ItemKey.Provider.mediaPlayers): settings.mediaPlayers = try boolean(value, fail)
            case (Self.recentDocumentsGroup, Self.limitKey):
                guard let limit = Int(value), Self.recentDocumentsLimitRange.contains(limit) else {
                    throw fail("limit must be a whole number from 0 to \(Self.recentDocumentsLimitRange.upperBound)")
                }
                settings.recentDocumentsLimit = limit
            case (nil, _): throw fail("a key before any [Group]")
            case (let group?, _): throw fail("unknown key in [\(group)]")
            }
        }
        return settings
    }

    static let providersGroup = "Providers"
    static let recentDocumentsGroup = "Recent Documents"
    static let limitKey = "limit"
    static let groups = [providersGroup, recentDocumentsGroup]

    private func boolean(_ value: String, _ fail: (String) -> ProviderSettingsError) throws(ProviderSettingsError) -> Bool {
        switch value {
        case "true": return true
        case "false": return false
        default: throw fail("the value must be true or false")
        }
    }
}

/// A settings file line that cannot be read.
public struct ProviderSettingsError: Error, Sendable, Equatable, CustomStringConvertible {
    public let path: String
    public let line: Int
    /// The line as written, at most 80 characters of it.
    public let text: String
    public let reason: String

    init(path: String, line: Int, text: String, reason: String) {
        self.path = path
        self.line = line
        self.text = text.count > 80 ? String(text.prefix(80)) + "…" : text
        self.reason = reason
    }

    public var description: String { "\(path):\(line): \(reason): \(text.debugDescription)" }
}

extension StringProtocol {
    fileprivate func trimmingSpaces() -> String {
        var text = Substring(self)
        while let first = text.first, first == " " || first == "\t" || first == "\r" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" || last == "\r" { text.removeLast() }
        return String(text)
    }
}
