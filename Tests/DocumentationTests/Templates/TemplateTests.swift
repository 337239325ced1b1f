import Foundation
import QuickActionsTestSupport
import Testing

/// templates/README.md, replayed: `make new-plugin` in Swift and in C, and a
/// template folder copied as it is, each built, bundled, loaded by the real
/// broker on a private bus and performed with busctl.
@Suite(.serialized)
struct TemplateTests {
    static let path = "templates/README.md"

    @Test(arguments: ["template-swift", "template-c", "template-copy"])
    func templateBuildsAndLoadsAsDocumented(_ name: String) async throws {
        let text = try String(contentsOf: PackagePaths.root.appendingPathComponent(Self.path), encoding: .utf8)
        let document = try GuideDocument(markdown: text)
        #expect(document.scenarios.map(\.name) == ["template-swift", "template-c", "template-copy"])
        let scenario = try #require(document.scenarios.first { $0.name == name }, "no scenario \(name) in \(Self.path)")
        try await GuideReplay.replay(scenario, id: name)
    }
}
