import CQuickActionsPlugin
import QuickActionsABI

/// The limits the broker enforces on dynamic items, as its host table
/// (`qa_host.limits`, ABI 1.2) gives them at run time: size a list by these,
/// not by figures compiled into the plugin, since a newer broker may differ.
/// Sizes are UTF-8 bytes; ``PluginHost/setShortcutItems(_:)`` refuses a list
/// past them with ``ShortcutItemsError/rejected(_:)``.
public struct HostLimits: Sendable, Hashable {
    /// Dynamic items per app.
    public var maximumItems: Int
    /// An item's type: non-empty and at most this many bytes.
    public var maximumTypeBytes: Int
    /// An item's id, when given: non-empty and at most this many bytes.
    public var maximumIDBytes: Int
    /// An item's title: non-empty and at most this many bytes.
    public var maximumTitleBytes: Int
    /// An item's subtitle: at most this many bytes.
    public var maximumSubtitleBytes: Int
    /// A symbol name or icon file path: at most this many bytes.
    public var maximumIconBytes: Int
    /// An item's user info, in the broker's store encoding.
    public var maximumUserInfoBytes: Int
    /// An item's user info nesting, the dictionary itself counting as level 1
    /// (so `["a": 1]` is 2 levels deep).
    public var maximumUserInfoDepth: Int

    /// Reads a `qa_limits` as far as its `struct_size` goes (a field it lacks reads as 0).
    init(reading pointer: UnsafePointer<qa_limits>) {
        let raw = SizedStruct.copy(from: pointer, size: SizedStruct.size(at: pointer), over: qa_limits())
        maximumItems = Int(raw.max_items)
        maximumTypeBytes = Int(raw.max_type_bytes)
        maximumIDBytes = Int(raw.max_id_bytes)
        maximumTitleBytes = Int(raw.max_title_bytes)
        maximumSubtitleBytes = Int(raw.max_subtitle_bytes)
        maximumIconBytes = Int(raw.max_icon_bytes)
        maximumUserInfoBytes = Int(raw.max_user_info_bytes)
        maximumUserInfoDepth = Int(raw.max_user_info_depth)
    }
}
