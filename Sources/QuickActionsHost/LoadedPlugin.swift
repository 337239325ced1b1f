import CQuickActionsPlugin
import QuickActionsABI
import QuickActionsModel
import Synchronization
import WorkQueues

/// A plugin library loaded and initialised, with its own serial queue on
/// which every call into it runs (init, launch, perform, will-resign).
///
/// A loaded plugin is never unloaded: the object may go away, the library
/// stays mapped until the process exits (see `quickactions_plugin.h`).
/// Completions may arrive on any thread, at any time, or never; a late one,
/// after the broker ``PerformTicket/abandon()``ed the request, is ignored.
public final class LoadedPlugin: Sendable {
    /// The library's path.
    public let library: String
    /// The app id (CFBundleIdentifier) the plugin serves.
    public let appID: String
    /// The name the descriptor gives, if any.
    public let name: String?
    /// The ABI version the plugin was built for.
    public let abiVersion: PluginABIVersion

    private let descriptor: PluginDescriptor
    private let state: PluginState
    private let context: PluginHostContext
    private let queue: SerialQueue
    /// Calls queued on the plugin's queue and not yet finished, an inline one included.
    private let busy = Atomic<Int>(0)
    /// Cleared once a perform run inline overran its budget; set again after
    /// ``calmCallsToRunInline`` queued calls in a row kept within it.
    private let inlineAllowed = Atomic<Bool>(true)
    /// Queued calls in a row that kept within the budget since inline running stopped.
    private let calmCalls = Atomic<Int>(0)
    /// Kept so the library (and its descriptor) is owned by someone; never unloaded.
    private let dynamicLibrary: DynamicLibrary

    private init(
        descriptor: PluginDescriptor, state: PluginState, context: PluginHostContext, queue: SerialQueue,
        dynamicLibrary: DynamicLibrary
    ) {
        self.library = dynamicLibrary.path
        self.appID = context.appID
        self.name = descriptor.name
        self.abiVersion = descriptor.version
        self.descriptor = descriptor
        self.state = state
        self.context = context
        self.queue = queue
        self.dynamicLibrary = dynamicLibrary
    }

    /// Checks, loads and initialises the plugin library `library` of the
    /// bundle folder `bundle`.
    ///
    /// Before any plugin code runs, the bundle folder and the library are
    /// checked (not symlinks, owned by this user or root, not group- or
    /// world-writable), and the very file checked is loaded through its open
    /// descriptor. The library is unloaded again only if loading or init
    /// fails, and never if it registered with the Swift runtime (anything
    /// linked by swiftc, see ``SwiftImageProbe``). Blocks the calling
    /// thread until the plugin's init returns; call it off the broker's
    /// main queue.
    ///
    /// - Parameters:
    ///   - library: the library's path (a URL's `path`); standardised as
    ///     `URL.standardizedFileURL` would (``FilePaths/standardized(_:)``) before the checks.
    ///   - bundle: the bundle folder's path, standardised the same way.
    ///   - appID: the app id, given to the plugin (`app_id`) and used in log lines.
    ///   - dataDirectory: the path of the plugin's own folder, created (0700) when it first asks.
    ///   - callbacks: where dynamic items and log lines go.
    public static func load(
        library: String, bundle: String, appID: String, dataDirectory: String, callbacks: PluginCallbacks
    ) throws(PluginLoadError) -> LoadedPlugin {
        try load(
            library: library, bundle: bundle, appID: appID, dataDirectory: dataDirectory, callbacks: callbacks,
            hooks: LoaderHooks())
    }

