import DBus
import Locking
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
/// Keyed by the request itself, so a changed item, another locale or other arguments are
/// another entry and a cached call can never be stale. At most ``capacity`` entries: when
/// full it starts over (an app has at most a few dozen items).
final class HostPerformCalls: Sendable {
    static let capacity = 64

    private struct Templates {
        var calls: [PerformRequest: Message] = [:]
        /// The last request key handed out (Host1 request key "request-key"); never reused, so a host
        /// never sees one key with two requests, also across the hosts this app runs in turn.
        var lastKey: UInt64 = 0
    }

    private let templates = Locked(Templates())

    /// Templates kept now, for tests.
    var count: Int { templates.withLock { $0.calls.count } }

    /// A ready call for `request`, not yet sent. A launch (once per host) is built afresh;
    /// every other call is a copy of the request's template, which already carries
    /// `launch` false: appending even one boolean to a copied body costs libdbus as much as
    /// building the call (it rewrites the header's signature field, ≈ 23,000 instructions).
    func message(for request: PerformRequest, launch: Bool) throws(DBusError) -> Message {
        if launch { return try Self.call(for: request, launch: true, key: nil) }
        if let known = templates.withLock({ $0.calls[request] }) { return try known.copy() }
        let key = templates.withLock { templates in
            templates.lastKey += 1
            return templates.lastKey
        }
        // Keyed (protocol 1.1): the host decodes this request once, not on every copy.
        let made = try Self.call(for: request, launch: false, key: key)
        templates.withLock { templates in
            if templates.calls.count >= Self.capacity { templates.calls.removeAll() }
            templates.calls[request] = made
        }
        return try made.copy()
    }

    /// Host1.Perform(item, request, launch), the request's `key` first when given.
    static func call(for request: PerformRequest, launch: Bool, key: UInt64?) throws(DBusError) -> Message {
        let message = try Message.methodCall(
            destination: nil, path: HostAPI.hostPath, interface: HostAPI.hostInterface, member: HostAPI.HostMember.perform)
        var encodedRequest = HostItemCodec.encodeRequest(
            resolvedIcon: request.resolvedIcon, arguments: request.arguments, activationToken: request.activationToken)
        if let key, case .dictionary(let keyType, let valueType, let entries) = encodedRequest {
            encodedRequest = .dictionary(key: keyType, value: valueType,
                                         [DictionaryEntry(.string(HostAPI.RequestKey.key), .variant(.uint64(key)))] + entries)
        }
        try message.append([HostItemCodec.encode(request.item), encodedRequest, .boolean(launch)])
        return message
    }
}
