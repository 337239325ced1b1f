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

    private let templates = Locked<[PerformRequest: Message]>([:])

    /// Templates kept now, for tests.
    var count: Int { templates.withLock { $0.count } }

    /// A ready call for `request`, not yet sent. A launch (once per host) is built afresh;
    /// every other call is a copy of the request's template, which already carries
    /// `launch` false: appending even one boolean to a copied body costs libdbus as much as
    /// building the call (it rewrites the header's signature field, ≈ 23,000 instructions).
    func message(for request: PerformRequest, launch: Bool) throws(DBusError) -> Message {
        if launch { return try Self.call(for: request, launch: true) }
        if let known = templates.withLock({ $0[request] }) { return try known.copy() }
        let made = try Self.call(for: request, launch: false)
        templates.withLock { templates in
            if templates.count >= Self.capacity { templates.removeAll() }
            templates[request] = made
        }
        return try made.copy()
    }

    /// Host1.Perform(item, request, launch).
    static func call(for request: PerformRequest, launch: Bool) throws(DBusError) -> Message {
        let message = try Message.methodCall(
            destination: nil, path: HostAPI.hostPath, interface: HostAPI.hostInterface, member: HostAPI.HostMember.perform)
        try message.append([
            HostItemCodec.encode(request.item),
            HostItemCodec.encodeRequest(
                resolvedIcon: request.resolvedIcon, arguments: request.arguments,
                activationToken: request.activationToken),
            .boolean(launch),
        ])
        return message
    }
}
