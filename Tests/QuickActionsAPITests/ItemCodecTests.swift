import DBus
import QuickActionsAPI
import Testing

/// The item codec: what the broker encodes, the CLI and the bridges decode, field for field.
@Suite struct ItemCodecTests {
    static let userInfo = Value.dictionary(key: .string, value: .variant, [
        DictionaryEntry(.string("Name"), .variant(.string("Ada"))),
    ])

    @Test(arguments: [
        (subtitle: String?.none, icon: String?.none),
        (subtitle: "Sub", icon: nil),
        (subtitle: nil, icon: "document-new"),
        (subtitle: "Sub", icon: "/b/icon.png"),
    ])
    func anEncodedItemDecodesToTheSameFields(subtitle: String?, icon: String?) throws {
        let value = ListedItem.encode(
            id: "fav#0123456789abcdef", type: "fav", title: "Ada", subtitle: subtitle, icon: icon,
            userInfo: Self.userInfo, origin: ItemKey.Origin.dynamic)
        let item = try ListedItem(decoding: value, app: "org.example")
        #expect(item.id == "fav#0123456789abcdef")
        #expect(item.type == "fav")
        #expect(item.title == "Ada")
        #expect(item.subtitle == subtitle)
        #expect(item.icon == icon)
        #expect(item.userInfo == Self.userInfo)
        #expect(item.origin == "dynamic")
        #expect(item.raw == value)
        #expect(value.type.signature == "a{sv}")
    }

    @Test func anItemFromABrokerWithoutIdsTakesItsTypeAsId() throws {
        let value = Value.dictionary(key: .string, value: .variant, [
            DictionaryEntry(.string("type"), .variant(.string("compose"))),
            DictionaryEntry(.string("title"), .variant(.string("Compose"))),
        ])
        let item = try ListedItem(decoding: value, app: "org.example")
        #expect(item.id == "compose")
        #expect(item.userInfo == .dictionary(key: .string, value: .variant, []))
    }

    @Test(arguments: [
        (Value.string("x"), "is s, not a{sv}"),
        (Value.dictionary(key: .string, value: .variant, [
            DictionaryEntry(.string("type"), .variant(.uint32(1))),
            DictionaryEntry(.string("title"), .variant(.string("T"))),
        ]), "has no string \"type\" and \"title\""),
    ])
    func aMalformedItemIsRefusedSayingWhy(value: Value, expected: String) {
        #expect {
            _ = try ListedItem(decoding: value, app: "org.example")
        } throws: { error in
            (error as? APIDecodingError)?.message.contains(expected) == true
                && (error as? APIDecodingError)?.message.contains("org.example") == true
        }
    }

    @Test func appPathsEscapeTheAppId() {
        #expect(BrokerAPI.appPath("org.example.contacts").rawValue
                == "/org/quickactions/Broker1/apps/org_2eexample_2econtacts")
    }
}
