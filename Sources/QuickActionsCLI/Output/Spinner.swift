import Dispatch

/// A spinner on stderr while something takes longer than `delay`; erased
/// when stopped. Only started on a terminal.
public final class Spinner: @unchecked Sendable {
    // @unchecked Sendable: `timer`, `drawn` and `frame` are only touched on
    // `queue` (start and stop hop onto it synchronously; ticks run on it).

    private let label: String
    private let frames: [String]
    private let write: @Sendable (String) -> Void
    private let queue = DispatchQueue(label: "quickactions.spinner")
    private var timer: (any DispatchSourceTimer)?
    private var drawn = false
    private var frame = 0

    /// `write` receives the raw text for stderr.
    public init(label: String, unicode: Bool, write: @escaping @Sendable (String) -> Void) {
        self.label = DisplayWidth.sanitize(label)
        frames = unicode ? ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"] : ["|", "/", "-", "\\"]
        self.write = write
    }

    /// Starts drawing after `delay`, then a frame every `interval`.
    public func start(after delay: Duration = .seconds(1), interval: Duration = .milliseconds(100)) {
        queue.sync {
            guard timer == nil else { return }
            let made = DispatchSource.makeTimerSource(queue: queue)
            made.schedule(deadline: .now() + Self.interval(delay), repeating: Self.interval(interval))
            made.setEventHandler { [weak self] in self?.tick() }
            timer = made
            made.resume()
        }
    }

    /// Stops, and erases the spinner's line if one was drawn. Returns once erased.
    public func stop() {
        queue.sync {
            timer?.cancel()
            timer = nil
            if drawn { write("\r\u{1B}[2K") }
            drawn = false
        }
    }

    /// Runs on `queue`.
    private func tick() {
        guard timer != nil else { return }
        drawn = true
        write("\r\(frames[frame % frames.count]) \(label)")
        frame += 1
    }

    private static func interval(_ duration: Duration) -> DispatchTimeInterval {
        let (seconds, attoseconds) = duration.components
        return .nanoseconds(Int(clamping: seconds * 1_000_000_000 + attoseconds / 1_000_000_000))
    }
}
