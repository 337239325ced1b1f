import Foundation

/// Renders `--help` text in swift-argument-parser's layout: OVERVIEW, USAGE,
/// ARGUMENTS, OPTIONS, then EXAMPLES and EXIT CODES.
public struct HelpFormatter: Sendable {
    public let toolName: String
    public let commands: [CommandSpec]
    /// Lines are wrapped to this many columns.
    public let width: Int

    public init(toolName: String, commands: [CommandSpec], width: Int = 80) {
        self.toolName = toolName
        self.commands = commands
        self.width = max(40, width)
    }

    /// The column option and command descriptions start in.
    private let labelWidth = 26

    /// The tool's own help: every visible command, the global options, the exit codes.
    public func rootHelp(overview: String, examples: [Example]) -> String {
        var out: [String] = []
        out += section("OVERVIEW", wrap(overview, indent: 0))
        let usage = "\(toolName) [--session | --system | --address <address>] <command> [<options>]"
        out += section("USAGE", wrap(usage, indent: 2).map { String($0.dropFirst(2)) })
        let visible = commands.filter { !$0.isHidden }
        out += section("COMMANDS", visible.flatMap { row(label: $0.name, text: $0.abstract) } + row(
            label: "help", text: "Show help for a command."))
        let options = GlobalOptions.specs + [ArgumentParser.versionOption, ArgumentParser.helpOption]
        out += section("GLOBAL OPTIONS", options.flatMap { row(label: $0.synopsis, text: $0.help) })
        out += exampleSection(examples)
        out += exitCodeSection()
        out.append("See '\(toolName) help <command>' for detailed help.")
        return out.joined(separator: "\n") + "\n"
    }

    /// One command's help.
    public func commandHelp(_ spec: CommandSpec) -> String {
        var out: [String] = []
        var overview = wrap(spec.abstract, indent: 0)
        for paragraph in paragraphs(spec.discussion ?? "") {
            overview += [""] + wrap(paragraph, indent: 0)
        }
        out += section("OVERVIEW", overview)
        out += section("USAGE", wrap(usage(spec), indent: 2).map { String($0.dropFirst(2)) })
        if !spec.arguments.isEmpty {
            out += section("ARGUMENTS", spec.arguments.flatMap { row(label: "<\($0.name)>", text: $0.help) })
        }
        let options = spec.options + [ArgumentParser.helpOption]
        out += section("OPTIONS", options.flatMap { row(label: $0.synopsis, text: $0.help) })
        out += section("GLOBAL OPTIONS", GlobalOptions.specs.flatMap { row(label: $0.synopsis, text: $0.help) })
        out += exampleSection(spec.examples)
        out += exitCodeSection()
        return out.dropLast().joined(separator: "\n") + "\n"
    }

    /// "quickactions list [<app-id>] [--json] [--locale <locale>] ..."
    public func usage(_ spec: CommandSpec) -> String {
        var parts = [toolName, spec.name]
        for argument in spec.arguments {
            parts.append(argument.isOptional ? "[<\(argument.name)>]" : "<\(argument.name)>")
        }
        for option in spec.options {
            var text = "--\(option.long)"
            if let valueName = option.valueName { text += " <\(valueName)>" }
            if case .repeating = option.kind { text += " ..." }
            parts.append("[\(text)]")
        }
        return parts.joined(separator: " ")
    }

    private func exampleSection(_ examples: [Example]) -> [String] {
        guard !examples.isEmpty else { return [] }
        var lines: [String] = []
        for example in examples {
            lines += wrap(example.explanation, indent: 2).map { String($0.dropFirst(2)) }
            lines.append("  $ \(example.command)")
            lines.append("")
        }
        return section("EXAMPLES", Array(lines.dropLast()))
    }

    private func exitCodeSection() -> [String] {
        section("EXIT CODES", ExitCode.allCases.flatMap { row(label: "\($0.rawValue)", text: $0.meaning, labelWidth: 3) })
    }

    /// A heading, its lines indented by two, and a blank line.
    private func section(_ title: String, _ lines: [String]) -> [String] {
        ["\(title):"] + lines.map { $0.isEmpty ? "" : "  " + $0 } + [""]
    }

    /// A label and its wrapped text, the text starting in a fixed column
    /// (on the next line when the label is too long).
    private func row(label: String, text: String, labelWidth: Int? = nil) -> [String] {
        let column = labelWidth ?? self.labelWidth
        let textLines = wrap(text, indent: column, width: width - 2)
        guard let first = textLines.first else { return [label] }
        if label.count + 2 <= column {
            let padded = label + String(repeating: " ", count: column - label.count)
            return [padded + first.dropFirst(column)] + textLines.dropFirst()
        }
        return [label] + textLines
    }

    /// The paragraphs of a discussion: blank lines separate them, single
    /// line breaks inside one are spaces.
    func paragraphs(_ text: String) -> [String] {
        text.components(separatedBy: "\n\n").map {
            $0.split(whereSeparator: \.isNewline).joined(separator: " ")
        }.filter { !$0.isEmpty }
    }

    /// Word-wraps `text` to `width` columns, every line indented by `indent` spaces.
    func wrap(_ text: String, indent: Int, width: Int? = nil) -> [String] {
        let limit = max(indent + 20, (width ?? self.width - 2))
        let pad = String(repeating: " ", count: indent)
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ") {
            if current.isEmpty {
                current = pad + word
            } else if current.count + 1 + word.count <= limit {
                current += " " + word
            } else {
                lines.append(current)
                current = pad + word
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }
}
