import Glibc

/// Where the CLI writes: results to stdout, errors and progress to stderr.
/// Tests give it a recorder instead of the real descriptors.
public final class Console: Sendable {
    /// Receives text for one stream.
    public typealias Sink = @Sendable (String) -> Void

    public let terminal: Terminal
    private let out: Sink
    private let err: Sink

    public init(terminal: Terminal, out: @escaping Sink, err: @escaping Sink) {
        self.terminal = terminal
        self.out = out
        self.err = err
    }

    /// The process's own stdout and stderr.
    public static func standard(terminal: Terminal) -> Console {
        Console(terminal: terminal, out: { writeAll(STDOUT_FILENO, $0) }, err: { writeAll(STDERR_FILENO, $0) })
    }

    /// Writes `text` and a newline to stdout.
    public func print(_ text: String) {
        out(text + "\n")
    }

    /// Writes `text` as it is to stdout.
    public func write(_ text: String) {
        out(text)
    }

    /// Writes raw text (e.g. a spinner frame) to stderr.
    public func writeError(_ text: String) {
        err(text)
    }

    /// Writes one diagnostic line to stderr, prefixed with the tool's name.
    public func error(_ message: String) {
        err("quickactions: \(message)\n")
    }

    /// Writes all of `text` to `fd`, retrying short writes and EINTR.
    static func writeAll(_ fd: Int32, _ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            bytes = bytes.dropFirst(written)
        }
    }
}
