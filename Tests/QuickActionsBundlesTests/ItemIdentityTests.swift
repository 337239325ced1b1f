@testable import QuickActionsBundles
@testable import QuickActionsModel
import Testing

/// Item ids: derived deterministically, unique within an app, given ones checked.
@Suite struct ItemIdentityTests {
    static func favorite(_ name: String, id: String? = nil) -> ShortcutItem {
        ShortcutItem(type: "FavoriteAction", title: name, userInfo: ["Name": .string(name)], id: id)
    }

    @Test func aDerivedIdDependsOnTypeAndUserInfoOnly() {
        let ada = ItemIdentity.derivedID(type: "FavoriteAction", userInfo: ["Name": .string("Ada")])
        #expect(ada == ItemIdentity.derivedID(type: "FavoriteAction", userInfo: ["Name": .string("Ada")]))
        #expect(ada.hasPrefix("FavoriteAction#"))
        #expect(ada.utf8.count == "FavoriteAction#".utf8.count + 16)
        #expect(ada != ItemIdentity.derivedID(type: "FavoriteAction", userInfo: ["Name": .string("Bob")]))
        #expect(ada != ItemIdentity.derivedID(type: "OtherAction", userInfo: ["Name": .string("Ada")]))
        // Types are kept exactly: the integer 1 and the string "1" are different user info.
        #expect(ItemIdentity.derivedID(type: "t", userInfo: ["n": .int(1)])
                != ItemIdentity.derivedID(type: "t", userInfo: ["n": .string("1")]))
    }

    /// The formula is part of the contract (ids are stable across broker versions too):
    /// FNV-1a 64 over the store's encoding of the type and the user info.
    @Test func aDerivedIdIsTheDocumentedHash() {
        var writer = Writer()
        writer.string("t")
        writer.value(.dictionary([:]))
        var hash: UInt64 = 14_695_981_039_346_656_037
        for byte in writer.bytes {
            hash = (hash ^ UInt64(byte)) &* 1_099_511_628_211
        }
        let hex = String(hash, radix: 16)
        #expect(ItemIdentity.derivedID(type: "t", userInfo: [:])
                == "t#" + String(repeating: "0", count: 16 - hex.count) + hex)
    }

    @Test func twoFavoritesThatDifferOnlyInUserInfoGetDifferentStableIds() throws {
        let list = [Self.favorite("Ada"), Self.favorite("Bob")]
        let first = try ItemIdentity.assign(list, staticIDs: [])
        let again = try ItemIdentity.assign(list, staticIDs: [])
        #expect(first.map(\.id) == again.map(\.id))
        #expect(Set(first.compactMap(\.id)).count == 2)
        // Republished in another order, each keeps its id.
        let reordered = try ItemIdentity.assign(list.reversed(), staticIDs: [])
        #expect(reordered.map(\.id) == first.reversed().map(\.id))
    }

    @Test func equalItemsWithoutIdsAreNumberedInListOrder() throws {
        let plain = ShortcutItem(type: "open", title: "Open")
        let assigned = try ItemIdentity.assign([plain, plain, plain], staticIDs: [])
        let base = ItemIdentity.derivedID(type: "open", userInfo: [:])
        #expect(assigned.map(\.id) == [base, base + "~2", base + "~3"])
    }

    @Test func aGivenIdIsKeptAndADerivedOneStepsAroundIt() throws {
        let base = ItemIdentity.derivedID(type: "open", userInfo: [:])
        let assigned = try ItemIdentity.assign(
            [ShortcutItem(type: "open", title: "Open"), ShortcutItem(type: "x", title: "X", id: base)], staticIDs: [])
        #expect(assigned.map(\.id) == [base + "~2", base])
    }

    @Test func twoEqualGivenIdsRefuseTheListNamingBothIndices() {
        let list = [Self.favorite("Ada", id: "a"), Self.favorite("Bob", id: "b"), Self.favorite("Cy", id: "a")]
        #expect(throws: ItemIdentityError.duplicate(first: 0, second: 2, id: "a")) {
            try ItemIdentity.assign(list, staticIDs: [])
        }
        #expect(ItemIdentityError.duplicate(first: 0, second: 2, id: "a").description.contains("items 0 and 2"))
    }

    @Test func aGivenIdThatIsAStaticItemsIsRefused() {
        #expect(throws: ItemIdentityError.takenByStaticItem(index: 1, id: "compose")) {
            try ItemIdentity.assign([Self.favorite("Ada"), Self.favorite("Bob", id: "compose")], staticIDs: ["compose"])
        }
    }

    @Test func assigningLeavesOutClashingItemsAndReportsThem() {
        let result = ItemIdentity.assigning(
            [Self.favorite("Ada", id: "compose"), Self.favorite("Bob")], staticIDs: ["compose"])
        #expect(result.items.map(\.title) == ["Bob"])
        #expect(result.refused == [.takenByStaticItem(index: 0, id: "compose")])
    }

    @Test func theStoreKeepsGivenIdsAndStillReadsVersionOneFiles() throws {
        let items = [Self.favorite("Ada", id: "contact-1"), Self.favorite("Bob")]
        let bytes = try DynamicItemCoder.encode(items)
        #expect(bytes[4...5] == [0, 2])
        #expect(try DynamicItemCoder.decode(bytes) == items)
        // A version 1 file (hand-made, as a broker before ids wrote it) reads without ids.
        var body = Writer()
        body.string("t")
        body.string("T")
        body.bytes += [0, 0]
        body.value(.dictionary(["Name": .string("Ada")]))
        let old = DynamicItemCoderTests.file(count: 1, body: body.bytes, version: 1)
        #expect(try DynamicItemCoder.decode(old) == [ShortcutItem(type: "t", title: "T", userInfo: ["Name": .string("Ada")])])
    }

    @Test(arguments: [("", "id is empty"), (String(repeating: "i", count: 256), "id is 256 bytes, more than 255")])
    func aGivenIdIsWithinTheLimits(id: String, message: String) {
        #expect {
            try ItemLimits.validate(ShortcutItem(type: "t", title: "T", id: id), index: 3)
        } throws: { error in
            "\(error)" == "item 3: \(message)"
        }
    }
}
