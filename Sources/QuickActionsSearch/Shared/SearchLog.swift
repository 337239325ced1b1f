/// Where the bridges report what went wrong: quickactionsd passes its log.
public struct SearchLog: Sendable {
    public enum Level: Sendable { case debug, info, warning, error }

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
