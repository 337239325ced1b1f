import QuickActionsSDK

/// The plugin of com.example.MyPlugin. See docs/plugin-guide.md in the
/// QuickActions checkout for every callback and what it may do.
final class MyPlugin: QuickActionsPlugin {
    private let host: PluginHost

    init(host: PluginHost) throws {
        self.host = host
    }

    func perform(_ action: ShortcutAction, completion: @escaping @Sendable (ActionResult) -> Void) {
        switch action.item.type {
        case "open":
            completion(.success("MyPlugin opened"))
        default:
            completion(.failure("MyPlugin has no action \(action.item.type)"))
        }
    }
}

@_cdecl("quickactions_plugin_entry")
public func quickActionsPluginEntry() -> PluginEntry { PluginEntry(MyPlugin.self) }
