import CQuickActionsPlugin
import QuickActionsABI
import QuickActionsSDK
import Testing

/// The SDK keeps decoded actions by `request_id` (ABI 1.3): only for a nonzero id, never
/// across ids, and not at all for a host that gives none.
@Suite struct ActionCacheTests {
    /// Requests as a host builds them, with their ids; the arena keeps their memory.
    struct Requests {
        let arena = CArena()

        func make(_ title: String, n: Int64, id: UInt64, token: String? = nil) -> UnsafePointer<qa_request> {
            ABIEncoder(arena: arena).request(
                item: ShortcutItem(type: "show", title: title, userInfo: ["n": .int(n)], id: "show"),
                resolvedIcon: "icon-\(title)", arguments: ["n": .int(n)], activationToken: token, requestID: id)
        }
    }

    static func expected(_ title: String, n: Int64, token: String? = nil) -> ShortcutAction {
        ShortcutAction(
            item: ShortcutItem(type: "show", title: title, userInfo: ["n": .int(n)], id: "show"),
            arguments: ["n": .int(n)], activationToken: token, resolvedIcon: "icon-\(title)")
    }

    @Test func interleavedIdsEachGiveTheirOwnActionAndAreDecodedOnce() throws {
        let requests = Requests()
        let ada = requests.make("Ada", n: 1, id: 7)
        let bob = requests.make("Bob", n: 2, id: 8, token: "token-b")
        // The same content under another id (a host that prepared it again) is another entry.
        let adaAgain = requests.make("Ada", n: 1, id: 9)
        var cache = ActionCache()
        for (request, action) in [(ada, Self.expected("Ada", n: 1)), (bob, Self.expected("Bob", n: 2, token: "token-b")),
                                  (ada, Self.expected("Ada", n: 1)), (adaAgain, Self.expected("Ada", n: 1)),
                                  (bob, Self.expected("Bob", n: 2, token: "token-b")), (ada, Self.expected("Ada", n: 1)),
                                  (ada, Self.expected("Ada", n: 1)), (bob, Self.expected("Bob", n: 2, token: "token-b"))] {
            #expect(try cache.action(from: request) == action)
        }
        #expect(cache.decodes == 3)
    }

    @Test func anIdOfZeroIsDecodedEveryTime() throws {
        let requests = Requests()
        var cache = ActionCache()
        // Two different requests both without identity: each read afresh, never mixed up.
        for (title, n) in [("Ada", Int64(1)), ("Bob", 2), ("Ada", 3)] {
            #expect(try cache.action(from: requests.make(title, n: n, id: 0)) == Self.expected(title, n: n))
        }
        #expect(cache.decodes == 3)
    }

    /// A host of ABI 1.0 to 1.2 hands over a shorter qa_request, without request_id: whatever
    /// lies past its struct_size is not read, so it is decoded every time.
    @Test func aRequestFromAHostOlderThan13IsDecodedEveryTime() throws {
        let requests = Requests()
        let old = UnsafeMutablePointer(mutating: requests.make("Ada", n: 1, id: 5))
        old.pointee.struct_size = ActionCache.requestSizeOfABI10
        var cache = ActionCache()
        #expect(try cache.action(from: old) == Self.expected("Ada", n: 1))
        // What an older host's memory holds there is not an id: the next request differs.
        let other = UnsafeMutablePointer(mutating: requests.make("Bob", n: 2, id: 5))
        other.pointee.struct_size = ActionCache.requestSizeOfABI10
        #expect(try cache.action(from: other) == Self.expected("Bob", n: 2))
        #expect(cache.decodes == 2)
    }

    @Test func aRequestSmallerThanABI10sIsRefusedNamingItsSize() {
        let requests = Requests()
        let short = UnsafeMutablePointer(mutating: requests.make("Ada", n: 1, id: 0))
        short.pointee.struct_size = 16
        var cache = ActionCache()
        #expect(throws: ABIDecodingError("request: struct_size 16 is smaller than ABI 1.0's qa_request (48 bytes)")) {
            try cache.action(from: short)
        }
    }

    @Test func moreIdsThanItKeepsStillGiveEachItsOwnAction() throws {
        let requests = Requests()
        let count = ActionCache.capacity + 5
        let list = (0..<count).map { requests.make("T\($0)", n: Int64($0), id: UInt64(100 + $0)) }
        var cache = ActionCache()
        for _ in 0..<2 {
            for (index, request) in list.enumerated() {
                #expect(try cache.action(from: request) == Self.expected("T\(index)", n: Int64(index)))
            }
        }
    }
}
