/// Something worth telling the user about a file the model read: a bundle that could not be
/// read, an item that was skipped, a state file that was moved aside.
///
/// Diagnostics are values, not log lines: the broker decides how to log them.
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
    /// How bad it is.
    public enum Severity: String, Sendable, Hashable {
        /// Something was skipped or repaired; the rest was kept.
        case warning
        /// The whole file (a bundle, a state file) was not used.
        case error
    }

    /// The path of the file at fault.
    public var file: String
    /// What was wrong, naming the value at fault.
    public var reason: String
    public var severity: Severity

    public init(file: String, reason: String, severity: Severity) {
        self.file = file
        self.reason = reason
        self.severity = severity
    }

    /// One line: `<file>: <severity>: <reason>`.
    public var description: String { "\(file): \(severity.rawValue): \(reason)" }

    /// One line without the severity, for a log that prints its own level
    /// (the broker's): `<file>: <reason>`.
    public var message: String { "\(file): \(reason)" }
}

/// The diagnostics of reading bundles (the name issue 3 uses).
public typealias BundleDiagnostic = Diagnostic

extension String {
    /// The string quoted for an error message, cut to its first 64 characters so that a hostile
    /// value cannot flood a log line: `"abc…" (1048576 bytes)`. The same form as the binding's
    /// `quoted(prefix:)`, which the broker and the CLI use (the model cannot import the binding).
    var quotedForMessage: String {
        let limit = 64
        if count <= limit { return debugDescription }
        return String(String(prefix(limit)).debugDescription.dropLast()) + "…\" (\(utf8.count) bytes)"
    }
}
