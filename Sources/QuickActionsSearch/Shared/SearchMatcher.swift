import Foundation

/// Matching typed text against items, and the relevance the bridges report.
///
/// Text is compared after folding case and diacritics in the broker's locale (KRunner and
/// GNOME Shell give no locale of their own; the items are listed in the broker's locale too).
/// The query is split into terms at white space; an item matches when every term matches
/// one of its fields. A term's quality in a field:
///
///     1.0   the field starts with the term        ("pla" in "Play")
///     0.8   a word of the field starts with it    ("sha" in "Quick share")
///     0.5   the field contains it elsewhere       ("lay" in "Play")
///
/// weighted by the field: title 1, subtitle 0.8, app name 0.7. A term scores its best field;
/// the item's match quality is the mean over the terms. Then
///
///     relevance = 0.8 × quality + 0.2 × f / (1 + f),   f = the item's frecency
///
/// in 0…1: match quality first, and among equally good matches the most used first.
public struct SearchMatcher: Sendable {
    public let locale: Locale

    public init(locale: Locale) {
        self.locale = locale
    }

    /// The broker's own locale from the environment (LC_ALL, LC_MESSAGES, LANG), as the broker reads it.
    public init(environment: [String: String]) {
        let name = [environment["LC_ALL"], environment["LC_MESSAGES"], environment["LANG"]]
            .compactMap { $0 }.first { !$0.isEmpty } ?? "C"
        let identifier = name.split(separator: ".").first.map(String.init) ?? name
        self.init(locale: Locale(identifier: identifier == "C" || identifier == "POSIX" ? "en_US_POSIX" : identifier))
    }

    /// The most terms a query may have; more are ignored (a shell may send a pasted paragraph).
    public static let maximumTerms = 16
    /// The longest term compared, in characters.
    public static let maximumTermLength = 256

    /// The query's terms, folded: split at white space, empty ones dropped, bounded.
    public func terms(_ query: [String]) -> [String] {
        query.flatMap { $0.split(whereSeparator: \.isWhitespace) }
            .prefix(Self.maximumTerms)
            .map { fold(String($0.prefix(Self.maximumTermLength))) }
    }

    func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: locale)
    }

    /// The match quality of `entry` for folded `terms` (see the type), or nil when a term matches nothing.
    public func quality(of entry: SearchEntry, terms: [String]) -> Double? {
        guard !terms.isEmpty else { return nil }
        let fields: [(String, Double)] = [
            (fold(entry.title), 1.0), (fold(entry.subtitle ?? ""), 0.8), (fold(entry.appName), 0.7),
        ]
        var total = 0.0
        for term in terms {
            let best = fields.map { Self.quality(of: term, in: $0.0) * $0.1 }.max() ?? 0
            if best == 0 { return nil }
            total += best
        }
        return total / Double(terms.count)
    }

    static func quality(of term: String, in field: String) -> Double {
        guard !term.isEmpty, let range = field.range(of: term) else { return 0 }
        if range.lowerBound == field.startIndex { return 1.0 }
        // A word starts there if the character before is not a letter or digit; a later
        // occurrence may start a word even when the first does not.
        var search = field.startIndex..<field.endIndex
        while let found = field.range(of: term, range: search) {
            if found.lowerBound == field.startIndex { return 1.0 }
            let before = field[field.index(before: found.lowerBound)]
            if !before.isLetter && !before.isNumber { return 0.8 }
            search = field.index(after: found.lowerBound)..<field.endIndex
        }
        return 0.5
    }

    /// The relevance of a match of `quality` for an item with `frecency` (see the type).
    public static func relevance(quality: Double, frecency: Double) -> Double {
        let usage = frecency > 0 ? frecency / (1 + frecency) : 0
        return 0.8 * quality + 0.2 * usage
    }

    /// One ranked match.
    public struct Match: Sendable, Equatable {
        public var entry: SearchEntry
        public var quality: Double
        public var relevance: Double
    }

    /// The entries matching `query`, best first (ties keep the entries' order), at most `limit`.
    public func search(_ entries: [SearchEntry], query: [String], limit: Int = 50) -> [Match] {
        let terms = terms(query)
        guard !terms.isEmpty else { return [] }
        let matches = entries.enumerated().compactMap { index, entry -> (Int, Match)? in
            guard let quality = quality(of: entry, terms: terms) else { return nil }
            return (index, Match(entry: entry, quality: quality,
                                 relevance: Self.relevance(quality: quality, frecency: entry.frecency)))
        }
        return matches.sorted { $0.1.relevance > $1.1.relevance || ($0.1.relevance == $1.1.relevance && $0.0 < $1.0) }
            .prefix(max(0, limit)).map(\.1)
    }
}
