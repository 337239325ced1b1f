import Testing
@testable import QuickActionsBundles
@testable import QuickActionsModel

@Suite struct LocalizationTests {
    @Test(arguments: [
        ("de_AT.UTF-8@euro", "fr", ["de_AT", "de-AT", "de", "fr", "en", "Base"]),
        ("de_AT.UTF-8", "fr", ["de_AT", "de-AT", "de", "fr", "en", "Base"]),
        ("de_AT", nil, ["de_AT", "de-AT", "de", "en", "Base"]),
        ("de-AT", "en", ["de-AT", "de_AT", "de", "en", "Base"]),
        ("de", "de", ["de", "en", "Base"]),
        ("en_US.UTF-8", "en", ["en_US", "en-US", "en", "Base"]),
        ("zh-Hans-CN", "fr", ["zh-Hans-CN", "zh_Hans_CN", "zh-Hans", "zh_Hans", "zh", "fr", "en", "Base"]),
        ("sr_RS@latin", nil, ["sr_RS", "sr-RS", "sr", "en", "Base"]),
        ("C", "fr", ["fr", "en", "Base"]),
        ("C.UTF-8", "fr", ["fr", "en", "Base"]),
        ("POSIX", "fr", ["fr", "en", "Base"]),
        ("", "fr", ["fr", "en", "Base"]),
        ("", nil, ["en", "Base"]),
        ("", "", ["en", "Base"]),
    ] as [(String, String?, [String])])
    func fallbackChain(_ locale: String, _ developmentRegion: String?, _ expected: [String]) {
        #expect(LocaleFallback.chain(for: locale, developmentRegion: developmentRegion) == expected)
    }

    static let localizations = Localizations(
        tables: [
            "de": StringsTable(["Play": "Abspielen", "Search": "Suchen"]),
            "de-AT": StringsTable(["Search": "Suchen (AT)"]),
            "fr": StringsTable(["Play": "Lire", "Only French": "Seulement"]),
            "Base": StringsTable(["Base only": "From Base"]),
        ],
        developmentRegion: "fr"
    )

    @Test(arguments: [
        ("Search", "de_AT.UTF-8", "Suchen (AT)"),
        ("Play", "de_AT.UTF-8", "Abspielen"),
        ("Play", "de_CH", "Abspielen"),
        ("Only French", "de_DE", "Seulement"),
        ("Play", "it_IT", "Lire"),
        ("Base only", "de", "From Base"),
        ("Missing", "de", "Missing"),
        ("Play", "C", "Lire"),
    ])
    func lookupFollowsTheChain(_ key: String, _ locale: String, _ expected: String) {
        #expect(Self.localizations.localized(key, locale: locale) == expected)
    }

    @Test func lookupIsCachedPerLocale() {
        let localizations = Localizations(tables: ["de": StringsTable(["a": "b"])])
        #expect(localizations.tablesInOrder(for: "de_DE").count == 1)
        #expect(localizations.tablesInOrder(for: "de_DE") == localizations.tablesInOrder(for: "de_DE"))
        for index in 0..<200 {
            #expect(localizations.localized("a", locale: "de_\(index)") == "b")
        }
    }
}
