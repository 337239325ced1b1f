import QuickActionsModel

/// Where the bridges report what went wrong: quickactionsd passes its log.
public struct SearchLog: Sendable {
    /// The model core's ``LogLevel``, the one level type of the broker, its plugins and bridges.
    public typealias Level = LogLevel

    private let sink: @Sendable (Level, String) -> Void

    public init(_ sink: @escaping @Sendable (Level, String) -> Void) {
        self.sink = sink
    }

    public func callAsFunction(_ level: Level, _ message: String) {
        sink(level, message)
    }

    /// Drops everything (tests that do not look at the log).
    public static let silent = SearchLog { _, _ in }
}
