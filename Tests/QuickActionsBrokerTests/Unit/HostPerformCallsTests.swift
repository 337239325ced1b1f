import DBus
import QuickActionsAPI
import QuickActionsHost
import QuickActionsHostProtocol
import QuickActionsModel
import Testing
@testable import QuickActionsBroker

/// The broker's Perform calls to a plugin host, each request encoded once (HostPerformCalls).
@Suite struct HostPerformCallsTests {
    static let item = ShortcutItem(
        type: "compose", title: "New Message", subtitle: "to Anna", icon: .symbol("mail-send"),
        userInfo: ["to": .string("anna"), "n": .int(3)], id: "compose-1")

    static let requests: [PerformRequest] = [
        PerformRequest(item: item),
        PerformRequest(item: item, resolvedIcon: "mail-send", arguments: ["draft": .bool(true)], activationToken: "tok-1"),
        PerformRequest(item: ShortcutItem(type: "plain", title: "Plain")),
    ]

    /// What the host reads back from a call: item, request and launch flag, through the host's codec.
    static func decoded(_ message: Message) throws -> (item: ShortcutItem, resolvedIcon: String?, arguments: UserInfo, token: String?, launch: Bool?) {
        let values = try message.arguments()
        try #require(values.count == 3, "Perform has \(values.count) arguments: \(values)")
        let request = try HostItemCodec.decodeRequest(values[1])
        return (try HostItemCodec.decode(values[0], label: "item"), request.resolvedIcon, request.arguments,
                request.activationToken, values[2].bool)
    }

    @Test("a cached call carries the request and the launch flag exactly", arguments: requests, [false, true])
    func carriesTheRequest(request: PerformRequest, launch: Bool) throws {
        let calls = HostPerformCalls()
        // The first call builds the template, the second copies the cached one: both must say the same.
        for _ in 0..<2 {
            let message = try calls.message(for: request, launch: launch)
            #expect(message.path == HostAPI.hostPath)
            #expect(message.interface == HostAPI.hostInterface)
            #expect(message.member == HostAPI.HostMember.perform)
            #expect(message.signature == "a{sv}a{sv}b")
            let got = try Self.decoded(message)
            #expect(got.item == request.item)
            #expect(got.resolvedIcon == request.resolvedIcon)
            #expect(got.arguments == request.arguments)
            #expect(got.token == request.activationToken)
            #expect(got.launch == launch)
        }
        // A launch (once per host) is built afresh; every other call comes from the cache.
        #expect(calls.count == (launch ? 0 : 1))
    }

    @Test("each call is a fresh message, the template itself is never handed out")
    func callsAreCopies() throws {
        let calls = HostPerformCalls()
        let first = try calls.message(for: Self.requests[0], launch: false)
        let second = try calls.message(for: Self.requests[0], launch: false)
        let launch = try calls.message(for: Self.requests[0], launch: true)
        #expect(first !== second && second !== launch)
        #expect(first.serial == 0 && second.serial == 0 && launch.serial == 0)
        #expect(try Self.decoded(first).launch == false)
        #expect(try Self.decoded(second).launch == false)
        #expect(try Self.decoded(launch).launch == true)
    }

    @Test("another item, locale's title or argument is another entry, so a cached call is never stale")
    func changedRequestsAreNewEntries() throws {
        let calls = HostPerformCalls()
        var retitled = Self.requests[0]
        retitled.item.title = "Neue Nachricht"
        var argued = Self.requests[0]
        argued.arguments = ["x": .int(1)]
        for request in [Self.requests[0], retitled, argued] {
            let message = try calls.message(for: request, launch: false)
            #expect(try Self.decoded(message).item == request.item)
            #expect(try Self.decoded(message).arguments == request.arguments)
        }
        #expect(calls.count == 3)
    }

