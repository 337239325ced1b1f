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

    private var actions: [UInt64: Kept] = [:]
    /// The last request answered, checked before the table: a plugin's calls mostly repeat
    /// one item, and hashing the id costs more than comparing it.
    private var last: (id: UInt64, kept: Kept)?
    /// Requests decoded so far (not answered from the cache), for tests.
    package private(set) var decodes = 0

    package init() {}

    /// `qa_request` up to and including `activation_token`: what hosts of ABI 1.0 to 1.2 hand over.
    package static let requestSizeOfABI10 = MemoryLayout<qa_request>.offset(of: \qa_request.activation_token).map {
        $0 + MemoryLayout<UnsafePointer<CChar>?>.size
    } ?? MemoryLayout<qa_request>.size

    /// Where `request_id` (ABI 1.3) sits, and the struct_size that covers it.
    private static let requestIDOffset = MemoryLayout<qa_request>.offset(of: \qa_request.request_id) ?? MemoryLayout<qa_request>.size
    private static let requestSizeWithID = requestIDOffset + MemoryLayout<UInt64>.size

    /// A decoded action, handed to the plugin from where it is kept: copying the action out
    /// (a retain and a release for each of its strings and dictionaries) cost about as much
    /// as finding it.
    package final class Kept: Sendable {
        package let action: ShortcutAction
        init(_ action: ShortcutAction) { self.action = action }
    }

    /// The action `request` stands for (see ``kept(from:)``).
    package mutating func action(from request: UnsafePointer<qa_request>?) throws(ABIDecodingError) -> ShortcutAction {
        try kept(from: request).action
    }

    /// The action `request` stands for: the one kept for its id, or decoded (and kept when
    /// the id is nonzero).
    package mutating func kept(from request: UnsafePointer<qa_request>?) throws(ABIDecodingError) -> Kept {
        guard let request else { throw ABIDecodingError("request is NULL") }
        // Read struct_size alone first: never past it (an older host's request ends before
        // request_id), never past the fields known here (a newer host's may carry more).
        let size = SizedStruct.size(at: request)
        guard size >= Self.requestSizeOfABI10 else {
            throw ABIDecodingError(
                "request: struct_size \(size) is smaller than ABI 1.0's qa_request (\(Self.requestSizeOfABI10) bytes)")
        }
        let id = size >= Self.requestSizeWithID
            ? UnsafeRawPointer(request).load(fromByteOffset: Self.requestIDOffset, as: UInt64.self) : 0
        if id != 0 {
            if let last, last.id == id { return last.kept }
            if let known = actions[id] {
                last = (id, known)
                return known
            }
        }
        let kept = Kept(try Self.decode(SizedStruct.copy(from: request, size: size, over: qa_request())))
        decodes += 1
        if id != 0 {
            if actions.count >= Self.capacity { actions.removeAll(keepingCapacity: true) }
            actions[id] = kept
            last = (id, kept)
        }
        return kept
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
