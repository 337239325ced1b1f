import DBus
import Dispatch
import Foundation
import Locking
import QuickActionsHost
import QuickActionsBundles
import QuickActionsModel

/// A plugin loaded into the broker (the opt-in mode for plugins a user trusts).
///
/// A resumed plugin's perform runs right on the thread that received the request, the bus
/// loop, whenever the plugin's serial queue is idle (as a `queue.sync` there, so the ABI's
/// one-call-at-a-time rule holds), and a completion the plugin calls inside perform sends the
/// reply from that same thread: no thread is woken and no lock is waited for. Launch,
/// will-resign, and a perform that arrives while another call is queued go through the queue,
/// and a completion from another thread sends from there (libdbus wakes the loop to write).
///
/// This is the fast path trusted plugins are for, and its price: a trusted plugin that blocks
/// inside perform blocks the broker, every app's calls included, for as long as it blocks
/// (there is no time budget here; the host process keeps one, as it must go on reading its
/// connection). A trusted plugin that crashes takes the broker down (the crash journal then
/// quarantines it). Plugins that are not trusted run in a host process of their own.
final class InProcessExecutor: PluginExecutor {
    private unowned let broker: Broker
    private let bundle: PluginBundle
    private let slot: PluginSlot
    private let queue: DispatchQueue
    private let loaded = Locked<LoadedPlugin?>(nil)
    /// Each request's C form, kept for its repeats.
    let requests = PreparedPerforms()

    init(broker: Broker, bundle: PluginBundle, slot: PluginSlot) {
        self.broker = broker
        self.bundle = bundle
        self.slot = slot
        queue = DispatchQueue(label: "org.quickactions.broker.load.\(bundle.appID.rawValue)")
    }

    var isLoaded: Bool { loaded.withLock { $0 } != nil }
    var hostProcessID: Int32 { 0 }

    func perform(
        _ request: PerformRequest, timeoutMilliseconds: UInt32,
        completion: @escaping @Sendable (ExecutionResult) -> Void
    ) -> PerformTicket? {
        let prepared = requests.prepared(request)
        if let plugin = loaded.withLock({ $0 }) {
            return plugin.perform(prepared: prepared, launching: false, inline: Self.runHere, budget: nil) {
                completion(.completed($0, launched: false))
            }
        }
        queue.async { [self] in
            if let plugin = loaded.withLock({ $0 }) {
                plugin.perform(prepared: prepared, launching: false) { completion(.completed($0, launched: false)) }
                return
            }
            let appID = bundle.appID.rawValue
            if let refusal = broker.quarantineRefusal(appID: appID, bundle: bundle) {
                completion(.failed(refusal))
                return
            }
            do {
                // dlopen runs the library's constructors: plugin code too.
                broker.journal.set(appID, running: true)
                let result = Result { () throws(PluginLoadError) -> LoadedPlugin in
                    try LoadedPlugin.load(
                        library: bundle.executableURL.path, bundle: bundle.url.path, appID: appID,
                        dataDirectory: broker.dataDirectory(of: appID).path, callbacks: broker.callbacks(for: appID, slot: slot))
                }
                broker.journal.set(appID, running: false)
                let plugin = try result.get()
                // Launch is queued on the plugin before any Perform can see it loaded, so it
                // is the plugin's first call. Its answer waits until the broker says the app is
                // loaded, so a caller that reads Loaded after that answer reads true.
                let launch = HeldCompletion(completion)
                plugin.perform(prepared: prepared, launching: true) { launch.complete(.completed($0, launched: true)) }
                loaded.withLock { $0 = plugin }
                broker.log(.info, "loaded \(appID) from \(bundle.executableURL.path) into the broker (in-process)")
                broker.recordLoad(of: appID, error: nil)
                broker.loadedChanged(appID)
                launch.release()
            } catch {
                broker.log(.error, "cannot load \(appID): \(error)")
                broker.recordLoad(of: appID, error: "\(error)")
                completion(.failed(DBusError(.pluginFailed, "\(appID) could not be loaded: \(error)")))
            }
        }
        return nil
    }

    func stop(bound: Duration, done: @escaping @Sendable () -> Void) {
        if let plugin = loaded.withLock({ $0 }) {
            plugin.willResign(completion: done)
            return
        }
        // A load may be under way: its launch can have completed (and its caller been
        // answered) before `loaded` is set on this queue. Asked here, after the load, the
        // plugin that just launched still gets its will-resign.
        queue.async { [loaded] in
            guard let plugin = loaded.withLock({ $0 }) else {
                done()
                return
            }
            plugin.willResign(completion: done)
        }
    }

    /// Runs a call into the plugin on this thread (the bus thread, from a handler).
    private static let runHere: LoadedPlugin.InlineRunner = { work in
        work()
        return true
    }
}

/// A completion held back until ``release()``: called then if it came first, else when it comes.
private final class HeldCompletion: Sendable {
    private enum State {
        case holding
        case held(ExecutionResult)
        case released
    }

    private let completion: @Sendable (ExecutionResult) -> Void
    private let state = Locked(State.holding)

    init(_ completion: @escaping @Sendable (ExecutionResult) -> Void) {
        self.completion = completion
    }

    func complete(_ result: ExecutionResult) {
        let now = state.withLock { state -> Bool in
            guard case .released = state else {
                state = .held(result)
                return false
            }
            return true
        }
        if now { completion(result) }
    }

    func release() {
        let held = state.withLock { state -> ExecutionResult? in
            defer { state = .released }
            guard case .held(let result) = state else { return nil }
            return result
        }
        if let held { completion(held) }
    }
}
