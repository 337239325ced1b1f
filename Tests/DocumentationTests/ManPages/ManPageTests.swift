import Foundation
import QuickActionsTestSupport
import Testing

/// docs/man: each page formats without a warning, and documents every option
/// its command's --help lists.
struct ManPageTests {
    @Test(arguments: ["quickactionsd", "quickactions"])
    func manPageFormatsWithoutWarnings(_ command: String) async throws {
        let page = PackagePaths.root.appendingPathComponent("docs/man/\(command).1").path
        let result = try await Command.run("groff", ["-man", "-ww", "-z", page])
        #expect(result.status == 0 && result.stderr.isEmpty, "groff on \(page): \(result)")
    }

    @Test func quickactionsdPageDocumentsEveryOptionOfItsHelp() async throws {
        let help = try await Command.run(PackagePaths.executable("quickactionsd").path, ["--help"])
        try #require(help.status == 0, "\(help)")
        let options = Self.longOptions(in: help.stdout)
        #expect(options.count >= 8, "found only \(options.sorted()) in --help")
        let page = try String(
            contentsOf: PackagePaths.root.appendingPathComponent("docs/man/quickactionsd.1"), encoding: .utf8)
        // roff writes a hyphen in an option as \-.
        let text = page.replacingOccurrences(of: "\\-", with: "-")
        for option in options.sorted() {
            #expect(text.contains(option), "docs/man/quickactionsd.1 does not document \(option)")
        }
    }

    /// Every `--word` in a help text.
    static func longOptions(in text: String) -> Set<String> {
        var found: Set<String> = []
        var rest = Substring(text)
        while let range = rest.range(of: "--") {
            let name = rest[range.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "-" }
            if let first = name.first, first.isLetter { found.insert("--" + name) }
            rest = rest[range.upperBound...]
        }
        return found
    }
}