    static func load(
        library: String, bundle: String, appID: String, dataDirectory: String, callbacks: PluginCallbacks,
        hooks: LoaderHooks
    ) throws(PluginLoadError) -> LoadedPlugin {
        let path = FilePaths.standardized(library)
        let fd = try SecureLibraryFile.open(library: library, bundle: bundle)
        hooks.afterCheck?(path)
        let dynamicLibrary = try DynamicLibrary(descriptor: fd, path: path)
        let context = PluginHostContext(
            appID: appID, libraryPath: path, bundle: bundle, dataDirectory: dataDirectory, callbacks: callbacks)
        do throws(PluginLoadError) {
            guard let symbol = dynamicLibrary.symbol(named: QA_PLUGIN_ENTRY_SYMBOL) else {
                throw PluginLoadError.symbolMissing(library: path, symbol: QA_PLUGIN_ENTRY_SYMBOL)
            }
            typealias Entry = @convention(c) () -> UnsafePointer<qa_plugin>?
            let entry = unsafeBitCast(symbol, to: Entry.self)
            let descriptor = try PluginDescriptor(reading: entry(), library: path)
            let queue = SerialQueue(label: "org.quickactions.plugin.\(appID)")
            let state = try initialize(descriptor, context: context, queue: queue, library: path)
            let plugin = LoadedPlugin(
                descriptor: descriptor, state: state, context: context, queue: queue, dynamicLibrary: dynamicLibrary)
            context.log(.info, "loaded \(path) (\(descriptor.name ?? "unnamed"), ABI \(descriptor.version))"
                + Self.newerMinorNote(descriptor.version))
            return plugin
        } catch {
            context.retire(because: "the plugin failed to load: \(error.reason)")
            let closed = dynamicLibrary.unloadAfterFailure()
            // The caller reports the failure (one line per load failure); only
            // that the library stays mapped is the loader's own to say.
            if !closed {
                context.log(.debug, "\(path) is kept mapped after its failed load: it registered with the Swift runtime")
            }
            throw error
        }
    }

    /// For a plugin built for a newer minor than this host's: that it runs with this host's fields only.
    static func newerMinorNote(_ version: PluginABIVersion) -> String {
        let host = PluginABIVersion.current
        guard version.major == host.major, version.minor > host.minor else { return "" }
        return "; this host serves ABI \(host): fields and functions newer than \(host) are absent and ignored"
    }

