// The benchmark's Swift plugin, on the SDK as a plugin author writes one:
// every perform completes at once, with success and a message, the common
// case users hit. Beside the C benchmark plugin it shows what the SDK's
// Swift layer costs per Perform.
import QuickActionsSDK

final class BenchSwiftPlugin: QuickActionsPlugin {
    init(host: PluginHost) throws {}

    func perform(_ action: ShortcutAction, completion: @escaping @Sendable (ActionResult) -> Void) {
        completion(.success("Performed at once"))
    }
}

@_cdecl("quickactions_plugin_entry")
public func quickActionsPluginEntry() -> PluginEntry { PluginEntry(BenchSwiftPlugin.self) }
