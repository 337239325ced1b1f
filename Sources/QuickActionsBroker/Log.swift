import Foundation

/// One line per event on stderr, in a form journald keeps as it is:
/// `<level> <message>`, without timestamps (journald adds its own).
public final class Log: Sendable {
    public enum Level: Int, Sendable, Comparable {
        case debug, info, warning, error

        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }

        var label: String {
            switch self {
            case .debug: "debug"
            case .info: "info"
            case .warning: "warning"
            case .error: "error"
            }
        }
    }

    private let minimum: Level
    private let lock = NSLock()

    public init(verbose: Bool) {
        minimum = verbose ? .debug : .info
    }

    public func callAsFunction(_ level: Level, _ message: @autoclosure () -> String) {
        guard level >= minimum else { return }
        let line = "\(level.label): \(message())\n"
        lock.lock()
        defer { lock.unlock() }
        FileHandle.standardError.write(Data(line.utf8))
    }

    public var isVerbose: Bool { minimum == .debug }
}
