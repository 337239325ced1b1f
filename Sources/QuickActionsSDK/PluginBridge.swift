import CQuickActionsPlugin
import FoundationEssentials
import QuickActionsABI

/// The descriptor's C callbacks: they turn the host's calls into calls on
/// the plugin instance, and its C values into the model's.
enum PluginBridge {
    static let initialize: @convention(c) (
        UnsafePointer<qa_plugin>?, UnsafePointer<qa_host>?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
        UnsafeMutablePointer<CChar>?, Int
    ) -> qa_status = { descriptor, table, state, errorBuffer, errorSize in
        guard let descriptor, let table, let state else {
            CStrings.write("init called with a NULL argument", into: errorBuffer, size: errorSize)
            return QA_STATUS_INVALID
        }
        let host = PluginHost(table: HostTableReference(pointer: table))
        do {
            let plugin = try DescriptorRegistry.factory(of: descriptor).make(host)
            // Retained for good: a plugin is never unloaded and has no deinit callback.
            state.pointee = Unmanaged.passRetained(PluginInstance(plugin: plugin, host: host)).toOpaque()
            return QA_STATUS_OK
        } catch {
            let text = (error as? any LocalizedError)?.errorDescription ?? String(describing: error)
            CStrings.write(text, into: errorBuffer, size: errorSize)
            return QA_STATUS_FAILED
        }
    }

    static let launch: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<qa_request>?, qa_completion) -> Bool = {
        state, request, id in
        guard let instance = PluginInstance.from(state) else { return false }
        let completion = instance.host.completion(for: id)
        guard let kept = instance.action(from: request, completion: completion) else {
            return true  // completed with the reason; do not call perform
        }
        return withExtendedLifetime(kept) {
            instance.plugin.didFinishLaunching(with: kept.action, completion: completion) == .handled
        }
    }

    static let perform: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<qa_request>?, qa_completion) -> Void = {
        state, request, id in
        guard let instance = PluginInstance.from(state) else { return }
        let completion = instance.host.completion(for: id)
        guard let kept = instance.action(from: request, completion: completion) else { return }
        // Kept alive across the call, so the action is lent to the plugin, not copied for it.
        withExtendedLifetime(kept) { instance.plugin.perform(kept.action, completion: completion) }
    }

    static let willResign: @convention(c) (UnsafeMutableRawPointer?) -> Void = { state in
        PluginInstance.from(state)?.plugin.willResignActive()
    }
}

/// The plugin instance and its host handle, behind the state pointer.
final class PluginInstance: @unchecked Sendable {
    // @unchecked: `plugin` and `actions` are only touched from the callbacks, which the host
    // calls on the plugin's serial queue, one at a time.
    let plugin: any QuickActionsPlugin
    let host: PluginHost
    /// The actions of the requests seen lately, by request id.
    private var actions = ActionCache()

    init(plugin: any QuickActionsPlugin, host: PluginHost) {
        self.plugin = plugin
        self.host = host
    }

    static func from(_ state: UnsafeMutableRawPointer?) -> PluginInstance? {
        guard let state else { return nil }
        return Unmanaged<PluginInstance>.fromOpaque(state).takeUnretainedValue()
    }

    /// Reads a request; if it is malformed, completes it with the reason and returns nil.
    func action(
        from request: UnsafePointer<qa_request>?, completion: @Sendable (ActionResult) -> Void
    ) -> ActionCache.Kept? {
        do throws(ABIDecodingError) {
            return try actions.kept(from: request)
        } catch {
            host.log("cannot read the request: \(error.message)", level: .error)
            completion(.failure("the plugin could not read the request: \(error.message)"))
            return nil
        }
    }
}
