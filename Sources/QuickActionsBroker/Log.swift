import Foundation
import QuickActionsModel

/// One line per event on stderr, `<level>: <message>`, without timestamps
/// (journald adds its own).
///
/// When stderr is the journal (systemd sets `JOURNAL_STREAM` to the
/// "device:inode" of the stream it connected to fd 2), each line starts with
/// its sd-daemon priority (`<3>` error, `<4>` warning, `<6>` info,
/// `<7>` debug, see sd-daemon(3)), so `journalctl -p err` finds errors.
public final class Log: Sendable {
    /// The model core's ``LogLevel``, the one level type of plugins, the loader, the broker and
    /// the bridges; the name stays for the broker's callers.
    public typealias Level = LogLevel

    private let minimum: Level
    private let journal: Bool
    private let lock = NSLock()

    /// - Parameter environment: where `JOURNAL_STREAM` is looked up.
    public init(verbose: Bool, environment: [String: String] = ProcessInfo.processInfo.environment) {
        minimum = verbose ? .debug : .info
        journal = Self.standardErrorIsJournal(environment["JOURNAL_STREAM"])
    }

    public func callAsFunction(_ level: Level, _ message: @autoclosure () -> String) {
        guard level >= minimum else { return }
        let line = Self.line(level, message(), journal: journal)
        lock.lock()
        defer { lock.unlock() }
        FileHandle.standardError.write(Data(line.utf8))
    }

    public var isVerbose: Bool { minimum == .debug }

    /// Whether lines carry sd-daemon priority prefixes.
    public var writesToJournal: Bool { journal }

    /// One log line with its newline: any line break inside `message` is
    /// escaped, so one event is one line.
    static func line(_ level: Level, _ message: String, journal: Bool) -> String {
        let flat = message.contains(where: \.isNewline)
            ? message.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).joined(separator: "\\n")
            : message
        return (journal ? "<\(level.priority)>" : "") + "\(level): \(flat)\n"
    }

    /// Whether `stream` ("device:inode", decimal) names the file open as fd 2.
    static func standardErrorIsJournal(_ stream: String?) -> Bool {
        guard let parts = stream?.split(separator: ":"), parts.count == 2,
              let device = UInt64(parts[0]), let inode = UInt64(parts[1])
        else { return false }
        var status = stat()
        guard fstat(2, &status) == 0 else { return false }
        return UInt64(status.st_dev) == device && UInt64(status.st_ino) == inode
    }
}

extension LogLevel {
    /// The syslog priority sd-daemon(3) prefixes use.
    var priority: Int {
        switch self {
        case .debug: 7
        case .info: 6
        case .warning: 4
        case .error: 3
        }
    }
}
