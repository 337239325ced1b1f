import CDispatch
import CWorkQueues

/// A one-shot libdispatch timer whose handler runs on a ``SerialQueue``
/// (`dispatch_source_create(DISPATCH_SOURCE_TYPE_TIMER, …)`,
/// `dispatch_source_set_event_handler_f`, `dispatch_source_set_timer`): what the D-Bus binding
/// needs of `DispatchSourceTimer`, without Swift's Dispatch overlay (see ``SerialQueue``).
/// Created active; ``schedule(deadline:leeway:)`` sets (or moves) the one time it fires.
public final class TimerSource: @unchecked Sendable {
    // @unchecked: `source` is set once in init; libdispatch's source functions are thread-safe,
    // and the handler's box is only touched by libdispatch (event and cancel handlers).
    private let source: dispatch_source_t

    /// A timer on `queue` that calls `handler` there each time a scheduled deadline passes.
    public init(queue: SerialQueue, handler: @escaping @Sendable () -> Void) {
        source = dispatch_source_create(OpaquePointer(qa_dispatch_source_type_timer()), 0, 0, queue.queue)
        let object = dispatch_object_t(_ds: source)
        // The handler lives in the source's context until the cancel handler releases it.
        dispatch_set_context(object, Unmanaged.passRetained(Handler(handler)).toOpaque())
        dispatch_source_set_event_handler_f(source) { context in
            guard let context else { return }
            Unmanaged<Handler>.fromOpaque(context).takeUnretainedValue().body()
        }
        dispatch_source_set_cancel_handler_f(source) { context in
            guard let context else { return }
            Unmanaged<Handler>.fromOpaque(context).release()
        }
        dispatch_activate(object)
    }

    deinit {
        dispatch_source_cancel(source)
        qa_dispatch_release(UnsafeMutableRawPointer(source))
    }

    /// Fires once at `deadline` (``Uptime/nanoseconds``' clock), `leeway` late at most as
    /// libdispatch may coalesce; replaces any earlier schedule.
    public func schedule(deadline: UInt64, leeway: Duration) {
        let leewayNanoseconds = leeway.components.seconds * 1_000_000_000 + leeway.components.attoseconds / 1_000_000_000
        dispatch_source_set_timer(
            source, Uptime.dispatchTime(deadline), DISPATCH_TIME_FOREVER, UInt64(clamping: max(0, leewayNanoseconds)))
    }

    /// Stops the timer for good: its handler is not called again (`dispatch_source_cancel`).
    public func cancel() {
        dispatch_source_cancel(source)
    }
}

/// The clock of libdispatch's deadlines: nanoseconds since boot, not counting suspend
/// (CLOCK_MONOTONIC on Linux), as `DispatchTime.now().uptimeNanoseconds` reads it.
public enum Uptime {
    /// Now (`dispatch_time(DISPATCH_TIME_NOW, 0)`).
    public static var nanoseconds: UInt64 {
        dispatch_time(DISPATCH_TIME_NOW, 0)
    }

    /// `nanoseconds` as a `dispatch_time_t`, as `DispatchTime(uptimeNanoseconds:)` makes it:
    /// on Linux the same number, but never 0 (DISPATCH_TIME_NOW) and at most
    /// DISPATCH_TIME_FOREVER for values past INT64_MAX.
    static func dispatchTime(_ nanoseconds: UInt64) -> dispatch_time_t {
        if nanoseconds == 0 { return 1 }
        if nanoseconds >= UInt64(Int64.max) { return DISPATCH_TIME_FOREVER }
        return nanoseconds
    }
}

private final class Handler {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
}
