// Stacks: the QuickActions version of "Adding 3D Touch Quick Actions" (Use Your Loaf), an app
// whose three tabs each have a static quick action. See plugins/README.md.
//
// - Static items only, with types prefixed by the bundle identifier, localised titles and
//   subtitles (en.lproj, de.lproj), icon files in the bundle and the app version in user info.
// - A full type maps to a ShortcutIdentifier (a failable initialiser); an unknown type fails
//   cleanly with a message listing the known ones.
// - An item that launches the plugin is handled in the launch callback, which says so, so
//   perform is not called for it: it is never handled twice.
//
// Messages: "<Identifier> handled at launch" for the launch item, then
// "<Identifier> handled, <n> since launch" (n counts every quick action handled, the launch
// item included).
import QuickActionsSDK

final class StacksPlugin: QuickActionsPlugin {
    private let host: PluginHost
    /// The tab on show; touched only from the callbacks, on the plugin's queue.
    private(set) var selectedTab: Tab?
    /// Quick actions handled since launch; touched only from the callbacks.
    private var handledCount = 0

    init(host: PluginHost) throws {
        self.host = host
    }

    func didFinishLaunching(
        with action: ShortcutAction, completion: @escaping @Sendable (ActionResult) -> Void
    ) -> LaunchDecision {
        // As the article's didFinishLaunchingWithOptions returning false: handle the item here,
        // and tell the broker not to perform it again.
        completion(result(of: handle(action.item)) { "\($0.rawValue) handled at launch" })
        return .handled
    }

    func perform(_ action: ShortcutAction, completion: @escaping @Sendable (ActionResult) -> Void) {
        completion(result(of: handle(action.item)) { "\($0.rawValue) handled, \(handledCount) since launch" })
    }

    /// Selects the tab of `item`, or says why it cannot.
    private func handle(_ item: ShortcutItem) -> Result<ShortcutIdentifier, StacksError> {
        guard let identifier = ShortcutIdentifier(fullType: item.type, bundleIdentifier: host.appID) else {
            let known = ShortcutIdentifier.allCases.map { $0.fullType(bundleIdentifier: host.appID) }
            return .failure(StacksError("Stacks has no quick action of type '\(item.type)' (it has \(known.joined(separator: ", ")))"))
        }
        if let problem = StacksVersion.problem(with: item) {
            return .failure(StacksError(problem))
        }
        selectedTab = identifier.tab
        handledCount += 1
        host.log("selected the \(identifier.tab.rawValue) tab", level: .debug)
        return .success(identifier)
    }
}

/// The completion for `outcome`: success with `message(identifier)`, else failure with the reason.
private func result(
    of outcome: Result<ShortcutIdentifier, StacksError>, message: (ShortcutIdentifier) -> String
) -> ActionResult {
    switch outcome {
    case .success(let identifier): return .success(message(identifier))
    case .failure(let error): return .failure(error.message)
    }
}

/// Why Stacks refused a quick action.
struct StacksError: Error, Hashable, Sendable {
    var message: String
    init(_ message: String) { self.message = message }
}

/// The entry symbol the broker looks up: this plugin's descriptor.
@_cdecl("quickactions_plugin_entry")
public func quickActionsPluginEntry() -> PluginEntry { PluginEntry(StacksPlugin.self, name: "Stacks") }
