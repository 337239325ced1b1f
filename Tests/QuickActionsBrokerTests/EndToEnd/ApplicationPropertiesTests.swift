import Foundation
import QuickActionsTestSupport
import Testing

/// Application1's Languages and DesktopEntry, read with busctl as the desktop-entry bridge's
/// users (and any other client) would.
@Suite struct ApplicationPropertiesTests {
    static func property(_ harness: BrokerHarness, _ app: String, _ name: String) async throws -> String {
        let escaped = app.replacingOccurrences(of: ".", with: "_2e")
        let result = try await harness.busctl([
            "get-property", BrokerHarness.busName, "/org/quickactions/Broker1/apps/\(escaped)",
            "org.quickactions.Application1", name,
        ])
        #expect(result.status == 0, "\(result)")
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test(arguments: [
        ("org.gnome.Contacts", "s \"org.gnome.Contacts.desktop\""),
        ("org.gnome.Contacts.desktop", "s \"org.gnome.Contacts.desktop\""),
        ("../escape.desktop", "s \"\""),
        ("with space", "s \"\""),
    ])
    func desktopEntryIsTheNamedIDWithItsSuffixOrEmpty(value: String, shown: String) async throws {
        var bundle = TestBundle(
            appID: "org.example.props", library: "QATestSwiftPlugin", name: "Props",
            items: [TestBundle.item("a", "A")],
            strings: ["de": "\"A\" = \"Ä\";\n", "pt-BR": "\"A\" = \"Á\";\n", "Base": "\"A\" = \"A\";\n"])
        bundle.extraInfo["QuickActionsDesktopEntry"] = value
        let harness = try await BrokerHarness(bundles: [bundle])
        defer { harness.stop() }
        #expect(try await Self.property(harness, bundle.appID, "DesktopEntry") == shown)
        #expect(try await Self.property(harness, bundle.appID, "Languages") == "as 2 \"de\" \"pt-BR\"")
    }

    @Test func displayNamesGiveTheNameInEachLanguageAndInNone() async throws {
        let bundle = TestBundle(
            appID: "org.example.names", library: "QATestSwiftPlugin", name: "Contacts", items: [TestBundle.item("a", "A")],
            strings: ["de": "\"Contacts\" = \"Kontakte\";\n", "fr": "\"Other\" = \"Autre\";\n"])
        let harness = try await BrokerHarness(bundles: [bundle], environment: ["LC_ALL": "de_DE.UTF-8"])
        defer { harness.stop() }
        #expect(try await Self.property(harness, bundle.appID, "DisplayNames")
                == "a{ss} 3 \"C\" \"Contacts\" \"de\" \"Kontakte\" \"fr\" \"Contacts\"")
        #expect(try await Self.property(harness, bundle.appID, "Name") == "s \"Kontakte\"")
    }

    @Test func withoutTheKeyDesktopEntryIsEmptyAndWithoutTablesNoLanguages() async throws {
        let bundle = TestBundle(appID: "org.example.bare", library: "QATestSwiftPlugin", items: [TestBundle.item("a", "A")])
        let harness = try await BrokerHarness(bundles: [bundle])
        defer { harness.stop() }
        #expect(try await Self.property(harness, bundle.appID, "DesktopEntry") == "s \"\"")
        #expect(try await Self.property(harness, bundle.appID, "Languages") == "as 0")
    }
}
