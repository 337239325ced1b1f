/// What every completion script needs to know, taken from the command specs
/// so the scripts always match the parser.
struct CompletionModel: Sendable {
    /// The tool's name, as the shell completes it.
    let toolName: String
    /// The visible commands (and `help`), in help order.
    let commands: [CommandSpec]

    /// The global options plus --help and --version.
    var topLevelOptions: [OptionSpec] {
        GlobalOptions.specs + [ArgumentParser.helpOption, ArgumentParser.versionOption]
    }

    /// A command's own options, --help and the global ones.
    func options(of command: CommandSpec) -> [OptionSpec] {
        command.options + [ArgumentParser.helpOption] + GlobalOptions.specs
    }

    /// The long names (without dashes) of every option that takes a value.
    var valueOptions: [String] {
        var seen: Set<String> = []
        return (commands.flatMap(\.options) + GlobalOptions.specs).filter(\.takesValue).map(\.long).filter {
            seen.insert($0).inserted
        }
    }

    /// Long names of value options whose value completes to executable names.
    var executableValueOptions: [String] {
        var seen: Set<String> = []
        return commands.flatMap(\.options).filter { $0.valueCompletion == .executables }.map(\.long).filter {
            seen.insert($0).inserted
        }
    }

    /// The visible command names.
    var commandNames: [String] { commands.map(\.name) }

    /// Help text cut to its first sentence and stripped of characters the
    /// shells' description syntax treats specially.
    static func shortHelp(_ text: String) -> String {
        var sentence = firstSentence(text)
        if sentence.hasSuffix(".") { sentence.removeLast() }
        if let parenthesis = sentence.range(of: " (") { sentence = String(sentence[..<parenthesis.lowerBound]) }
        return String(sentence.filter { !"[]:'\"$`\\".contains($0) })
    }
}

extension CompletionModel {
    /// Abbreviations whose period does not end a sentence ("e.g. de_DE").
    static let abbreviations: Set<String> = ["e.g", "i.e", "etc", "vs", "cf"]

    /// `text` up to the first ". " that ends a sentence: not one after an
    /// abbreviation such as "e.g.".
    static func firstSentence(_ text: String) -> String {
        var searchStart = text.startIndex
        while let end = text.range(of: ". ", range: searchStart..<text.endIndex) {
            let before = text[..<end.lowerBound]
            let word = before.split(whereSeparator: { $0 == " " || $0 == "(" }).last.map { $0.lowercased() } ?? ""
            if !abbreviations.contains(word) { return String(before) }
            searchStart = end.upperBound
        }
        return text
    }

    /// The `help` command as completion sees it (the parser handles it itself).
    static let helpSpec = CommandSpec(
        name: "help", abstract: "Show help for a command.",
        arguments: [ArgumentSpec("command", help: "The command.", isOptional: true, completion: .commands)])
}
