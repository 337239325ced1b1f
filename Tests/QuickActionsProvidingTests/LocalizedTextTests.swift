import QuickActionsProviding
import Testing

@Suite struct LocalizedTextTests {
    let text = LocalizedText(
        "Text Editor",
        translations: ["de": "Texteditor", "sr@latin": "Uređivač", "sr": "Уређивач", "pt_BR": "Editor de Texto", "pt": "Editor"])

    @Test(arguments: [
        ("de_DE.UTF-8", "Texteditor"), ("de", "Texteditor"), ("pt_BR.UTF-8", "Editor de Texto"), ("pt-BR", "Editor de Texto"),
        ("pt_PT", "Editor"), ("sr_RS@latin", "Uređivač"), ("sr_RS", "Уређивач"), ("fr_FR", "Text Editor"), ("C", "Text Editor"),
        ("", "Text Editor"), ("POSIX", "Text Editor"),
    ])
    func resolvesAsTheSpecificationSays(locale: String, expected: String) {
        #expect(text.resolved(for: locale) == expected)
    }

    @Test func lookupOrder() {
        #expect(LocalizedText.lookupKeys(for: "sr_RS.UTF-8@latin") == ["sr_RS@latin", "sr_RS", "sr@latin", "sr"])
    }

    /// The keys are remembered per locale: asked again, after more locales than are kept,
    /// and for a locale too long to keep, each answer is the one the specification gives.
    @Test func rememberedKeysStayRight() {
        for round in 0..<3 {
            for number in 0..<100 {
                #expect(LocalizedText.lookupKeys(for: "x\(number)_YY.UTF-8") == ["x\(number)_YY", "x\(number)"], "round \(round)")
            }
            #expect(text.resolved(for: "pt_BR.UTF-8") == "Editor de Texto")
            #expect(text.resolved(for: "sr_RS@latin") == "Uređivač")
        }
        let long = "de_" + String(repeating: "X", count: 70_000)
        #expect(LocalizedText.lookupKeys(for: long) == [long, "de"])
        #expect(text.resolved(for: long) == "Texteditor")
    }

    @Test(arguments: [
        ("gedit --new-window", "gedit"), ("/usr/bin/gedit %U", "gedit"), ("\"/opt/My App/run\" --x", "run"),
        ("  env  FOO=1 app", "env"), ("\"unterminated", nil), ("", nil),
    ] as [(String, String?)])
    func programOfExec(exec: String, expected: String?) {
        let app = InstalledApplication(desktopID: "a.desktop", appID: "a", path: "/a.desktop", name: "A", exec: exec)
        #expect(app.program == expected)
    }
}
