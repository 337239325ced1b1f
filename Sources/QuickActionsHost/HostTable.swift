import CQuickActionsPlugin
import QuickActionsABI
import QuickActionsModel

/// Builds the `qa_host` table handed to a plugin's init: its functions are
/// C-callable closures that find their ``PluginHostContext`` through the
/// table's `context`.
///
/// The table carries this host's own ABI version, so a plugin built for a
/// newer minor knows which members exist, and the limits the broker enforces
/// (``ItemLimits``, ``ABIBounds``), so no plugin compiles in a copy of them.
///
/// The table, its limits and the context it retains are never freed: the
/// header promises the plugin they stay valid until the process exits, and a
/// plugin may keep them on its own threads.
enum HostTable {
    /// The `qa_limits` every table points to: ``ItemLimits`` and ``ABIBounds``, as enforced.
    static let limits: qa_limits = {
        let bounds = ABIBounds()
        var limits = qa_limits()
        limits.struct_size = MemoryLayout<qa_limits>.size
        limits.max_items = UInt32(ItemLimits.maximumItems)
        limits.max_type_bytes = UInt32(ItemLimits.maximumTypeBytes)
        limits.max_id_bytes = UInt32(ItemLimits.maximumIDBytes)
        limits.max_title_bytes = UInt32(ItemLimits.maximumTitleBytes)
        limits.max_subtitle_bytes = UInt32(ItemLimits.maximumSubtitleBytes)
        limits.max_icon_bytes = UInt32(ItemLimits.maximumIconBytes)
        limits.max_user_info_bytes = UInt32(ItemLimits.maximumUserInfoBytes)
        limits.max_user_info_depth = UInt32(ItemLimits.maximumUserInfoDepth)
        limits.call_max_depth = UInt32(bounds.maxDepth)
        limits.call_max_values = UInt32(bounds.maxValues)
        limits.call_max_payload_bytes = UInt32(bounds.maxPayloadBytes)
        limits.call_max_items = UInt32(bounds.maxItems)
        return limits
    }()

    static func make(for context: PluginHostContext) -> UnsafePointer<qa_host> {
        let table = UnsafeMutablePointer<qa_host>.allocate(capacity: 1)
        var host = qa_host()
        host.struct_size = MemoryLayout<qa_host>.size
        host.abi_major = ABIVersion.current.major
        host.abi_minor = ABIVersion.current.minor
        host.context = Unmanaged.passRetained(context).toOpaque()
        host.set_dynamic_items = { context, items, count, error, errorSize in
            guard let host = resolve(context) else { return QA_STATUS_INVALID }
            return host.setDynamicItems(items, count: count, errorBuffer: error, errorSize: errorSize)
        }
        host.log = { context, level, message in
            resolve(context)?.pluginLog(level: level, message: message)
        }
        host.app_id = { context in
            resolve(context).map { UnsafePointer($0.appIDCString) }
        }
        host.data_directory = { context in
            resolve(context)?.dataDirectoryCString()
        }
        host.complete = { context, completion, success, message in
            resolve(context)?.complete(completion, success: success, message: message)
        }
        host.get_dynamic_items = { context, visit, user in
            guard let host = resolve(context) else { return QA_STATUS_INVALID }
            return host.getDynamicItems(visit, user: user)
        }
        let limits = UnsafeMutablePointer<qa_limits>.allocate(capacity: 1)
        limits.initialize(to: Self.limits)
        host.limits = UnsafePointer(limits)
        table.initialize(to: host)
        return UnsafePointer(table)
    }
}

/// The context behind a table's `context` pointer. A NULL context (a plugin
/// passing the wrong pointer) makes the call a no-op instead of a crash.
private func resolve(_ context: UnsafeMutableRawPointer?) -> PluginHostContext? {
    guard let context else { return nil }
    return Unmanaged<PluginHostContext>.fromOpaque(context).takeUnretainedValue()
}
