import CQuickActionsPlugin
import QuickActionsABI
import QuickActionsModel
import Synchronization

/// One perform-action request, as the plugin receives it.
public struct PerformRequest: Sendable, Hashable {
    /// The item, its title and subtitle already localised for the caller.
    public var item: ShortcutItem
    /// The icon as clients see it (a freedesktop icon name or an absolute path), if any.
    public var resolvedIcon: String?
    /// Caller data (the D-Bus `arguments` option).
    public var arguments: UserInfo
    /// The caller's XDG activation token, if any.
    public var activationToken: String?

    public init(item: ShortcutItem, resolvedIcon: String? = nil, arguments: UserInfo = [:], activationToken: String? = nil) {
        self.item = item
        self.resolvedIcon = resolvedIcon
        self.arguments = arguments
        self.activationToken = activationToken
    }
}

/// What a plugin's completion said.
public struct PerformOutcome: Sendable, Hashable {
    public var success: Bool
    /// The plugin's message, if it gave one.
    public var message: String?

    public init(success: Bool, message: String? = nil) {
        self.success = success
        self.message = message
    }
}

/// A request encoded once into the C ABI's `qa_request`, for a host that sends the same
/// request many times (a Perform of the same item: the broker keys it, in process by the
/// request itself, for a host with the request's key): decoding the item and building its C
/// form cost a host more than the rest of a Perform. The C memory is the plugin's to read
/// during each call only (`const`, as the header says); it lives as long as this object.
///
/// Each prepared request carries an id of its own (`qa_request.request_id`, ABI 1.3), drawn
/// from one counter for the whole process and never reused, so a plugin may keep what it
/// derived from a request by that id: whatever this object was built from, no other
/// ``PreparedPerform`` of this process has its id.
public final class PreparedPerform: @unchecked Sendable {
    // @unchecked: `raw` and the arena are written once, in init, and only read afterwards.
    public let request: PerformRequest
    /// The id the plugin sees in `request_id`: nonzero, unique in this process.
    public let requestID: UInt64
    let raw: UnsafePointer<qa_request>
    private let arena: CArena

    /// The last id handed out; ids start at 1 (0 means "no identity" to a plugin).
    private static let lastID = Atomic<UInt64>(0)

    public init(_ request: PerformRequest) {
        self.request = request
        requestID = Self.lastID.add(1, ordering: .relaxed).newValue
        let arena = CArena()
        raw = ABIEncoder(arena: arena).request(
            item: request.item, resolvedIcon: request.resolvedIcon, arguments: request.arguments,
            activationToken: request.activationToken, requestID: requestID)
        self.arena = arena
    }
}
