import QuickActionsHost

/// A request as a dictionary key, for the broker's per-request caches (``PreparedPerforms``,
/// ``HostPerformCalls``): equal only when the whole request is (exact content, so nothing
/// kept can be stale), hashed by a few cheap fields only. Hashing every string and the user
/// info of an item, as `PerformRequest`'s own `Hashable` does, cost about 1,500 instructions
/// per Perform (callgrind) for a table of at most 64 entries; requests that share those
/// fields (one item with other arguments of as many entries) share a bucket and are told
/// apart by equality.
struct RequestCacheKey: Hashable, Sendable {
    let request: PerformRequest

    init(_ request: PerformRequest) {
        self.request = request
    }

    static func == (lhs: RequestCacheKey, rhs: RequestCacheKey) -> Bool { lhs.request == rhs.request }

    func hash(into hasher: inout Hasher) {
        hasher.combine(request.item.id ?? request.item.type)
        hasher.combine(request.arguments.count)
        hasher.combine(request.activationToken?.utf8.count ?? -1)
    }
}
