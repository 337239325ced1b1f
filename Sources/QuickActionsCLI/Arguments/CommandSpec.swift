/// What a command accepts and how it is documented: the single description
/// that drives parsing, `--help` and the shell completion scripts, so they
/// can never disagree.
public struct CommandSpec: Sendable {
    /// The name typed on the command line, e.g. "list".
    public let name: String
    /// One line for the command list and the help's OVERVIEW.
    public let abstract: String
    /// Further paragraphs for the help, already wrapped.
    public let discussion: String?
    /// The positional arguments, in order.
    public let arguments: [ArgumentSpec]
    /// The command's own options (the global ones are added by the parser).
    public let options: [OptionSpec]
    /// Examples shown under EXAMPLES.
    public let examples: [Example]
    /// Hidden commands work but are left out of help and completion.
    public let isHidden: Bool

    public init(
        name: String, abstract: String, discussion: String? = nil, arguments: [ArgumentSpec] = [],
        options: [OptionSpec] = [], examples: [Example] = [], isHidden: Bool = false
    ) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.arguments = arguments
        self.options = options
        self.examples = examples
        self.isHidden = isHidden
    }

    /// The option named `--long` (without the dashes), among the command's own.
    func option(named long: String) -> OptionSpec? {
        options.first { $0.long == long }
    }
}

/// A positional argument.
public struct ArgumentSpec: Sendable {
    /// What shell completion offers for an argument.
    public enum Completion: Sendable, Equatable {
        case none
        /// App ids, asked from the broker.
        case applications
        /// Item ids of the app named by the command's first argument, asked from the broker.
        case itemIDs
        /// A fixed list of words.
        case choices([String])
        /// The names of the visible commands.
        case commands
    }

    /// The name shown in help, without angle brackets, e.g. "app-id".
    public let name: String
    public let help: String
    public let isOptional: Bool
    public let completion: Completion

    public init(_ name: String, help: String, isOptional: Bool = false, completion: Completion = .none) {
        self.name = name
        self.help = help
        self.isOptional = isOptional
        self.completion = completion
    }
}

/// An option: a flag (`--json`) or an option with a value (`--limit <n>`),
/// possibly repeated (`--arg <key=value>`...).
public struct OptionSpec: Sendable {
    public enum Kind: Sendable, Equatable {
        case flag
        /// Takes one value; given more than once, the last one counts.
        case value(name: String)
        /// Takes one value each time and may be repeated; every value counts.
        case repeating(name: String)
    }

    /// What shell completion offers for the option's value.
    public enum ValueCompletion: Sendable, Equatable {
        case none
        /// Names of executables.
        case executables
    }

    /// The long name without dashes, e.g. "json".
    public let long: String
    /// An optional one-letter short name, e.g. "h".
    public let short: Character?
    public let kind: Kind
    public let help: String
    public let valueCompletion: ValueCompletion

    public init(
        _ long: String, short: Character? = nil, kind: Kind = .flag, help: String,
        valueCompletion: ValueCompletion = .none
    ) {
        self.long = long
        self.short = short
        self.kind = kind
        self.help = help
        self.valueCompletion = valueCompletion
    }

    /// Whether the option takes a value.
    public var takesValue: Bool { kind != .flag }

    /// The value's name as shown in help, e.g. "<n>", or nil for a flag.
    public var valueName: String? {
        switch kind {
        case .flag: nil
        case .value(let name), .repeating(let name): name
        }
    }

    /// How the option is spelled in help and errors: "--limit <n>", "-h, --help".
    public var synopsis: String {
        var text = "--\(long)"
        if let valueName { text += " <\(valueName)>" }
        if let short { text = "-\(short), " + text }
        return text
    }
}

/// One example for the help: a command line and what it does.
public struct Example: Sendable {
    public let command: String
    public let explanation: String

    public init(_ command: String, _ explanation: String) {
        self.command = command
        self.explanation = explanation
    }
}
