/// The order in which `.lproj` tables are searched for a POSIX or BCP 47 locale.
public enum LocaleFallback {
    /// The `.lproj` names to try for `locale`, most specific first, without duplicates.
    ///
    /// The codeset (`.UTF-8`) and modifier (`@euro`) are dropped; then each shorter prefix is
    /// tried in both the underscore and the hyphen spelling, then the bundle's development
    /// region, `en` and `Base`:
    ///
    /// | locale              | chain (development region `fr`)                 |
    /// |---------------------|--------------------------------------------------|
    /// | `de_AT.UTF-8@euro`  | de_AT, de-AT, de, fr, en, Base                   |
    /// | `zh-Hans-CN`        | zh-Hans-CN, zh_Hans_CN, zh-Hans, zh_Hans, zh, fr, en, Base |
    /// | `C`, `POSIX`, empty | fr, en, Base                                     |
    public static func chain(for locale: String, developmentRegion: String?) -> [String] {
        var names: [String] = []
        func add(_ name: String) {
            if !name.isEmpty, !names.contains(name) { names.append(name) }
        }
        let language = Self.languagePart(of: locale)
        if language != "C" && language != "POSIX" {
            let separator: Character = language.contains("-") && !language.contains("_") ? "-" : "_"
            let other: Character = separator == "_" ? "-" : "_"
            var parts = language.split(
                omittingEmptySubsequences: false, whereSeparator: { $0 == "_" || $0 == "-" }
            )
            while !parts.isEmpty {
                add(parts.joined(separator: String(separator)))
                add(parts.joined(separator: String(other)))
                parts.removeLast()
            }
        }
        add(developmentRegion ?? "")
        add("en")
        add("Base")
        return names
    }

    /// `de_AT.UTF-8@euro` → `de_AT`.
    private static func languagePart(of locale: String) -> String {
        let end = locale.firstIndex { $0 == "." || $0 == "@" } ?? locale.endIndex
        return String(locale[..<end])
    }
}
