/// How much a log line matters: one type for a plugin's lines (the host table's `log`, the SDK's
/// `PluginHost.log(_:level:)`), the loader's lines about a plugin, the broker's log and the
/// bridges' reports.
///
/// The raw values are the C header's `QA_LOG_*` constants (`QA_LOG_DEBUG` 0 to `QA_LOG_ERROR`
/// 3), so a level crosses the plugin ABI and the host protocol as its raw value. Levels order
/// by severity: `.debug < .info < .warning < .error`.
public enum LogLevel: Int32, Sendable, Hashable, Comparable, CaseIterable, CustomStringConvertible {
    case debug = 0
    case info = 1
    case warning = 2
    case error = 3

    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The word a log line shows: "debug", "info", "warning" or "error".
    public var description: String {
        switch self {
        case .debug: "debug"
        case .info: "info"
        case .warning: "warning"
        case .error: "error"
        }
    }
}
