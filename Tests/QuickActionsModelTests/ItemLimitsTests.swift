import Testing
@testable import QuickActionsModel

@Suite struct ItemLimitsTests {
    static func item(
        type: String = "t", title: String = "T", subtitle: String? = nil,
        icon: ShortcutIcon? = nil, userInfo: UserInfo = [:]
    ) -> ShortcutItem {
        ShortcutItem(type: type, title: title, subtitle: subtitle, icon: icon, userInfo: userInfo)
    }

    static func text(_ bytes: Int) -> String { String(repeating: "x", count: bytes) }

    @Test func sixtyFourItemsAreAllowedAndSixtyFiveAreNot() throws {
        try ItemLimits.validate(Array(repeating: Self.item(), count: 64))
        #expect(throws: ItemLimitError.tooManyItems(count: 65)) {
            try ItemLimits.validate(Array(repeating: Self.item(), count: 65))
        }
    }

    @Test(arguments: [
        (Self.item(type: text(255)), nil),
        (Self.item(type: text(256)), ItemLimitError.tooLarge(index: 1, field: .type, bytes: 256)),
        (Self.item(type: ""), .empty(index: 1, field: .type)),
        (Self.item(title: text(1024)), nil),
        (Self.item(title: text(1025)), .tooLarge(index: 1, field: .title, bytes: 1025)),
        (Self.item(title: ""), .empty(index: 1, field: .title)),
        (Self.item(subtitle: text(1024)), nil),
        (Self.item(subtitle: text(1025)), .tooLarge(index: 1, field: .subtitle, bytes: 1025)),
        (Self.item(subtitle: ""), nil),
        (Self.item(icon: .symbol(text(1024))), nil),
        (Self.item(icon: .file(text(1025))), .tooLarge(index: 1, field: .icon, bytes: 1025)),
        // Multi-byte text counts bytes, not characters: 512 × "é" is 1,024 bytes, 513 is 1,026.
        (Self.item(title: String(repeating: "é", count: 512)), nil),
        (Self.item(title: String(repeating: "é", count: 513)), .tooLarge(index: 1, field: .title, bytes: 1026)),
    ] as [(ShortcutItem, ItemLimitError?)])
    func textFieldsAtAndPastTheirLimits(_ item: ShortcutItem, _ expected: ItemLimitError?) {
        let items = [Self.item(), item]
        if let expected {
            #expect(throws: expected) { try ItemLimits.validate(items) }
        } else {
            #expect(throws: Never.self) { try ItemLimits.validate(items) }
        }
    }

    /// A user info whose encoded size is exactly `size` bytes: one key "k" with bytes.
    /// Dictionary header 5 + key 4+1 + bytes header 5 = 15 bytes of overhead.
    static func userInfo(encodedSize size: Int) -> UserInfo {
        ["k": .bytes(Array(repeating: 7, count: size - 15))]
    }

    @Test func userInfoSizeAtAndPastTheLimit() throws {
        let atLimit = Self.userInfo(encodedSize: ItemLimits.maximumUserInfoBytes)
        #expect(UserInfoValue.dictionary(atLimit).encodedSize == 65_536)
        try ItemLimits.validate([Self.item(userInfo: atLimit)])
        let pastLimit = Self.userInfo(encodedSize: ItemLimits.maximumUserInfoBytes + 1)
        #expect(throws: ItemLimitError.tooLarge(index: 0, field: .userInfo, bytes: 65_537)) {
            try ItemLimits.validate([Self.item(userInfo: pastLimit)])
        }
    }

    /// A user info `depth` levels deep, counting the user-info dictionary as level 1.
    static func userInfo(depth: Int) -> UserInfo {
        var value = UserInfoValue.int(1)
        for level in 0..<(depth - 2) {
            value = level % 2 == 0 ? .array([value]) : .dictionary(["d": value])
        }
        return ["k": value]
    }

    @Test func userInfoDepthAtAndPastTheLimit() throws {
        let limit = ItemLimits.maximumUserInfoDepth
        #expect(limit == 18)
        #expect(UserInfoValue.dictionary(Self.userInfo(depth: limit)).depth == limit)
        try ItemLimits.validate([Self.item(userInfo: Self.userInfo(depth: limit))])
        #expect(throws: ItemLimitError.tooDeep(index: 0, depth: limit + 1)) {
            try ItemLimits.validate([Self.item(userInfo: Self.userInfo(depth: limit + 1))])
        }
    }

    @Test func hostileDepthIsRefusedWithoutRecursion() {
        var value = UserInfoValue.bool(true)
        for _ in 0..<50_000 { value = .array([value]) }
        #expect(value.depth == 50_001)
        #expect(throws: ItemLimitError.tooDeep(index: 0, depth: ItemLimits.maximumUserInfoDepth + 1)) {
            try ItemLimits.validate([Self.item(userInfo: ["k": value])])
        }
        // Take the chain apart one level at a time: dropping it whole would recurse in deinit.
        while case .array(let children) = value, let child = children.first { value = child }
    }

    @Test func errorsNameTheIndexTheFieldAndTheSize() {
        let error = ItemLimitError.tooLarge(index: 3, field: .title, bytes: 2000)
        #expect(error.description == "item 3: title is 2000 bytes, more than 1024")
        #expect(ItemLimitError.tooManyItems(count: 70).description.contains("70 items"))
    }
}
