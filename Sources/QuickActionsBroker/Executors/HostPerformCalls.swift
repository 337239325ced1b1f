import DBus
import Locking
import Synchronization
import QuickActionsAPI
import QuickActionsHost
import QuickActionsHostProtocol

/// The Perform calls one app's plugin host gets (dbus/org.quickactions.Host1.xml), each
/// request encoded once.
///
/// Building the call cost more than the rest of the broker's forwarding: libdbus sets three
/// header fields and appends the item and the request entry by entry, after the values were
/// validated (callgrind, C plugin with a message: the broker's 307,000 instructions per
/// forwarded Perform fell to 206,000 with this cache; BENCHMARKS.md, issue 14). A request
/// repeats as long as its item does (same snapshot, same locale, no per-call arguments), so
/// the whole call is kept as a template that is never sent, and each Perform sends a copy of
/// it (`dbus_message_copy`, a memcpy of header and body, ≈ 1,000 instructions).
///
/// Keyed by the request itself (``RequestCacheKey``), so a changed item, another locale or
/// other arguments are another entry and a cached call can never be stale. At most
/// ``capacity`` entries: when full it starts over (an app has at most a few dozen items).
final class HostPerformCalls: Sendable {
    static let capacity = 64

    /// One request's calls: in full, and with the item left out for a host that keeps its key.
    final class Template: Sendable {
        let key: UInt64
        let full: Message
        let itemLeftOut: Message
        /// The host generation that said it keeps the key (Host1 result "kept-request-key"),
        /// or -1: only that host is sent the call without the item.
        let keptBy = Atomic<Int>(-1)

        init(key: UInt64, full: Message, itemLeftOut: Message) {
            self.key = key
            self.full = full
            self.itemLeftOut = itemLeftOut
        }
    }

    /// A call ready to send, and what it carries.
    struct Call {
        let message: Message
        /// Its request key, if any (none for a launch).
        let key: UInt64?
        /// Whether the item was left out (the host said it keeps the key).
        let itemLeftOut: Bool
    }

    private struct Templates {
        var calls: [RequestCacheKey: Template] = [:]
        var byKey: [UInt64: Template] = [:]
        /// The last request key handed out (Host1 request key "request-key"); never reused, so a host
        /// never sees one key with two requests, also across the hosts this app runs in turn.
        var lastKey: UInt64 = 0
    }

    private let templates = Locked(Templates())

    /// Templates kept now, for tests.
    var count: Int { templates.withLock { $0.calls.count } }

    /// The full call for `request` (see ``call(for:launch:host:inFull:)``).
    func message(for request: PerformRequest, launch: Bool) throws(DBusError) -> Message {
        try call(for: request, launch: launch, host: nil, inFull: true).message
    }

    /// A ready call for `request`, not yet sent, to the host of generation `host`. A launch
    /// (once per host) is built afresh; every other call is a copy of the request's template,
    /// which already carries `launch` false: appending even one boolean to a copied body costs
    /// libdbus as much as building the call (it rewrites the header's signature field,
    /// ≈ 23,000 instructions). The item is left out when that host said it keeps the request's
    /// key, unless `inFull`.
    func call(for request: PerformRequest, launch: Bool, host: Int?, inFull: Bool) throws(DBusError) -> Call {
        if launch { return Call(message: try Self.call(for: request, launch: true, key: nil), key: nil, itemLeftOut: false) }
        let template: Template
        let requestKey = RequestCacheKey(request)
        if let known = templates.withLock({ $0.calls[requestKey] }) {
            template = known
        } else {
            let key = templates.withLock { templates in
                templates.lastKey += 1
                return templates.lastKey
            }
            // Keyed (protocol 1.1): the host decodes this request once, not on every copy.
            template = Template(
                key: key, full: try Self.call(for: request, launch: false, key: key),
                itemLeftOut: try Self.call(for: request, launch: false, key: key, leavingOutItem: true))
            templates.withLock { templates in
                if templates.calls.count >= Self.capacity {
                    templates.calls.removeAll()
                    templates.byKey.removeAll()
                }
                templates.calls[requestKey] = template
                templates.byKey[key] = template
            }
        }
        let leaveOut = !inFull && host != nil && template.keptBy.load(ordering: .relaxed) == host
        return Call(message: try (leaveOut ? template.itemLeftOut : template.full).copy(), key: template.key,
                    itemLeftOut: leaveOut)
    }

    /// The host of generation `host` said it keeps `key`'s request.
    func kept(_ key: UInt64, by host: Int) {
        templates.withLock { $0.byKey[key] }?.keptBy.store(host, ordering: .relaxed)
    }

    /// The host said it does not keep `key` (any more): send it the item again.
    func forget(_ key: UInt64) {
        templates.withLock { $0.byKey[key] }?.keptBy.store(-1, ordering: .relaxed)
    }

    /// Host1.Perform(item, request, launch), the request's `key` first when given; an empty item
    /// when `leavingOutItem`.
    static func call(
        for request: PerformRequest, launch: Bool, key: UInt64?, leavingOutItem: Bool = false
    ) throws(DBusError) -> Message {
        let message = try Message.methodCall(
            destination: nil, path: HostAPI.hostPath, interface: HostAPI.hostInterface, member: HostAPI.HostMember.perform)
        var encodedRequest = HostItemCodec.encodeRequest(
            resolvedIcon: request.resolvedIcon, arguments: request.arguments, activationToken: request.activationToken)
        if let key, case .dictionary(let keyType, let valueType, let entries) = encodedRequest {
            encodedRequest = .dictionary(key: keyType, value: valueType,
                                         [DictionaryEntry(.string(HostAPI.RequestKey.key), .variant(.uint64(key)))] + entries)
        }
        let item = leavingOutItem ? Value.dictionary(key: .string, value: .variant, []) : HostItemCodec.encode(request.item)
        try message.append([item, encodedRequest, .boolean(launch)])
        return message
    }
}
