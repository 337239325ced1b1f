import Locking
import Dispatch
import Foundation
import QuickActionsHost
import QuickActionsBundles
import QuickActionsModel
import QuickActionsTestSupport

/// One example plugin loaded in this process with `LoadedPlugin`, as the broker loads it, with a
/// recorder in the broker's place. Its data directory is a temporary folder that
/// ``remove()`` deletes (unless it was given).
final class PluginSession: Sendable {
    let bundle: PluginBundle
    let plugin: LoadedPlugin
    let recorder: Recorder
    let dataDirectory: URL
    private let ownsData: Bool

    /// Loads example `name` from `examples`, with its data in `dataDirectory` (a fresh folder if nil).
    init(_ name: String, from examples: AssembledExamples, dataDirectory: URL? = nil) throws {
        bundle = try examples.bundle(name)
        recorder = Recorder()
        ownsData = dataDirectory == nil
        let data = try dataDirectory ?? TemporaryDirectory.make(prefix: "qa-example-data")
        self.dataDirectory = data
        do {
            plugin = keepLoaded(
                try LoadedPlugin.load(
                    library: bundle.executableURL.path, bundle: bundle.url.path, appID: bundle.appID.rawValue,
                    dataDirectory: data.path, callbacks: recorder.callbacks))
        } catch {
            if ownsData { try? FileManager.default.removeItem(at: data) }
            throw error
        }
    }

    func remove() {
        if ownsData { try? FileManager.default.removeItem(at: dataDirectory) }
    }

    /// The static item of type `type`, localised for `locale`.
    func staticItem(_ type: String, locale: String = "en") throws -> ShortcutItem {
        guard let item = bundle.localizedStaticItems(locale: locale).first(where: { $0.type == type }) else {
            throw TestSupportError("\(bundle.appID) has no static item \(type)")
        }
        return item
    }

    /// The item of type `type` in the last dynamic list the plugin set (the first with `title` if given).
    func dynamicItem(_ type: String, title: String? = nil) throws -> ShortcutItem {
        let match = recorder.lists.last?.first { $0.type == type && (title == nil || $0.title == title) }
        guard let match else {
            throw TestSupportError("no dynamic \(type) \(title ?? ""); lists: \(recorder.lists)")
        }
        return match
    }

    /// Launches (the request that loaded the plugin) or performs `item` and waits for its completion.
    func outcome(
        _ item: ShortcutItem, arguments: UserInfo = [:], launching: Bool = false
    ) async -> PerformOutcome? {
        var request = PerformRequest(item: item, arguments: arguments)
        request.resolvedIcon = item.icon.flatMap { try? bundle.resolvedIcon($0) }
        let once = Once()
        let plugin = self.plugin
        return await withCheckedContinuation { (continuation: CheckedContinuation<PerformOutcome?, Never>) in
            let resume: @Sendable (PerformOutcome?) -> Void = { value in
                if once.claim() { continuation.resume(returning: value) }
            }
            if launching {
                plugin.launch(request) { resume($0) }
            } else {
                plugin.perform(request) { resume($0) }
            }
            // A guard against a hanging test, not synchronisation.
            DispatchQueue.global().asyncAfter(deadline: .now() + 20) { resume(nil) }
        }
    }

    /// Calls will-resign and waits for it to return.
    func willResign() async {
        let plugin = self.plugin
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            plugin.willResign { continuation.resume() }
        }
    }

    /// Waits until every call queued on the plugin so far has returned: performs an item no
    /// example knows, whose failure comes back after every earlier call on the plugin's serial
    /// queue (every example fails an unknown type at once, changing nothing).
    func drain() async {
        _ = await outcome(ShortcutItem(type: "org.quickactions.test.drain", title: "drain"))
    }
}

/// Plays the broker: records every dynamic-item list and log line.
final class Recorder: Sendable {
    private let itemLists = Locked<[[ShortcutItem]]>([])
    private let records = Locked<[PluginLogRecord]>([])

    var callbacks: PluginCallbacks {
        PluginCallbacks(
            setDynamicItems: { [self] (items) throws(DynamicItemsRejection) in
                itemLists.withLock { $0.append(items) }
            },
            log: { [self] record in records.withLock { $0.append(record) } })
    }

    /// Every list the plugin set, in order.
    var lists: [[ShortcutItem]] { itemLists.withLock { $0 } }
    var logs: [PluginLogRecord] { records.withLock { $0 } }

    /// Loader lines reporting a completion called more than once.
    var repeatedCompletions: [PluginLogRecord] {
        logs.filter { $0.origin == .loader && $0.message.contains("called again") }
    }
}

/// A value behind a pthread mutex (NSLock), which ThreadSanitizer understands.
final class Locked<Value>: @unchecked Sendable {
    // @unchecked: `value` is only touched while holding `lock`.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
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

/// Loaded plugins stay referenced until the process exits, as the broker keeps them (their host
/// tables are never freed by design, and LeakSanitizer would report them once unreferenced).
private let loadedPlugins = Locked<[LoadedPlugin]>([])

func keepLoaded(_ plugin: LoadedPlugin) -> LoadedPlugin {
    loadedPlugins.withLock { $0.append(plugin) }
    return plugin
}

