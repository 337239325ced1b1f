import QuickActionsHost
import QuickActionsModel
import Testing
@testable import QuickActionsBroker

/// The in-process broker's prepared requests (PreparedPerforms): one per exact content, with
/// its own request id, however alike two requests' hashed fields are.
@Suite struct PreparedPerformsTests {
    static let item = ShortcutItem(
        type: "compose", title: "New Message", subtitle: "to Anna", icon: .symbol("mail-send"),
        userInfo: ["to": .string("anna")], id: "compose-1")

    /// Pairs that differ in one field only: none shares a prepared request with the other.
    static let pairs: [(String, PerformRequest, PerformRequest)] = {
        var retitled = item
        retitled.title = "New Mail"
        var reinfo = item
        reinfo.userInfo = ["to": .string("bob")]
        var resubtitled = item
        resubtitled.subtitle = nil
        return [
            ("title", PerformRequest(item: item), PerformRequest(item: retitled)),
            ("user info", PerformRequest(item: item), PerformRequest(item: reinfo)),
            ("subtitle", PerformRequest(item: item), PerformRequest(item: resubtitled)),
            ("arguments of one entry each", PerformRequest(item: item, arguments: ["n": .int(1)]),
             PerformRequest(item: item, arguments: ["n": .int(2)])),
            ("tokens of one length", PerformRequest(item: item, activationToken: "tok-1"),
             PerformRequest(item: item, activationToken: "tok-2")),
            ("resolved icon", PerformRequest(item: item, resolvedIcon: "mail-send"),
             PerformRequest(item: item, resolvedIcon: "/icons/mail.png")),
        ]
    }()

    @Test("requests differing in one field get prepared requests of their own", arguments: pairs)
    func differentContentIsAnotherPreparedRequest(_ field: String, _ first: PerformRequest, _ second: PerformRequest) {
        let prepared = PreparedPerforms()
        let a = prepared.prepared(first)
        let b = prepared.prepared(second)
        #expect(a !== b, "\(field)")
        #expect(a.request == first && b.request == second, "\(field)")
        #expect(a.requestID != b.requestID && a.requestID != 0 && b.requestID != 0, "\(field)")
        // Asked again, interleaved: each its own, kept.
        #expect(prepared.prepared(first) === a, "\(field)")
        #expect(prepared.prepared(second) === b, "\(field)")
        #expect(prepared.count == 2)
    }

    @Test func moreRequestsThanItKeepsStartItOverAndNeverMixThemUp() {
        let prepared = PreparedPerforms()
        let requests = (0..<(PreparedPerforms.capacity + 6)).map {
            PerformRequest(item: Self.item, arguments: ["n": .int(Int64($0))])
        }
        var ids: Set<UInt64> = []
        for _ in 0..<2 {
            for request in requests {
                let made = prepared.prepared(request)
                #expect(made.request == request)
                ids.insert(made.requestID)
            }
            #expect(prepared.count <= PreparedPerforms.capacity)
        }
        // Dropped requests prepared again get new ids; an id never stands for two contents.
        #expect(ids.count >= requests.count)
    }
}
