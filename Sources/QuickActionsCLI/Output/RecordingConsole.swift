import Locking


/// A console whose output is kept in memory, for tests.
public final class RecordingConsole: Sendable {
    /// Text written to one stream, behind a lock.
    private final class Buffer: Sendable {
        let text = Locked("")
        func append(_ more: String) { text.withLock { $0 += more } }
    }

    private let outBuffer: Buffer
    private let errBuffer: Buffer
    public let console: Console

    public init(terminal: Terminal = Terminal()) {
        let outBuffer = Buffer()
        let errBuffer = Buffer()
        self.outBuffer = outBuffer
        self.errBuffer = errBuffer
        console = Console(terminal: terminal, out: { outBuffer.append($0) }, err: { errBuffer.append($0) })
    }

    /// Everything written to stdout so far.
    public var stdout: String { outBuffer.text.withLock { $0 } }
    /// Everything written to stderr so far.
    public var stderr: String { errBuffer.text.withLock { $0 } }
}
