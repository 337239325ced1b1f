import Testing

/// The guide's own machinery: parsing markers and matching outputs, so that a
/// passing guide test means what it says.
struct GuideDocumentTests {
    @Test func blocksBecomeStepsOfTheirScenario() throws {
        let markdown = """
            <!-- guide: scenario one -->
            Text.
            <!-- guide: file Sources/A.swift -->
            ```swift
            let a = 1
            ```
            <!-- guide: run -->
            ```sh
            mkdir x
            ```
            <!-- guide: broker -->
            ```sh
            quickactionsd --plugins \\
                "$PWD/plugins"
            ```
            <!-- guide: console fails -->
            ```console
            $ busctl --user call \\
                a b
            Call failed: x
            ```
            """
        let document = try GuideDocument(markdown: markdown)
        #expect(document.scenarios.count == 1)
        #expect(document.scenarios[0].steps.map(\.step) == [
            .file(path: "Sources/A.swift", content: "let a = 1\n"),
            .run(script: "mkdir x"),
            .broker(command: "quickactionsd --plugins \"$PWD/plugins\""),
            .console(commands: [.init(command: "busctl --user call a b", expectedOutput: ["Call failed: x"])], fails: true),
        ])
    }

    @Test(arguments: [
        "<!-- guide: scenario one -->\n```sh\nls\n```",
        "<!-- guide: scenario one -->\n<!-- guide: run -->\nSome prose in between.\n```sh\nls\n```",
        "<!-- guide: run -->\n```sh\nls\n```",
        "<!-- guide: scenario one -->\n<!-- guide: frobnicate -->\n```sh\nls\n```",
        "<!-- guide: scenario one -->\n<!-- guide: run -->\n```sh\nls\n",
    ])
    func aBlockWithoutAValidMarkerIsRefused(_ markdown: String) {
        #expect(throws: GuideDocument.ParseError.self) { try GuideDocument(markdown: markdown) }
    }

    @Test(arguments: [
        (["a", "b"], "a\nb\n", true),
        (["a", "b"], "a\nc\n", false),
        (["a"], "a\nb", false),
        (["icon \"…/wave.svg\""], "icon \"/tmp/x/wave.svg\"", true),
        (["icon \"…/wave.svg\""], "icon \"/tmp/x/wave.png\"", false),
        (["first", "…", "last"], "first\nx\ny\nlast", true),
        (["first", "…", "last"], "first\nlast", true),
        (["first", "…", "last"], "first\nx", false),
        ([], "", true),
        ([], "something", false),
    ])
    func outputsMatchAsShown(_ expected: [String], _ output: String, _ matches: Bool) {
        #expect(OutputPattern(expected).matches(output) == matches)
    }
}
