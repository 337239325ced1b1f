/// An `Exec` value (string escapes already undone) read by the Desktop Entry Specification's
/// rules ("The Exec key"), and its field codes expanded into the command lines to start.
///
/// Reading is strict, as the specification says: arguments are separated by spaces; an
/// argument with a reserved character (space, tab, newline, `"` `'` `\` `>` `<` `~` `|` `&`
/// `;` `$` `*` `?` `#` `(` `)` `` ` ``) must be in double quotes, inside which `"`, `` ` ``,
/// `$` and `\` are escaped by a backslash; a reserved character outside quotes, an unclosed
/// quote, or a field code the specification does not define is an error naming the entry and
/// the text at fault. Nothing is ever run through a shell: `$(…)` and backticks inside quotes
/// are literal characters of an argument.
///
/// Expansion does what GLib's `g_desktop_app_info_launch_uris` does, so an entry starts here
/// exactly as it does from GNOME Shell or a GTK file chooser (the tests compare with GLib):
/// each field code is replaced by its values, each shell-quoted, and the result is split into
/// arguments by shell-word rules (`g_shell_parse_argv`, never a shell). So a field code
/// glued to text (`--name=%c`) joins it; `%F`'s files become one argument each; a field code
/// inside quotes (undefined by the specification) gives the values quoted for a shell
/// (`sh -c "app %f"` hands `sh` a safely quoted path, as with GLib).
///
/// - `%f`, `%u`: one file (a path from a `file://` URI; a URI); with several files the
///   program is started once per file, as GLib does; dropped when no file is given.
/// - `%F`, `%U`: every file, one argument each; dropped when none.
/// - `%i`: `--icon` and the entry's `Icon` as two arguments; dropped without an icon.
/// - `%c`: the localised `Name`. `%k`: the entry file's path. `%%`: `%`.
/// - `%d %D %n %N %v %m`: deprecated, removed.
/// - With files given and no file field code, the files are appended as `%f` would give them
///   (GLib's and KDE's choice).
///
/// One difference from GLib, deliberate: GLib passes a local file's *path* for `%u`/`%U`
/// (unless the entry sets `X-GIO-NoFuse=true`) so that FUSE-mounted remote files work; here
/// `%u`/`%U` get the URI, as the specification says.
public struct ExecLine: Sendable, Equatable {
    /// The value as read.
    public let value: String
    /// Whether a file field code (`%f %F %u %U`) appears.
    public let takesFiles: Bool

    /// Why an `Exec` value cannot be started.
    public struct Malformed: Error, Equatable, CustomStringConvertible {
        /// The entry (its path, or its desktop file id) the value is from.
        public let entry: String
        /// What is wrong, quoting (a bounded prefix of) the text at fault.
        public let reason: String

        public var description: String { "malformed Exec in \(entry): \(reason)" }
    }

    /// The characters an argument may hold only inside quotes.
    static let reserved: Set<Unicode.Scalar> = ExecCommandLine.reserved
    static let fieldCodes: Set<Unicode.Scalar> = ["f", "F", "u", "U", "i", "c", "k", "%", "d", "D", "n", "N", "v", "m"]

    /// Reads `value` strictly.
    /// - Parameter entry: names the entry in errors.
    public init(_ value: String, entry: String) throws(Malformed) {
        self.value = value
        var takesFiles = false
        var scalars = Array(value.unicodeScalars)[...]
        var quoted = false
        var words = 0
        var inWord = false
        func fail(_ reason: String) -> Malformed {
            Malformed(entry: ValueEscaping.bounded(entry), reason: reason)
        }
        let shown = "\"\(ValueEscaping.bounded(value))\""
        while let scalar = scalars.popFirst() {
            if scalar == "%" {
                guard let code = scalars.popFirst() else { throw fail("a lone % at the end of \(shown)") }
                guard Self.fieldCodes.contains(code) else {
                    throw fail("the unknown field code %\(Character(code)) in \(shown)")
                }
                if ["f", "F", "u", "U"].contains(code) { takesFiles = true }
                if !inWord { inWord = true; words += 1 }
                continue
            }
            if quoted {
                if scalar == "\\", let next = scalars.first, ["\"", "`", "$", "\\"].contains(next) {
                    scalars.removeFirst()
                } else if scalar == "\"" {
                    quoted = false
                }
                continue
            }
            switch scalar {
            case " ":
                inWord = false
            case "\"":
                quoted = true
                if !inWord { inWord = true; words += 1 }
            default:
                if Self.reserved.contains(scalar) || scalar.value < 0x20 || scalar.value == 0x7F {
                    let character = scalar.value < 0x20 || scalar.value == 0x7F || scalar == " " || scalar == "\t"
                        ? ValueEscaping.codePoint(scalar) : "'\(Character(scalar))'"
                    throw fail("the reserved character \(character) outside quotes in \(shown) (quote the argument)")
                }
                if !inWord { inWord = true; words += 1 }
            }
        }
        guard !quoted else { throw fail("an unclosed quote in \(shown)") }
        guard words > 0 else { throw fail("no program in \(shown)") }
        self.takesFiles = takesFiles
    }