    @Test("the cache stays within its capacity")
    func bounded() throws {
        let calls = HostPerformCalls()
        for index in 0..<(HostPerformCalls.capacity * 2 + 3) {
            let request = PerformRequest(item: ShortcutItem(type: "t\(index)", title: "Item \(index)"))
            let message = try calls.message(for: request, launch: false)
            #expect(try Self.decoded(message).item.type == "t\(index)")
            #expect(calls.count <= HostPerformCalls.capacity)
        }
    }
}

/// Host1 request key "request-key" (protocol 1.1): one key per exact request, first in the request.
@Suite struct HostPerformCallKeyTests {
    /// The key a call's request leads with, as a host reads it.
    static func key(_ message: Message) throws -> UInt64? {
        var reader = MessageReader(message)
        try reader.skip()
        return try reader.leadingEntry(named: HostAPI.RequestKey.key).map { value throws -> UInt64 in
            try #require(value.uint64, "key is \(value)")
        }
    }

    @Test("a request keeps its key; another request gets another; a launch carries none")
    func keysFollowRequests() throws {
        let calls = HostPerformCalls()
        let requests = HostPerformCallsTests.requests
        var keys: [UInt64] = []
        for request in requests {
            let first = try #require(try Self.key(calls.message(for: request, launch: false)))
            #expect(try Self.key(calls.message(for: request, launch: false)) == first)
            #expect(try Self.key(calls.message(for: request, launch: true)) == nil)
            keys.append(first)
        }
        #expect(Set(keys).count == requests.count)
    }

    @Test("a key is never handed out twice, also once the cache started over")
    func keysAreNeverReused() throws {
        let calls = HostPerformCalls()
        var seen: [UInt64: String] = [:]
        for round in 0..<2 {
            for index in 0..<(HostPerformCalls.capacity + 5) {
                let request = PerformRequest(item: ShortcutItem(type: "t\(index)", title: "Item \(index) \(round)"))
                let key = try #require(try Self.key(calls.message(for: request, launch: false)))
                #expect(seen[key] == nil, "key \(key) was \(seen[key] ?? "") before")
                seen[key] = request.item.title
            }
        }
    }
}

/// Calls without the item for a host that keeps the request (protocol 1.1).
@Suite struct HostPerformCallItemLeftOutTests {
    static let request = HostPerformCallsTests.requests[1]

    static func itemIsEmpty(_ message: Message) throws -> Bool {
        let values = try message.arguments()
        guard case .dictionary(_, _, let entries) = values[0] else { return false }
        return entries.isEmpty
    }

    @Test("the item is left out only for the host generation that said it keeps the key, until forgotten")
    func leftOutForTheKeepingHostOnly() throws {
        let calls = HostPerformCalls()
        let first = try calls.call(for: Self.request, launch: false, host: 3, inFull: false)
        #expect(!first.itemLeftOut)
        #expect(try !Self.itemIsEmpty(first.message))
        let key = try #require(first.key)
        calls.kept(key, by: 3)
        let short = try calls.call(for: Self.request, launch: false, host: 3, inFull: false)
        #expect(short.itemLeftOut && short.key == key)
        #expect(try Self.itemIsEmpty(short.message))
        #expect(try HostPerformCallKeyTests.key(short.message) == key)
        // The rest of the request is still there.
        let request = try HostItemCodec.decodeRequest(try short.message.arguments()[1])
        #expect(request.resolvedIcon == Self.request.resolvedIcon && request.arguments == Self.request.arguments)
        #expect(try !Self.itemIsEmpty(calls.call(for: Self.request, launch: false, host: 3, inFull: true).message))
        #expect(try !calls.call(for: Self.request, launch: false, host: 4, inFull: false).itemLeftOut)
        #expect(try !calls.call(for: Self.request, launch: true, host: 3, inFull: false).itemLeftOut)
        calls.forget(key)
        #expect(try !calls.call(for: Self.request, launch: false, host: 3, inFull: false).itemLeftOut)
    }
}
