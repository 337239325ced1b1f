// A Swift test plugin whose init throws: the load must fail with the error's
// description, and the library must stay mapped (Swift code is never unloaded).
import QuickActionsSDK

struct MissingConfiguration: Error, CustomStringConvertible {
    var path: String
    var description: String { "no configuration file at \(path)" }
}

final class FailingPlugin: QuickActionsPlugin {
    init(host: PluginHost) throws {
        host.shortcutItems = []
        throw MissingConfiguration(path: "/nonexistent/config.plist")
    }
}

@_cdecl("quickactions_plugin_entry")
public func quickActionsPluginEntry() -> PluginEntry { PluginEntry(FailingPlugin.self) }
