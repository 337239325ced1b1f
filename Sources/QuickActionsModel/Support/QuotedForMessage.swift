extension String {
    /// The string quoted for an error message, cut to its first 64 characters so that a hostile
    /// value cannot flood a log line: `"abc…" (1048576 bytes)`. The same form as the binding's
    /// `quoted(prefix:)`, which the broker and the CLI use (the model cannot import the binding).
    package var quotedForMessage: String {
        let limit = 64
        if count <= limit { return debugDescription }
        return String(String(prefix(limit)).debugDescription.dropLast()) + "…\" (\(utf8.count) bytes)"
    }
}
