import Locking
import Dispatch
import Foundation
@testable import QuickActionsHost
import QuickActionsModel
import QuickActionsABI

/// Plays the broker for tests: records every dynamic-item list and log line,
/// and can refuse lists.
final class Recorder: Sendable {
    private let itemLists = Locked<[[ShortcutItem]]>([])
    private let records = Locked<[PluginLogRecord]>([])
    private let rejection: (@Sendable ([ShortcutItem]) -> String?)?

    /// `reject` returns a reason to refuse a list, or nil to accept it.
    init(reject: (@Sendable ([ShortcutItem]) -> String?)? = nil) {
        self.rejection = reject
    }

    var callbacks: PluginCallbacks {
        PluginCallbacks(
            setDynamicItems: { [self] (items) throws(DynamicItemsRejection) in
                if let reason = rejection?(items) {
                    throw DynamicItemsRejection(reason)
                }
                itemLists.withLock { $0.append(items) }
            },
            log: { [self] record in records.withLock { $0.append(record) } })
    }

    /// Every accepted list, in order.
    var lists: [[ShortcutItem]] { itemLists.withLock { $0 } }
    var logs: [PluginLogRecord] { records.withLock { $0 } }

    func loaderLogs(containing text: String) -> [PluginLogRecord] {
        logs.filter { $0.origin == .loader && $0.message.contains(text) }
    }

    func pluginLogs(containing text: String) -> [PluginLogRecord] {
        logs.filter { $0.origin == .plugin && $0.message.contains(text) }
    }
}

/// Loads the bundle's library with the recorder's callbacks.
func load(_ bundle: TestBundle, recorder: Recorder, appID: String = "org.example.test") throws(PluginLoadError) -> LoadedPlugin {
    keepLoaded(
        try LoadedPlugin.load(
            library: bundle.library.path, bundle: bundle.bundle.path, appID: appID, dataDirectory: bundle.dataDirectory.path,
            callbacks: recorder.callbacks))
}

/// Loaded plugins stay referenced until the process exits, as the broker
/// keeps them: their host tables and state are never freed by design, and
/// LeakSanitizer would report them once nothing pointed at them.
private let loadedPlugins = Locked<[LoadedPlugin]>([])

@discardableResult
func keepLoaded(_ plugin: LoadedPlugin) -> LoadedPlugin {
    loadedPlugins.withLock { $0.append(plugin) }
    return plugin
}

func request(_ type: String, title: String = "Title") -> PerformRequest {
    PerformRequest(item: ShortcutItem(type: type, title: title))
}

/// Runs a launch or perform and waits for its completion; nil if none came
/// within `timeout` (a guard against a hanging test, not synchronisation).
func outcome(
    of plugin: LoadedPlugin, _ request: PerformRequest, launching: Bool = false, timeout: Double = 20
) async -> PerformOutcome? {
    let once = Once()
    return await withCheckedContinuation { (continuation: CheckedContinuation<PerformOutcome?, Never>) in
        let resume: @Sendable (PerformOutcome?) -> Void = { value in
            if once.claim() { continuation.resume(returning: value) }
        }
        if launching {
            plugin.launch(request) { resume($0) }
        } else {
            plugin.perform(request) { resume($0) }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { resume(nil) }
    }
}

/// Waits until every call queued on the plugin so far has returned.
func drain(_ plugin: LoadedPlugin) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        plugin.afterQueuedCalls { continuation.resume() }
    }
}

/// True for the first caller of ``claim()`` only.
final class Once: Sendable {
    private let done = Locked(false)

    func claim() -> Bool {
        done.withLock { done in
            defer { done = true }
            return !done
        }
    }
}

/// Counts calls from any thread.
final class Counter: Sendable {
    private let count = Locked(0)

    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
