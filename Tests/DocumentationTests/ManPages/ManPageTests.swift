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

    /// Each command's paragraph under COMMANDS documents every option its
    /// --help's USAGE line lists (pick takes --arg as invoke does, and says so).
    @Test(arguments: ["apps", "list", "invoke", "pick", "watch", "status"])
    func quickactionsPageDocumentsEveryOptionOfEachCommand(_ command: String) async throws {
        let help = try await Command.run(PackagePaths.executable("quickactions").path, [command, "--help"])
        try #require(help.status == 0, "\(help)")
        let usage = help.stdout.components(separatedBy: "\n\n").first { $0.hasPrefix("USAGE") } ?? ""
        // --json is documented once, under OPTIONS, for every command.
        let options = Self.longOptions(in: usage).subtracting(["--json"])
        let page = try String(
            contentsOf: PackagePaths.root.appendingPathComponent("docs/man/quickactions.1"), encoding: .utf8)
            .replacingOccurrences(of: "\\-", with: "-")
        let commands = try #require(page.range(of: "\n.SH COMMANDS"))
        let body = page[commands.upperBound...]
        let start = try #require(
            body.range(of: "\n.TP\n.B \(command)\n") ?? body.range(of: "\n.TP\n.BI \(command) "), "no paragraph for \(command)")
        let rest = body[start.upperBound...]
        let end = [rest.range(of: "\n.TP\n"), rest.range(of: "\n.SH ")].compactMap { $0?.lowerBound }.min()
        let paragraph = rest[..<(end ?? rest.endIndex)]
        for option in options.sorted() {
            #expect(paragraph.contains(option), "the \(command) paragraph of quickactions.1 does not document \(option)")
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
