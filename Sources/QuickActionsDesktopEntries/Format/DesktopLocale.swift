/// The locale of a `Name[…]` key, spelled as the Desktop Entry Specification wants it
/// (`lang_COUNTRY@MODIFIER`, as POSIX locales are), made from a bundle's `.lproj` name
/// (BCP 47 `pt-BR`, `zh-Hans`, `sr-Latn`, or POSIX `pt_BR`).
public enum DesktopLocale {
    /// The key locale for an `.lproj` name, or nil when it names no language a desktop can
    /// match (`Base`, legacy names such as `English`, anything malformed).
    ///
    /// | `.lproj`  | key       |
    /// |-----------|-----------|
    /// | `de`      | `de`      |
    /// | `pt-BR`, `pt_BR` | `pt_BR` |
    /// | `zh-Hans` | `zh_CN`   |
    /// | `zh-Hant` | `zh_TW`   |
    /// | `sr-Latn` | `sr@latin`|
    /// | `es-419`  | `es`      |
    public static func key(forLanguage name: String) -> String? {
        let parts = name.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "-" || $0 == "_" })
        guard let first = parts.first, (2...3).contains(first.count), first.allSatisfy(\.isASCIILetter),
              first == first.lowercased()
        else { return nil }
        let language = String(first)
        var country: String?
        var modifier: String?
        for part in parts.dropFirst() {
            if part.count == 4, part.allSatisfy(\.isASCIILetter) {
                switch (language, part.lowercased()) {
                case ("zh", "hans"): country = country ?? "CN"
                case ("zh", "hant"): country = country ?? "TW"
                case (_, "latn"): modifier = "latin"
                case (_, "cyrl"): modifier = "cyrillic"
                default: return nil
                }
            } else if part.count == 2, part.allSatisfy(\.isASCIILetter) {
                country = part.uppercased()
            } else if part.count == 3, part.allSatisfy(\.isNumber) {
                continue  // A UN M.49 region (es-419) has no POSIX spelling: the language alone.
            } else {
                return nil
            }
        }
        return language + (country.map { "_\($0)" } ?? "") + (modifier.map { "@\($0)" } ?? "")
    }
}

extension Character {
    fileprivate var isASCIILetter: Bool { isASCII && isLetter }
}
