/// An `Exec=` command line built from arguments by the Desktop Entry Specification's rules
/// ("The Exec key"): an argument holding a reserved character (or empty) is enclosed in double
/// quotes, with `"`, `` ` ``, `$` and `\` inside escaped by a backslash; every `%` is doubled,
/// so no value can become a field code. No field code is ever added.
///
/// The result is the value *before* the string escapes (``ValueEscaping/escape(_:)``), which the
/// spec undoes first when reading; the writer applies them to the whole line.
public struct ExecCommandLine: Sendable, Equatable {
    /// Why an argument cannot go into an `Exec` line.
    public enum Problem: Error, Equatable, CustomStringConvertible {
        /// The program's name or path holds `=`, which the spec forbids there.
        case equalsInProgram(String)
        /// A control character other than tab, newline or carriage return.
        case controlCharacter(argument: String, character: String)
        /// There is no program.
        case noProgram

        public var description: String {
            switch self {
            case .equalsInProgram(let program):
                return "the program \"\(program)\" holds '=', which an Exec key cannot name"
            case .controlCharacter(let argument, let character):
                return "the argument \"\(argument)\" holds the control character \(character), which an Exec key cannot hold"
            case .noProgram:
                return "an Exec key needs a program"
            }
        }
    }

    /// The program and its arguments, as the launched process receives them.
    public let arguments: [String]
    /// The line, quoted and with `%` doubled, before the string escapes.
    public let value: String

    /// The reserved characters: an argument with any of them (or any other whitespace or
    /// control character) is quoted.
    static let reserved: Set<Unicode.Scalar> = [
        " ", "\t", "\n", "\"", "'", "\\", ">", "<", "~", "|", "&", ";", "$", "*", "?", "#", "(", ")", "`",
    ]
    /// Escaped by a backslash inside quotes.
    static let escapedInQuotes: Set<Unicode.Scalar> = ["\"", "`", "$", "\\"]

    /// - Throws: ``Problem`` when the program holds `=` or an argument a control character a
    ///   desktop entry cannot hold.
    public init(_ arguments: [String]) throws(Problem) {
        guard let program = arguments.first, !program.isEmpty else { throw .noProgram }
        if program.contains("=") { throw .equalsInProgram(ValueEscaping.bounded(program)) }
        for argument in arguments {
            if let bad = argument.unicodeScalars.first(where: {
                ($0.value < 0x20 || $0.value == 0x7F) && $0 != "\t" && $0 != "\n" && $0 != "\r"
            }) {
                throw .controlCharacter(argument: ValueEscaping.bounded(argument), character: ValueEscaping.codePoint(bad))
            }
        }
        self.arguments = arguments
        value = arguments.map(Self.quote).joined(separator: " ")
    }

    /// One argument, quoted when it needs to be, `%` doubled.
    static func quote(_ argument: String) -> String {
        let needsQuotes = argument.isEmpty || argument.unicodeScalars.contains {
            reserved.contains($0) || $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F
        }
        var result = needsQuotes ? "\"" : ""
        for scalar in argument.unicodeScalars {
            if needsQuotes && escapedInQuotes.contains(scalar) { result += "\\" }
            if scalar == "%" { result += "%" }
            result.unicodeScalars.append(scalar)
        }
        if needsQuotes { result += "\"" }
        return result
    }

    /// Why a command line cannot be read back.
    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public let reason: String
        public var description: String { reason }
    }

    /// Reads a command line (after the string escapes are undone) back into its arguments, by the
    /// same rules: `%%` is `%`, any other field code is refused (ours never carry one), quotes
    /// group, and a reserved character outside quotes is refused.
    /// Used to check every line before it is written: what we write must read back as what we meant.
    public static func parse(_ value: String) throws(ParseError) -> [String] {
        var arguments: [String] = []
        var current: String?
        var scalars = Array(value.unicodeScalars)[...]
        func append(_ scalar: Unicode.Scalar) {
            if current == nil { current = "" }
            current?.unicodeScalars.append(scalar)
        }
        while let scalar = scalars.popFirst() {
            switch scalar {
            case " ":
                if let argument = current { arguments.append(argument) }
                current = nil
            case "%":
                guard scalars.popFirst() == "%" else {
                    throw ParseError(reason: "a field code in \"\(ValueEscaping.bounded(value))\"")
                }
                append("%")
            case "\"":
                if current == nil { current = "" }
                var closed = false
                while let inner = scalars.popFirst() {
                    if inner == "\"" {
                        closed = true
                        break
                    }
                    if inner == "\\", let next = scalars.first, escapedInQuotes.contains(next) {
                        scalars.removeFirst()
                        append(next)
                    } else if inner == "%" {
                        guard scalars.popFirst() == "%" else {
                            throw ParseError(reason: "a field code in \"\(ValueEscaping.bounded(value))\"")
                        }
                        append("%")
                    } else {
                        append(inner)
                    }
                }
                guard closed else { throw ParseError(reason: "an unclosed quote in \"\(ValueEscaping.bounded(value))\"") }
            default:
                if reserved.contains(scalar) {
                    throw ParseError(
                        reason: "the reserved character \(ValueEscaping.codePoint(scalar)) outside quotes in \"\(ValueEscaping.bounded(value))\"")
                }
                append(scalar)
            }
        }
        if let argument = current { arguments.append(argument) }
        return arguments
    }
}
