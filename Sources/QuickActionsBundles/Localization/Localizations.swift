import Locking

/// A bundle's `InfoPlist.strings` tables by `.lproj` name (`de`, `pt-BR`, `Base`), with lookup
/// along `LocaleFallback.chain`.
///
/// The tables to search for a locale are worked out once per locale and cached, so listing
/// thousands of items costs one dictionary lookup per table in the chain.
public final class Localizations: Sendable {
    /// The tables by `.lproj` name, without the extension.
    public let tables: [String: StringsTable]
    /// `CFBundleDevelopmentRegion`, tried after the locale's own names.
    public let developmentRegion: String?

    private let cache = Locked<[String: [StringsTable]]>([:])

    public init(tables: [String: StringsTable] = [:], developmentRegion: String? = nil) {
        self.tables = tables
        self.developmentRegion = developmentRegion
    }

    /// The localised string for `key` in `locale` (POSIX `de_AT.UTF-8` or BCP 47 `de-AT`):
    /// the first table in the fallback chain that has the key gives it; with none, the key as written.
    public func localized(_ key: String, locale: String) -> String {
        lookup(key, locale: locale) ?? key
    }

    /// The localised string for `key`, or nil when no table in the chain has it.
    public func lookup(_ key: String, locale: String) -> String? {
        for table in tablesInOrder(for: locale) {
            if let value = table[key] { return value }
        }
        return nil
    }

    /// The tables to search for `locale`, in order; computed once per locale.
    func tablesInOrder(for locale: String) -> [StringsTable] {
        if tables.isEmpty { return [] }
        if let cached = cache.withLock({ $0[locale] }) { return cached }
        let ordered = LocaleFallback.chain(for: locale, developmentRegion: developmentRegion)
            .compactMap { tables[$0] }
        cache.withLock { cache in
            // Locales come from callers (D-Bus options); bound the cache rather than trust them.
            if cache.count >= 64 { cache.removeAll(keepingCapacity: true) }
            cache[locale] = ordered
        }
        return ordered
    }
}

extension Localizations: Equatable {
    public static func == (lhs: Localizations, rhs: Localizations) -> Bool {
        lhs.tables == rhs.tables && lhs.developmentRegion == rhs.developmentRegion
    }
}
