/// What the parser found for one command: positional arguments in order, and
/// the options given, keyed by their long name.
public struct ParsedArguments: Sendable, Equatable {
    public var positionals: [String] = []
    /// Every value given for each option, in order.
    public var values: [String: [String]] = [:]
    public var flags: Set<String> = []

    public init(positionals: [String] = [], values: [String: [String]] = [:], flags: Set<String> = []) {
        self.positionals = positionals
        self.values = values
        self.flags = flags
    }

    /// Whether the flag `--long` was given.
    public func flag(_ long: String) -> Bool {
        flags.contains(long)
    }

    /// The value of a single-value option; the last one when given more than once.
    public func value(_ long: String) -> String? {
        values[long]?.last
    }

    /// Every value of a repeating option, in order.
    public func allValues(_ long: String) -> [String] {
        values[long] ?? []
    }

    /// The positional argument at `index`, if given.
    public func positional(_ index: Int) -> String? {
        positionals.indices.contains(index) ? positionals[index] : nil
    }
}
