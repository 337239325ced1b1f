/// A QuickActions plugin: the counterpart of an iOS app delegate's
/// quick-action methods.
///
/// The broker creates one instance when the first quick action of the app is
/// performed, and calls every method on a serial queue of the plugin's own,
/// one call at a time, so the type need not be thread-safe. Completions may
/// be called from any thread. Export the type with one line:
///
/// ```swift
/// @_cdecl("quickactions_plugin_entry")
/// public func quickActionsPluginEntry() -> PluginEntry { PluginEntry(MusicPlugin.self) }
/// ```
///
/// Everything except `init(host:)` has a default.
public protocol QuickActionsPlugin: AnyObject {
    /// Creates the plugin. Keep `host`: it sets dynamic items, gives the data
    /// directory and logs, from any thread, for the life of the process.
    /// Throwing fails the load; the error's description is what the broker
    /// reports. Items set here are kept even if init then throws.
    init(host: PluginHost) throws

    /// Called when performing `action` launched the plugin, as iOS passes
    /// the shortcut item to `application(_:didFinishLaunchingWithOptions:)`.
    ///
    /// Return ``LaunchDecision/handled`` when you handle the action here:
    /// then you must call `completion` exactly once, and
    /// ``perform(_:completion:)`` is not called for it. Return
    /// ``LaunchDecision/performAction`` (the default) to have `perform`
    /// called right after, and leave `completion` alone.
    func didFinishLaunching(
        with action: ShortcutAction, completion: @escaping @Sendable (ActionResult) -> Void
    ) -> LaunchDecision

    /// Performs `action`, as `application(_:performActionFor:completionHandler:)`.
    /// Call `completion` exactly once, now or later, from any thread; a
    /// second call is ignored. The default fails with a message.
    func perform(_ action: ShortcutAction, completion: @escaping @Sendable (ActionResult) -> Void)

    /// Called before the broker stops, as `applicationWillResignActive`:
    /// update ``PluginHost/shortcutItems`` and save state before returning.
    /// The default does nothing.
    func willResignActive()
}

extension QuickActionsPlugin {
    public func didFinishLaunching(
        with action: ShortcutAction, completion: @escaping @Sendable (ActionResult) -> Void
    ) -> LaunchDecision {
        .performAction
    }

    public func perform(_ action: ShortcutAction, completion: @escaping @Sendable (ActionResult) -> Void) {
        completion(.failure("\(Self.self) does not perform \(action.item.type)"))
    }

    public func willResignActive() {}
}

/// What ``QuickActionsPlugin/didFinishLaunching(with:completion:)`` did with
/// the action that launched the plugin. (iOS says "handled" by returning
/// false from didFinishLaunching; this says what it means.)
public enum LaunchDecision: Sendable, Hashable {
    /// Handled at launch: the plugin calls the completion; perform is not called.
    case handled
    /// Not handled: perform is called next with the same action.
    case performAction
}