    /// Calls the descriptor's init on the plugin's queue and waits for it.
    private static func initialize(
        _ descriptor: PluginDescriptor, context: PluginHostContext, queue: SerialQueue, library: String
    ) throws(PluginLoadError) -> PluginState {
        let host = HostTable.make(for: context)
        let size = Int(QA_ERROR_BUFFER_SIZE)
        let (status, state, message): (qa_status, UnsafeMutableRawPointer?, String) = queue.sync {
            var state: UnsafeMutableRawPointer?
            let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: size)
            defer { buffer.deallocate() }
            buffer.initialize(repeating: 0, count: size)
            context.callbacks.runningPluginCode(true)
            let status = descriptor.initialize(descriptor.pointer, host, &state, buffer, size)
            context.callbacks.runningPluginCode(false)
            return (status, state, CStrings.message(inBuffer: buffer, size: size))
        }
        guard status == QA_STATUS_OK else {
            throw .initFailed(
                library: library, message: message.isEmpty ? "init returned status \(status) without a message" : message)
        }
        return PluginState(pointer: state)
    }

    /// Delivers a request that loaded the plugin: calls its launch callback
    /// with the item, then its perform callback too unless launch reported
    /// that it handled the item. `completion` is called at most once, on
    /// whichever thread the plugin completes on; never if the plugin never
    /// completes or the ticket is abandoned first.
    @discardableResult
    public func launch(
        _ request: PerformRequest, inline: InlineRunner? = nil, budget: Duration? = LoadedPlugin.inlineBudget,
        completion: @escaping @Sendable (PerformOutcome) -> Void
    ) -> PerformTicket {
        let id = context.completions.register(completion)
        deliver(callbacks(for: request, launching: true, completionID: id), inline: inline, budget: budget)
        return PerformTicket(table: context.completions, completionID: id)
    }

    /// Delivers a request to an already running plugin ("resume"): its
    /// perform callback alone. Completion as for ``launch(_:completion:)``.
    ///
    /// With `inline`, the perform callback may run on the thread `inline`
    /// chooses (the thread that received the request) instead of the
    /// plugin's queue, saving a thread hand-off per call: when `inline`
    /// takes the work, the plugin's queue is idle when the work runs, and
    /// the plugin never overran ``inlineBudget`` before. The call still
    /// runs on the plugin's queue (`sync`, on the calling thread), so the
    /// ABI's one-call-at-a-time rule holds. Otherwise it is queued.
    ///
    /// `budget` is how long an inline call may take before every later one
    /// of a caller with a budget is queued (``inlineBudget``, for a host that
    /// must keep reading its connection); nil runs every call inline while
    /// the queue is idle, however long calls took before, and reads no clock
    /// (the broker's in-process mode for trusted plugins: a plugin that
    /// blocks then blocks the thread that called it).
    @discardableResult
    public func perform(
        _ request: PerformRequest, inline: InlineRunner? = nil, budget: Duration? = LoadedPlugin.inlineBudget,
        completion: @escaping @Sendable (PerformOutcome) -> Void
    ) -> PerformTicket {
        let id = context.completions.register(completion)
        deliver(callbacks(for: request, launching: false, completionID: id), inline: inline, budget: budget)
        return PerformTicket(table: context.completions, completionID: id)
    }

    /// ``perform(_:inline:budget:completion:)`` (or ``launch(_:inline:budget:completion:)`` when
    /// `launching`) of a request already in its C form: the same calls, without building it.
    @discardableResult
    public func perform(
        prepared: PreparedPerform, launching: Bool, inline: InlineRunner? = nil,
        budget: Duration? = LoadedPlugin.inlineBudget, completion: @escaping @Sendable (PerformOutcome) -> Void
    ) -> PerformTicket {
        let id = context.completions.register(completion)
        deliver(callbacks(for: prepared, launching: launching, completionID: id), inline: inline, budget: budget)
        return PerformTicket(table: context.completions, completionID: id)
    }

    /// Runs `call` through `inline` when it takes it and the plugin may run inline, else
    /// queues it.
    private func deliver(_ call: @escaping @Sendable () -> Void, inline: InlineRunner?, budget: Duration?) {
        let allowed = budget == nil || inlineAllowed.load(ordering: .relaxed)
        let handedOver = allowed && inline?({ [self] in runInline(call, budget: budget) }) == true
        if handedOver { return }
        guard let budget, inline != nil, !allowed else {
            enqueue(call)
            return
        }
        // Queued because an earlier call overran: time this one, so that a plugin that only
        // looked slow once (its thread preempted on a busy machine) earns the fast path back.
        enqueue { [self] in
            let clock = ContinuousClock()
            let started = clock.now
            call()
            noteQueuedCall(took: clock.now - started, budget: budget)
        }
    }

    /// How many queued calls in a row must keep within the budget before calls run inline
    /// again. A plugin that really blocks now and then stays queued.
    public static let calmCallsToRunInline = 16

    private func noteQueuedCall(took: Duration, budget: Duration) {
        guard took <= budget else {
            calmCalls.store(0, ordering: .relaxed)
            return
        }
        let calm = calmCalls.add(1, ordering: .relaxed).newValue
        if calm >= Self.calmCallsToRunInline, !inlineAllowed.load(ordering: .relaxed) {
            calmCalls.store(0, ordering: .relaxed)
            inlineAllowed.store(true, ordering: .relaxed)
            context.log(.info, "\(calm) calls into \(appID) in a row kept within \(budget): they run on the "
                + "thread that received them again")
        }
    }

    /// Runs work somewhere other than the plugin's queue and returns true,
    /// or returns false without running it. See ``perform(_:inline:completion:)``.
    public typealias InlineRunner = @Sendable (_ work: @escaping @Sendable () -> Void) -> Bool

    /// How long a perform run inline may take. A plugin that takes longer
    /// has its later calls queued (it has shown it may block) until
    /// ``calmCallsToRunInline`` of them in a row keep within it.
    public static let inlineBudget: Duration = .milliseconds(10)

    /// Calls the plugin's will-resign callback, then `completion` once it
    /// returned (with any dynamic items it set already delivered).
    public func willResign(completion: @escaping @Sendable () -> Void) {
        enqueue { [descriptor, state, context] in
            if let willResign = descriptor.willResign {
                context.callbacks.runningPluginCode(true)
                willResign(state.pointer)
                context.callbacks.runningPluginCode(false)
            }
            completion()
        }
    }

    /// Completions handed to the plugin that were neither called nor abandoned.
    public var pendingCompletions: Int {
        context.completions.pendingCount
    }

    /// Queues `work` on the plugin's queue, counting it as queued until it ran.
    private func enqueue(_ work: @escaping @Sendable () -> Void) {
        busy.add(1, ordering: .acquiringAndReleasing)
        queue.async { [self] in
            work()
            busy.subtract(1, ordering: .acquiringAndReleasing)
        }
    }

    /// Runs `call` on this thread if the plugin's queue is idle, else queues it.
    private func runInline(_ call: @escaping @Sendable () -> Void, budget: Duration?) {
        guard budget == nil || inlineAllowed.load(ordering: .relaxed),
              busy.compareExchange(expected: 0, desired: 1, ordering: .acquiringAndReleasing).exchanged else {
            enqueue(call)
            return
        }
        guard let budget else {
            queue.sync(execute: call)
            busy.subtract(1, ordering: .acquiringAndReleasing)
            return
        }
        let clock = ContinuousClock()
        let started = clock.now
        queue.sync(execute: call)
        let took = clock.now - started
        busy.subtract(1, ordering: .acquiringAndReleasing)
        if took > budget {
            calmCalls.store(0, ordering: .relaxed)
            inlineAllowed.store(false, ordering: .relaxed)
            context.log(.warning, "a call into the plugin ran for \(took) on the thread that received it (the "
                + "budget is \(budget)); calls into \(appID) are queued on the plugin's own thread until "
                + "\(Self.calmCallsToRunInline) in a row keep within it")
        }
    }

    /// The calls into the plugin for one prepared request, as ``callbacks(for:launching:completionID:)``.
    private func callbacks(
        for prepared: PreparedPerform, launching: Bool, completionID id: UInt64
    ) -> @Sendable () -> Void {
        { [descriptor, state, context] in
            withExtendedLifetime(prepared) {
                Self.call(descriptor, state: state, context: context, raw: prepared.raw, launching: launching, id: id)
            }
        }
    }

    /// Launch (when `launching`), then perform unless launch handled the item, with `raw`.
    private static func call(
        _ descriptor: PluginDescriptor, state: PluginState, context: PluginHostContext,
        raw: UnsafePointer<qa_request>, launching: Bool, id: UInt64
    ) {
        let running = context.callbacks.runningPluginCode
        if launching, let launch = descriptor.launch {
            running(true)
            let handled = launch(state.pointer, raw, id)
            running(false)
            if handled { return }
        }
        guard let perform = descriptor.perform else {
            context.complete(id, outcome: PerformOutcome(success: false, message: "the plugin has no perform callback"))
            return
        }
        running(true)
        perform(state.pointer, raw, id)
        running(false)
    }

    /// The calls into the plugin for one request: launch (when `launching`),
    /// then perform unless launch handled the item.
    private func callbacks(
        for request: PerformRequest, launching: Bool, completionID id: UInt64
    ) -> @Sendable () -> Void {
        { [descriptor, state, context] in
            // The request's C memory lives exactly as long as the calls it is passed to.
            let arena = CArena()
            withExtendedLifetime(arena) {
                let raw = ABIEncoder(arena: arena).request(
                    item: request.item, resolvedIcon: request.resolvedIcon, arguments: request.arguments,
                    activationToken: request.activationToken)
                Self.call(descriptor, state: state, context: context, raw: raw, launching: launching, id: id)
            }
        }
    }
}

/// The state pointer a plugin's init returned, passed back to its callbacks.
struct PluginState: @unchecked Sendable {
    // @unchecked: the host never dereferences it; it is only handed back to
    // the plugin's callbacks, on the plugin's serial queue.
    let pointer: UnsafeMutableRawPointer?
}

/// Points where tests look into loading; empty in production.
struct LoaderHooks {
    /// Called with the library path after the file checks and before dlopen.
    var afterCheck: ((String) -> Void)?
}

extension LoadedPlugin {
    /// Runs `body` on the plugin's queue after every call queued so far (for tests).
    func afterQueuedCalls(_ body: @escaping @Sendable () -> Void) {
        enqueue(body)
    }
}