    /// What the field codes stand for in one launch.
    public struct Fields: Sendable, Equatable {
        /// `%i`: the entry's `Icon`.
        public var icon: String?
        /// `%c`: the localised `Name`.
        public var name: String?
        /// `%k`: the entry file's path.
        public var entryPath: String?
        /// The files, as URIs (`file:///home/me/a%20b.txt`).
        public var uris: [String]

        public init(icon: String? = nil, name: String? = nil, entryPath: String? = nil, uris: [String] = []) {
            self.icon = icon
            self.name = name
            self.entryPath = entryPath
            self.uris = uris
        }
    }

    /// The command lines to start, in order: one, or one per file when the line takes a
    /// single file (`%f`, `%u`, or no file code) and several are given.
    /// - Throws: ``Malformed`` when an expansion leaves no program (a line of field codes
    ///   that all expanded to nothing).
    public func expand(_ fields: Fields, entry: String) throws(Malformed) -> [[String]] {
        var remaining = fields.uris[...]
        var lines: [[String]] = []
        repeat {
            let before = remaining.count
            var text = substitute(fields, uris: &remaining)
            if remaining.count == before, let uri = remaining.popFirst() {
                text += " " + (Self.expandURI(uri, as: "f") ?? "")
            }
            let arguments = ShellWords.split(text)
            guard let program = arguments.first, !program.isEmpty else {
                throw Malformed(entry: ValueEscaping.bounded(entry), reason: "no program in \"\(ValueEscaping.bounded(value))\" once its field codes are expanded")
            }
            lines.append(arguments)
        } while !remaining.isEmpty
        return lines
    }

    /// The line with every field code replaced by its shell-quoted values (GLib's `expand_macro`).
    private func substitute(_ fields: Fields, uris: inout ArraySlice<String>) -> String {
        var result = ""
        var scalars = value.unicodeScalars[...]
        while let scalar = scalars.popFirst() {
            guard scalar == "%", let code = scalars.popFirst() else {
                result.unicodeScalars.append(scalar)
                continue
            }
            switch code {
            case "f", "u":
                if let uri = uris.popFirst(), let expanded = Self.expandURI(uri, as: code) { result += expanded }
            case "F", "U":
                var first = true
                while let uri = uris.popFirst() {
                    guard let expanded = Self.expandURI(uri, as: code) else { continue }
                    if !first { result += " " }
                    result += expanded
                    first = false
                }
            case "i":
                if let icon = fields.icon { result += "--icon " + ShellWords.quote(icon) }
            case "c":
                if let name = fields.name { result += ShellWords.quote(name) }
            case "k":
                if let path = fields.entryPath { result += ShellWords.quote(path) }
            case "%":
                result += "%"
            default:
                break  // Deprecated codes (validated in init): removed.
            }
        }
        return result
    }

    /// One file for `%f`/`%F` (its local path; nil for a URI that names no local file) or
    /// `%u`/`%U` (the URI), shell-quoted.
    static func expandURI(_ uri: String, as code: Unicode.Scalar) -> String? {
        if code == "u" || code == "U" { return ShellWords.quote(uri) }
        return FileURI.path(of: uri).map(ShellWords.quote)
    }
}
