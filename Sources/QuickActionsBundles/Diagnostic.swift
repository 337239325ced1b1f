import QuickActionsModel

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

        /// The level the broker logs a diagnostic of this severity at. A severity is not a log
        /// level (it says how much of a file was used, and a diagnostic is never debug or info),
        /// so it stays its own type and maps here, once.
        public var logLevel: LogLevel {
            switch self {
            case .warning: .warning
            case .error: .error
            }
        }
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
