import DBus
/// What the command line asks for, once parsed.
public enum Invocation: Sendable, Equatable {
    /// Show the help of a command, or of the tool when nil.
    case help(command: String?)
    /// Show the version.
    case version
    /// Run a command with its arguments.
    case run(command: String, arguments: ParsedArguments, globals: GlobalOptions)
}

/// A small parser following swift-argument-parser's conventions:
/// `--name value` and `--name=value`, flags, repeatable options, `--` ending
/// the options, `-h`/`--help` on every command, `help <command>`, and
/// `--version` on the tool. Global options may come before or after the command.
public struct ArgumentParser: Sendable {
    /// The tool's name, used in messages.
    public let toolName: String
    /// Every command, hidden ones included.
    public let commands: [CommandSpec]

    public init(toolName: String, commands: [CommandSpec]) {
        self.toolName = toolName
        self.commands = commands
    }

    static let helpOption = OptionSpec("help", short: "h", help: "Show help information.")
    static let versionOption = OptionSpec("version", help: "Show the version.")

    /// The command named `name`, hidden ones included.
    public func command(named name: String) -> CommandSpec? {
        commands.first { $0.name == name }
    }

    /// Parses the arguments after the tool's own name.
    public func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
        // Before the command: the global options, --help, --version, and any
        // command's own options (`--json apps`); the latter are read again
        // with the command's arguments, so the command decides whether it takes them.
        var index = 0
        var globalsBefore = ParsedArguments()
        var commandOptionsBefore: [String] = []
        let topOptions = GlobalOptions.specs + [Self.helpOption, Self.versionOption]
        let anyOption = topOptions + commands.flatMap(\.options)
        while index < arguments.count, arguments[index].hasPrefix("-"), arguments[index] != "-" {
            if arguments[index] == "--" {
                index += 1
                break
            }
            var scratch = ParsedArguments()
            let next = try consumeOption(at: index, in: arguments, options: anyOption, into: &scratch)
            if topOptions.contains(where: { scratch.flags.contains($0.long) || scratch.values[$0.long] != nil }) {
                index = try consumeOption(at: index, in: arguments, options: topOptions, into: &globalsBefore)
            } else {
                commandOptionsBefore += arguments[index..<next]
                index = next
            }
        }
        if globalsBefore.flag("help") { return .help(command: nil) }
        if globalsBefore.flag("version") { return .version }
        guard index < arguments.count else {
            throw UsageError("missing command; see '\(toolName) --help' for the commands")
        }
        let name = arguments[index]
        if name == "help" {
            return try parseHelp(Array(arguments[(index + 1)...]))
        }
        guard let spec = command(named: name) else {
            throw UsageError("unknown command \(name.quoted(mark: "'")); see '\(toolName) --help' for the commands")
        }
        let rest = commandOptionsBefore + Array(arguments[(index + 1)...])
        if rest.prefix(while: { $0 != "--" }).contains(where: { $0 == "--help" || $0 == "-h" }) {
            return .help(command: spec.name)
        }
        var parsed: ParsedArguments
        do {
            parsed = try parseCommand(spec, rest)
        } catch {
            throw error.attributed(to: spec.name)
        }
        // Global options given before the command count too.
        for (key, values) in globalsBefore.values { parsed.values[key, default: []].insert(contentsOf: values, at: 0) }
        parsed.flags.formUnion(globalsBefore.flags)
        let globals: GlobalOptions
        do {
            globals = try GlobalOptions.from(parsed)
        } catch {
            throw error.attributed(to: spec.name)
        }
        for global in GlobalOptions.specs {
            parsed.flags.remove(global.long)
            parsed.values.removeValue(forKey: global.long)
        }
        return .run(command: spec.name, arguments: parsed, globals: globals)
    }

    /// `help [command]`. `help --help` is the tool's help (which documents
    /// `help`); errors are not attributed to `help`, so their hint points at
    /// the tool's help rather than back at `help --help`.
    private func parseHelp(_ rest: [String]) throws(UsageError) -> Invocation {
        guard let name = rest.first, name != "--help", name != "-h" else { return .help(command: nil) }
        guard rest.count == 1 else {
            throw UsageError(
                "unexpected argument \(rest[1].quoted(mark: "'")); 'help' takes one command name; see '\(toolName) --help'")
        }
        guard let spec = command(named: name) else {
            throw UsageError("unknown command \(name.quoted(mark: "'")); see '\(toolName) --help' for the commands")
        }
        return .help(command: spec.name)
    }

    /// Parses one command's arguments against its options and the global ones.
    func parseCommand(_ spec: CommandSpec, _ arguments: [String]) throws(UsageError) -> ParsedArguments {
        let options = spec.options + GlobalOptions.specs
        var parsed = ParsedArguments()
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let token = arguments[index]
            if !optionsEnded && token == "--" {
                optionsEnded = true
                index += 1
            } else if !optionsEnded && token.hasPrefix("-") && token != "-" && !Self.isNegativeNumber(token) {
                index = try consumeOption(at: index, in: arguments, options: options, into: &parsed)
            } else {
                parsed.positionals.append(token)
                index += 1
            }
        }
        let required = spec.arguments.filter { !$0.isOptional }.count
        if parsed.positionals.count < required {
            let missing = spec.arguments[parsed.positionals.count]
            throw UsageError("missing expected argument '<\(missing.name)>'")
        }
        if parsed.positionals.count > spec.arguments.count {
            throw UsageError("unexpected argument \(parsed.positionals[spec.arguments.count].quoted(mark: "'"))")
        }
        return parsed
    }

    /// Reads the option at `index` (and its value) into `parsed`; returns the next index.
    private func consumeOption(
        at index: Int, in arguments: [String], options: [OptionSpec], into parsed: inout ParsedArguments
    ) throws(UsageError) -> Int {
        let token = arguments[index]
        let name: String
        var inlineValue: String?
        let spec: OptionSpec?
        if token.hasPrefix("--") {
            let body = token.dropFirst(2)
            if let equals = body.firstIndex(of: "=") {
                name = String(body[..<equals])
                inlineValue = String(body[body.index(after: equals)...])
            } else {
                name = String(body)
            }
            spec = options.first { $0.long == name }
        } else {
            name = String(token.dropFirst())
            spec = name.count == 1 ? options.first { $0.short.map(String.init) == name } : nil
        }
        guard let spec else {
            throw UsageError("unknown option \(token.quoted(mark: "'"))")
        }
        switch spec.kind {
        case .flag:
            if let inlineValue {
                throw UsageError("option '--\(spec.long)' takes no value, got \(inlineValue.quoted(mark: "'"))")
            }
            parsed.flags.insert(spec.long)
            return index + 1
        case .value, .repeating:
            if let inlineValue {
                parsed.values[spec.long, default: []].append(inlineValue)
                return index + 1
            }
            let next = index + 1
            guard next < arguments.count, !Self.looksLikeOption(arguments[next]) else {
                throw UsageError("missing value for '\(spec.synopsis)'")
            }
            parsed.values[spec.long, default: []].append(arguments[next])
            return next + 1
        }
    }

    /// "-5" or "-1.5": a value, not an option.
    static func isNegativeNumber(_ token: String) -> Bool {
        token.count > 1 && token.hasPrefix("-") && Double(token.dropFirst()) != nil
    }

    /// A token that cannot be an option's value because it is itself an option.
    static func looksLikeOption(_ token: String) -> Bool {
        token.hasPrefix("-") && token != "-" && !isNegativeNumber(token)
    }
}
