import DBus
import Dispatch
import Foundation
import Locking
import QuickActionsHost
import QuickActionsBundles
import QuickActionsModel

/// A plugin loaded into the broker (the opt-in mode for plugins a user trusts), called on a
/// serial queue of its own. A resumed plugin's perform runs right on the thread that received
/// the request (the bus thread) while the plugin's queue is idle, saving a thread switch per
/// call; a perform that once took longer than ``LoadedPlugin/inlineBudget`` has every later
/// call queued. A trusted plugin that blocks there therefore holds up the broker for that one
/// call; one that crashes takes the broker down (the crash journal then quarantines it).
final class InProcessExecutor: PluginExecutor {
    private unowned let broker: Broker
    private let bundle: PluginBundle
    private let slot: PluginSlot
    private let queue: DispatchQueue
    private let loaded = Locked<LoadedPlugin?>(nil)

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
        if let plugin = loaded.withLock({ $0 }) {
            return plugin.perform(request, inline: Self.runHere) { completion(.completed($0, launched: false)) }
        }
        queue.async { [self] in
            if let plugin = loaded.withLock({ $0 }) {
                plugin.perform(request) { completion(.completed($0, launched: false)) }
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
                        library: bundle.executableURL, bundle: bundle.url, appID: appID,
                        dataDirectory: broker.dataDirectory(of: appID), callbacks: broker.callbacks(for: appID, slot: slot))
                }
                broker.journal.set(appID, running: false)
                let plugin = try result.get()
                // Launch is queued on the plugin before any Perform can see it loaded, so it
                // is the plugin's first call.
                plugin.launch(request) { completion(.completed($0, launched: true)) }
                loaded.withLock { $0 = plugin }
                broker.log(.info, "loaded \(appID) from \(bundle.executableURL.path) into the broker (in-process)")
                broker.recordLoad(of: appID, error: nil)
                broker.loadedChanged(appID)
            } catch {
                broker.log(.error, "cannot load \(appID): \(error)")
                broker.recordLoad(of: appID, error: "\(error)")
                completion(.failed(DBusError(.pluginFailed, "\(appID) could not be loaded: \(error)")))
            }
        }
        return nil
    }

    func stop(bound: Duration, done: @escaping @Sendable () -> Void) {
        guard let plugin = loaded.withLock({ $0 }) else {
            done()
            return
        }
        plugin.willResign(completion: done)
    }

    /// Runs a call into the plugin on this thread (the bus thread, from a handler).
    private static let runHere: LoadedPlugin.InlineRunner = { work in
        work()
        return true
    }
}
