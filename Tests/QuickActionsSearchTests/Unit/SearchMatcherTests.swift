import Foundation
import QuickActionsSearch
import Testing

/// Match quality, relevance and ranking of the search bridges.
@Suite struct SearchMatcherTests {
    let matcher = SearchMatcher(locale: Locale(identifier: "de_DE"))

    static func entry(_ title: String, subtitle: String? = nil, app: String = "Contacts", frecency: Double = 0) -> SearchEntry {
        SearchEntry(appID: "com.example.contacts", appName: app, itemID: title, type: "T", title: title,
                    subtitle: subtitle, frecency: frecency)
    }

    @Test(arguments: [
        ("play", "Play music", 1.0),
        ("mus", "Play music", 0.8),
        ("lay", "Play music", 0.5),
        ("PLÄY", "Play music", 1.0),  // case and diacritics are folded
        ("emma", "Mia Schneider", nil),
    ] as [(String, String, Double?)])
    func titleQuality(term: String, title: String, expected: Double?) {
        let quality = matcher.quality(of: Self.entry(title), terms: matcher.terms([term]))
        #expect(quality == expected, "\"\(term)\" in \"\(title)\": \(String(describing: quality))")
    }

    @Test func everyTermMustMatchSomeField() {
        let entry = Self.entry("Emma Wagner", subtitle: "emma@example.org")
        #expect(matcher.quality(of: entry, terms: matcher.terms(["emma", "contacts"])) != nil, "the app's name counts")
        #expect(matcher.quality(of: entry, terms: matcher.terms(["emma", "nobody"])) == nil)
        #expect(matcher.quality(of: entry, terms: matcher.terms(["  "])) == nil, "no terms match nothing")
        let subtitleOnly = matcher.quality(of: entry, terms: matcher.terms(["example"]))
        #expect(subtitleOnly == 0.8 * 0.8, "a word start in the subtitle: \(String(describing: subtitleOnly))")
    }

    @Test func relevanceIsQualityFirstThenFrecency() {
        #expect(SearchMatcher.relevance(quality: 1, frecency: 0) == 0.8)
        #expect(SearchMatcher.relevance(quality: 1, frecency: 1) == 0.9)
        #expect(SearchMatcher.relevance(quality: 0.5, frecency: 1000) < SearchMatcher.relevance(quality: 1, frecency: 0))
        let entries = [Self.entry("Share contact"), Self.entry("Search contacts", frecency: 3), Self.entry("Save")]
        let ranked = matcher.search(entries, query: ["s"]).map(\.entry.title)
        #expect(ranked == ["Search contacts", "Share contact", "Save"], "equal quality: the used one first, then list order")
        let prefixFirst = matcher.search([Self.entry("Quick share"), Self.entry("Share")], query: ["share"]).map(\.entry.title)
        #expect(prefixFirst == ["Share", "Quick share"])
    }

    @Test func resultIDsRoundTripAndRejectJunk() {
        let id = ResultID(appID: "com.example.contacts", itemID: "fav/Emma Wagner")
        #expect(ResultID(id.rawValue) == id)
        for junk in ["", "noslash", "/item", "app/"] { #expect(ResultID(junk) == nil, "\(junk)") }
    }

    @Test func boundsTheQuery() {
        let terms = matcher.terms([String(repeating: "a b ", count: 100), String(repeating: "x", count: 10_000)])
        #expect(terms.count == SearchMatcher.maximumTerms)
        #expect(matcher.terms([String(repeating: "x", count: 10_000)]).first?.count == SearchMatcher.maximumTermLength)
    }
}
