/// Shell words without a shell, as GLib's `g_shell_quote` and `g_shell_parse_argv` make and
/// read them: what ``ExecLine`` expands field codes with, so its command lines are the ones
/// GLib would start. Nothing here runs or expands anything (no variables, no commands, no globs).
enum ShellWords {
    /// `value` in single quotes, each `'` in it as `'\''` (`g_shell_quote`).
    static func quote(_ value: String) -> String {
        var result = "'"
        for scalar in value.unicodeScalars {
            if scalar == "'" { result += "'\\''" } else { result.unicodeScalars.append(scalar) }
        }
        return result + "'"
    }

    /// Splits `text` into words as `g_shell_parse_argv` does: blanks (space, tab, newline)
    /// separate; single quotes keep everything; in double quotes a backslash escapes `"`, `` ` ``,
    /// `$`, `\` and newline and is kept before anything else; outside quotes a backslash
    /// escapes the next character (and a backslash-newline vanishes); `#` at the start of a
    /// word starts a comment to the end of the line. An unclosed quote ends at the end of the
    /// text (``ExecLine`` refuses those before they get here).
    static func split(_ text: String) -> [String] {
        var words: [String] = []
        var current: String?
        var scalars = text.unicodeScalars[...]
        func append(_ scalar: Unicode.Scalar) {
            if current == nil { current = "" }
            current?.unicodeScalars.append(scalar)
        }
        while let scalar = scalars.popFirst() {
            switch scalar {
            case " ", "\t", "\n":
                if let word = current { words.append(word) }
                current = nil
            case "'":
                if current == nil { current = "" }
                while let inner = scalars.popFirst(), inner != "'" { append(inner) }
            case "\"":
                if current == nil { current = "" }
                while let inner = scalars.popFirst(), inner != "\"" {
                    if inner == "\\", let next = scalars.first, ["\"", "`", "$", "\\", "\n"].contains(next) {
                        scalars.removeFirst()
                        if next != "\n" { append(next) }
                    } else {
                        append(inner)
                    }
                }
            case "\\":
                if let next = scalars.popFirst() {
                    if next != "\n" { append(next) }
                } else {
                    append(scalar)
                }
            case "#" where current == nil:
                while let inner = scalars.popFirst(), inner != "\n" {}
            default:
                append(scalar)
            }
        }
        if let word = current { words.append(word) }
        return words
    }
}
