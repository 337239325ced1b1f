import Locking

/// A string and its translations, keyed as the Desktop Entry Specification keys them
/// (`lang_COUNTRY@MODIFIER`, `lang_COUNTRY`, `lang@MODIFIER`, `lang`).
public struct LocalizedText: Sendable, Hashable, ExpressibleByStringLiteral {
    /// The untranslated value.
    public var value: String
    public var translations: [String: String]

    public init(_ value: String, translations: [String: String] = [:]) {
        self.value = value
        self.translations = translations
    }

    public init(stringLiteral value: String) {
        self.init(value)
    }

    /// The value for a caller's locale (a POSIX locale such as `de_DE.UTF-8@euro`, or a BCP 47
    /// tag such as `pt-BR`), matched as the specification says: `lang_COUNTRY@MODIFIER`, then
    /// `lang_COUNTRY`, then `lang@MODIFIER`, then `lang`, then the untranslated value.
    public func resolved(for locale: String) -> String {
        guard !translations.isEmpty else { return value }
        for key in Self.lookupKeys(for: locale) {
            if let found = translations[key] { return found }
        }
        return value
    }

    /// The keys to try for `locale`, most specific first; empty for "", "C" and "POSIX".
    /// Remembered per locale: a listing resolves every app's name and items for one locale,
    /// thousands of times, and splitting it each time was most of resolving.
    public static func lookupKeys(for locale: String) -> [String] {
        // Real locales are short; a caller's made-up long one is split, never kept.
        guard locale.utf8.count <= 64 else { return makeLookupKeys(for: locale) }
        if let known = knownKeys.withLock({ $0[locale] }) { return known }
        let keys = makeLookupKeys(for: locale)
        knownKeys.withLock { known in
            // Callers name a handful of locales; a caller cycling through made-up ones starts it over.
            if known.count >= 64 { known.removeAll() }
            known[locale] = keys
        }
        return keys
    }

    private static let knownKeys = Locked<[String: [String]]>([:])

    private static func makeLookupKeys(for locale: String) -> [String] {
        var rest = Substring(locale)
        var modifier: Substring?
        if let at = rest.firstIndex(of: "@") {
            modifier = rest[rest.index(after: at)...]
            rest = rest[..<at]
        }
        if let dot = rest.firstIndex(of: ".") { rest = rest[..<dot] }
        let parts = rest.split(maxSplits: 1, whereSeparator: { $0 == "_" || $0 == "-" })
        guard let language = parts.first, !language.isEmpty, language != "C", language != "POSIX" else { return [] }
        let country = parts.count > 1 ? parts[1] : nil
        var keys: [String] = []
        if let country, let modifier { keys.append("\(language)_\(country)@\(modifier)") }
        if let country { keys.append("\(language)_\(country)") }
        if let modifier { keys.append("\(language)@\(modifier)") }
        keys.append(String(language))
        return keys
    }
}
