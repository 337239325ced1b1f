extension StringProtocol {
    /// The text quoted for an error message or a log line, cut to its first
    /// `prefix` characters with its length in bytes after it when it was cut,
    /// so that no value from the wire, a file or the command line (a 1 MiB
    /// app id) can flood a message: `"abc…" (1048576 bytes)`.
    ///
    /// Control characters, the quote mark and backslashes are escaped
    /// (`\n`, `\"`, `\u{1B}`), so the message stays on one line. Every
    /// place that names an offending value in a `DBusError` or a log line,
    /// in the broker and the CLI alike, goes through this one helper.
    public func quoted(prefix: Int = 64, mark: Character = "\"") -> String {
        let kept = self.prefix(Swift.max(0, prefix))
        var text = String(mark)
        for scalar in kept.unicodeScalars {
            switch scalar {
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where Character(scalar) == mark: text += "\\\(mark)"
            case _ where scalar.properties.generalCategory == .control
                || scalar.properties.generalCategory == .lineSeparator
                || scalar.properties.generalCategory == .paragraphSeparator:
                text += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: text.unicodeScalars.append(scalar)
            }
        }
        guard kept.endIndex < endIndex else { return text + String(mark) }
        return text + "…" + String(mark) + " (\(utf8.count) bytes)"
    }
}
