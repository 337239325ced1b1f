import CQuickActionsPlugin
import QuickActionsABI

/// Reads the host's `qa_request`s into ``ShortcutAction``s, keeping the last few by the
/// request's `request_id` (ABI 1.3).
///
/// Decoding a whole request (the item with its strings, icon and user info; the arguments;
/// the token; the resolved icon) cost a Swift plugin about 15,000 instructions per Perform
/// (callgrind), more than the rest of the plugin's side of a call. A host of 1.3 or later
/// gives a request it hands over again the same nonzero id, which promises the same content
/// for the life of the process, so the action decoded for an id is the action for every
/// later request with it. An id of 0, or a host older than 1.3 (its `struct_size` stops
/// before the field), means no identity: every such request is decoded afresh.
///
/// Not thread-safe: the SDK touches it only from the plugin's callbacks, which the host calls
/// on the plugin's serial queue, one at a time.
package struct ActionCache {
    /// How many actions are kept; when full it starts over. The broker and the host keep at
    /// most 64 prepared requests per app, and a plugin's hot items are far fewer.
    package static let capacity = 32

    private var actions: [UInt64: ShortcutAction] = [:]
    /// Requests decoded so far (not answered from the cache), for tests.
    package private(set) var decodes = 0

    package init() {}

    /// `qa_request` up to and including `activation_token`: what hosts of ABI 1.0 to 1.2 hand over.
    package static let requestSizeOfABI10 = MemoryLayout<qa_request>.offset(of: \qa_request.activation_token).map {
        $0 + MemoryLayout<UnsafePointer<CChar>?>.size
    } ?? MemoryLayout<qa_request>.size

    /// The action `request` stands for: the one kept for its id, or decoded (and kept when
    /// the id is nonzero).
    package mutating func action(from request: UnsafePointer<qa_request>?) throws(ABIDecodingError) -> ShortcutAction {
        guard let request else { throw ABIDecodingError("request is NULL") }
        // Read struct_size alone first: never past it (an older host's request ends before
        // request_id), never past the fields known here (a newer host's may carry more).
        let size = SizedStruct.size(at: request)
        guard size >= Self.requestSizeOfABI10 else {
            throw ABIDecodingError(
                "request: struct_size \(size) is smaller than ABI 1.0's qa_request (\(Self.requestSizeOfABI10) bytes)")
        }
        let raw = SizedStruct.copy(from: request, size: size, over: qa_request())
        let id = raw.request_id
        if id != 0, let known = actions[id] { return known }
        let action = try Self.decode(raw)
        decodes += 1
        if id != 0 {
            if actions.count >= Self.capacity { actions.removeAll(keepingCapacity: true) }
            actions[id] = action
        }
        return action
    }

    private static func decode(_ raw: qa_request) throws(ABIDecodingError) -> ShortcutAction {
        var decoder = ABIDecoder()
        let item = try decoder.item(raw.item, label: "request item")
        let arguments = try decoder.dictionary(raw.arguments, at: "request arguments")
        let token = try raw.activation_token.map { (p) throws(ABIDecodingError) in
            try decoder.string(p, at: "request activation token")
        }
        let icon = try raw.resolved_icon.map { (p) throws(ABIDecodingError) in
            try decoder.string(p, at: "request resolved icon")
        }
        return ShortcutAction(item: item, arguments: arguments, activationToken: token, resolvedIcon: icon)
    }
}
