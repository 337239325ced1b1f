import Foundation
import QuickActionsTestSupport
import Testing

/// docs/plugin-guide.md, replayed block by block: every file it shows is
/// written, every command run, every plugin built, bundled and performed on
/// a private bus with the real broker, and every output it shows compared.
@Suite(.serialized)
struct PluginGuideTests {
    static let path = "docs/plugin-guide.md"

    @Test func everyCodeBlockOfTheGuideBelongsToAScenario() throws {
        let document = try GuideDocument(markdown: try Self.text())
        #expect(document.scenarios.map(\.name) == ["swift", "c"])
        for scenario in document.scenarios {
            #expect(scenario.steps.count >= 5, "scenario \(scenario.name) has only \(scenario.steps.count) steps")
        }
    }

    @Test(arguments: ["swift", "c"])
    func guideScenarioWorksAsWritten(_ name: String) async throws {
        let document = try GuideDocument(markdown: try Self.text())
        let scenario = try #require(document.scenarios.first { $0.name == name }, "no scenario \(name) in \(Self.path)")
        try await GuideReplay.replay(scenario, id: "guide-\(name)")
    }

    static func text() throws -> String {
        try String(contentsOf: PackagePaths.root.appendingPathComponent(path), encoding: .utf8)
    }
}

/// Runs a scenario and records its failure as a test issue.
enum GuideReplay {
    static func replay(_ scenario: GuideDocument.Scenario, id: String) async throws {
        let runner = try await GuideRunner(id: id)
        do {
            try await runner.run(scenario)
            runner.finish(keep: false)
        } catch {
            runner.finish(keep: true)
            Issue.record("\(error)\n(the scenario's folder is kept in \(runner.work.path))")
        }
    }
}
