import DBus

/// One `--arg` of `invoke` and `pick`: a key and a typed value that reaches
/// the plugin as caller data.
///
/// Spelling: `KEY=VALUE` is a string; `KEY:TYPE=VALUE` gives the type, one of
/// `string` (`s`), `int` (`i`, a 64-bit signed integer), `bool` (`b`: `true` or
/// `false`) and `double` (`d`: a finite decimal number). The first `=` ends
/// the key, so a value may contain `=`; the last `:` before it starts the
/// type, so a key with a colon is written with an explicit type (`a:b:string=c`).
public struct TypedArgument: Sendable, Equatable {
    /// The value types `--arg` can spell.
    public enum Kind: String, Sendable, CaseIterable {
        case string, int, bool, double

        /// The names accepted after the colon, long and short.
        init?(spelling: String) {
            switch spelling.lowercased() {
            case "string", "str", "s": self = .string
            case "int", "integer", "i": self = .int
            case "bool", "boolean", "b": self = .bool
            case "double", "float", "d": self = .double
            default: return nil
            }
        }
    }

    public let key: String
    /// The typed value: `.string`, `.int64`, `.boolean` or `.double`.
    public let value: Value

    public init(key: String, value: Value) {
        self.key = key
        self.value = value
    }

    /// Parses one `--arg` value; the error names the argument and what is wrong.
    public init(parsing text: String) throws(UsageError) {
        guard let equals = text.firstIndex(of: "=") else {
            throw UsageError("--arg \(text.quoted(mark: "'")) has no '=': write KEY=VALUE or KEY:TYPE=VALUE")
        }
        var key = String(text[..<equals])
        let raw = String(text[text.index(after: equals)...])
        var kind = Kind.string
        if let colon = key.lastIndex(of: ":") {
            let spelling = String(key[key.index(after: colon)...])
            guard let parsed = Kind(spelling: spelling) else {
                throw UsageError(
                    "--arg \(text.quoted(mark: "'")) has an unknown type \(spelling.quoted(mark: "'")): use string, int, bool or double")
            }
            kind = parsed
            key = String(key[..<colon])
        }
        guard !key.isEmpty else {
            throw UsageError("--arg \(text.quoted(mark: "'")) has an empty key: write KEY=VALUE")
        }
        self.key = key
        switch kind {
        case .string:
            value = .string(raw)
        case .int:
            guard let number = Int64(raw) else {
                throw UsageError("--arg \(text.quoted(mark: "'")): \(raw.quoted(mark: "'")) is not an integer (a 64-bit signed whole number)")
            }
            value = .int64(number)
        case .bool:
            switch raw {
            case "true": value = .boolean(true)
            case "false": value = .boolean(false)
            default: throw UsageError("--arg \(text.quoted(mark: "'")): \(raw.quoted(mark: "'")) is not a boolean: use true or false")
            }
        case .double:
            guard let number = Double(raw), number.isFinite, !raw.isEmpty,
                  raw.allSatisfy({ "0123456789+-.eE".contains($0) })
            else {
                throw UsageError("--arg \(text.quoted(mark: "'")): \(raw.quoted(mark: "'")) is not a finite decimal number")
            }
            value = .double(number)
        }
    }

    /// Parses every `--arg` and builds the `arguments` option (`a{sv}`).
    /// A key given twice is a usage error naming it.
    public static func dictionary(parsing texts: [String]) throws(UsageError) -> Value {
        var seen: Set<String> = []
        var entries: [DictionaryEntry] = []
        for text in texts {
            let argument = try TypedArgument(parsing: text)
            guard seen.insert(argument.key).inserted else {
                throw UsageError("--arg key \(argument.key.quoted(mark: "'")) is given more than once")
            }
            entries.append(DictionaryEntry(.string(argument.key), .variant(argument.value)))
        }
        return .dictionary(key: .string, value: .variant, entries)
    }
}
