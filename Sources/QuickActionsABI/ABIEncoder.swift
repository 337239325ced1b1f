import CQuickActionsPlugin
import QuickActionsModel

/// Writes the model's items and values as the C ABI's structs, in memory
/// owned by a ``CArena``. Used by the host for requests and by the SDK for
/// `set_dynamic_items`.
///
/// Dictionary entries are written sorted by key, so the C side sees a
/// deterministic order.
package struct ABIEncoder {
    private let arena: CArena

    package init(arena: CArena) {
        self.arena = arena
    }

    /// A `qa_item` with `struct_size` set to this ABI's size.
    package func item(_ item: ShortcutItem) -> UnsafePointer<qa_item> {
        let pointer = arena.allocate(qa_item.self, count: 1)
        var raw = qa_item()
        raw.struct_size = MemoryLayout<qa_item>.size
        raw.type = arena.string(item.type)
        raw.title = arena.string(item.title)
        raw.subtitle = item.subtitle.map(arena.string)
        switch item.icon {
        case nil:
            raw.icon_kind = QA_ICON_NONE
        case .type(let type):
            raw.icon_kind = QA_ICON_TYPE
            raw.icon = arena.string(type.rawValue)
        case .symbol(let name):
            raw.icon_kind = QA_ICON_SYMBOL
            raw.icon = arena.string(name)
        case .file(let path):
            raw.icon_kind = QA_ICON_FILE
            raw.icon = arena.string(path)
        }
        raw.user_info = dictionary(item.userInfo)
        raw.id = item.id.map(arena.string)
        pointer.initialize(to: raw)
        return UnsafePointer(pointer)
    }

    /// The pointer list `set_dynamic_items` takes.
    package func itemList(_ items: [ShortcutItem]) -> UnsafePointer<UnsafePointer<qa_item>?> {
        let list = arena.allocate(UnsafePointer<qa_item>?.self, count: items.count)
        for (index, item) in items.enumerated() {
            list[index] = self.item(item)
        }
        return UnsafePointer(list)
    }

    /// A `qa_request` for `item` with the caller's data; `requestID` (ABI 1.3) is the identity
    /// of exactly this content, or 0 for none (see the header's `request_id`).
    package func request(
        item: ShortcutItem, resolvedIcon: String?, arguments: UserInfo, activationToken: String?,
        requestID: UInt64 = 0
    ) -> UnsafePointer<qa_request> {
        let pointer = arena.allocate(qa_request.self, count: 1)
        var raw = qa_request()
        raw.struct_size = MemoryLayout<qa_request>.size
        raw.item = self.item(item)
        raw.resolved_icon = resolvedIcon.map(arena.string)
        raw.arguments = dictionary(arguments)
        raw.activation_token = activationToken.map(arena.string)
        raw.request_id = requestID
        pointer.initialize(to: raw)
        return UnsafePointer(pointer)
    }

    package func dictionary(_ info: UserInfo) -> qa_dictionary {
        guard !info.isEmpty else { return qa_dictionary(entries: nil, count: 0) }
        let entries = arena.allocate(qa_entry.self, count: info.count)
        for (index, key) in info.keys.sorted().enumerated() {
            // The key comes from iterating the dictionary, so the lookup cannot miss.
            let value = info[key].map(self.value) ?? qa_value()
            entries[index] = qa_entry(key: arena.string(key), value: value)
        }
        return qa_dictionary(entries: entries, count: info.count)
    }

    package func value(_ value: UserInfoValue) -> qa_value {
        var raw = qa_value()
        switch value {
        case .string(let text):
            raw.kind = QA_VALUE_STRING
            raw.u.string = arena.string(text)
        case .bool(let flag):
            raw.kind = QA_VALUE_BOOL
            raw.u.boolean = flag
        case .int(let number):
            raw.kind = QA_VALUE_INT
            raw.u.integer = number
        case .double(let number):
            raw.kind = QA_VALUE_DOUBLE
            raw.u.real = number
        case .bytes(let bytes):
            raw.kind = QA_VALUE_BYTES
            let storage = arena.allocate(UInt8.self, count: bytes.count)
            storage.update(from: bytes, count: bytes.count)
            raw.u.bytes = qa_bytes(data: storage, length: bytes.count)
        case .array(let values):
            raw.kind = QA_VALUE_ARRAY
            let items = arena.allocate(qa_value.self, count: values.count)
            for (index, element) in values.enumerated() {
                items[index] = self.value(element)
            }
            raw.u.array = qa_array(items: items, count: values.count)
        case .dictionary(let entries):
            raw.kind = QA_VALUE_DICTIONARY
            raw.u.dictionary = dictionary(entries)
        }
        return raw
    }
}
