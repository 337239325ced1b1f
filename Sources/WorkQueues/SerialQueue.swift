import CDispatch
import CWorkQueues

/// A serial libdispatch queue through libdispatch's C API (`dispatch_queue_create`,
/// `dispatch_async_f`, `dispatch_sync_f`): what the modules a plugin host links need of
/// `DispatchQueue`, without Swift's Dispatch overlay. The overlay (libswiftDispatch) needs
/// _StringProcessing and _RegexParser, and so put 1.1 MiB of shared-library pages into every
/// idle plugin host; these are the same libdispatch queues, run by the same worker threads.
public final class SerialQueue: @unchecked Sendable {
    // @unchecked: `queue` is set once in init; libdispatch's queue functions are thread-safe.
    let queue: dispatch_queue_t

    /// How urgent the queue's work is, as libdispatch's quality-of-service classes.
    public enum Priority: Sendable {
        /// The default: as urgent as the caller.
        case standard
        /// Long-running work nobody waits on (`QOS_CLASS_UTILITY`).
        case utility
    }

    /// A new serial queue named `label` (as debuggers and crash reports show it).
    public init(label: String, priority: Priority = .standard) {
        let attributes: dispatch_queue_attr_t? = switch priority {
        case .standard: nil
        case .utility: dispatch_queue_attr_make_with_qos_class(nil, Self.utilityClass, 0)
        }
        queue = label.withCString { dispatch_queue_create($0, attributes) }
    }

    /// `QOS_CLASS_UTILITY` (sys/qos.h, which Linux lacks: the header then takes a plain number),
    /// the value Swift's `DispatchQoS.utility` passes.
    static let utilityClass: dispatch_qos_class_t = 0x11

    deinit {
        qa_dispatch_release(UnsafeMutableRawPointer(queue))
    }

    /// Runs `work` on the queue after everything queued before it (`dispatch_async_f`).
    public func async(_ work: @escaping @Sendable () -> Void) {
        let context = Unmanaged.passRetained(Work(work)).toOpaque()
        dispatch_async_f(queue, context) { raw in
            guard let raw else { return }
            Unmanaged<Work>.fromOpaque(raw).takeRetainedValue().body()
        }
    }

    /// Runs `work` on the calling thread once everything queued before it ran, with nothing
    /// else of the queue's running meanwhile (`dispatch_sync_f`), and returns its result.
    public func sync<Result>(_ work: () -> Result) -> Result {
        var result: Result?
        withoutActuallyEscaping({ result = work() }) { body in
            var call = SyncCall(body: body)
            run(&call)
        }
        return result.unsafelyUnwrapped
    }

    /// Runs `work` as ``sync(_:)`` does, for a closure that is already escaping: the plugin
    /// host and the in-process broker make this call on every Perform they run inline, and
    /// turning a non-escaping closure into one libdispatch can be handed costs two
    /// allocations (five, with a captured result), while this costs none.
    public func sync(execute work: @escaping () -> Void) {
        var call = SyncCall(body: work)
        run(&call)
    }

    /// `dispatch_sync_f` with the address of a call on the caller's stack, which outlives it:
    /// dispatch_sync_f returns only after the function ran.
    private func run(_ call: UnsafeMutablePointer<SyncCall>) {
        dispatch_sync_f(queue, call) { raw in
            raw.unsafelyUnwrapped.assumingMemoryBound(to: SyncCall.self).pointee.body()
        }
    }
}

/// A closure for `dispatch_sync_f`, in a struct: a closure stored through a pointer to its
/// own function type is kept at the generic representation and needs a thunk, allocated on
/// every call; as a struct's field it is kept as it is.
private struct SyncCall {
    let body: () -> Void
}

/// A closure on the heap, handed to libdispatch as a function's context.
private final class Work {
    let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }
}
