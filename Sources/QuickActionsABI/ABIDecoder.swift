import CQuickActionsPlugin
import Glibc
import QuickActionsModel

/// Reads items and values handed across the C ABI into the model's types,
/// trusting nothing: every pointer is checked for NULL, every string for
/// UTF-8, every kind and `struct_size` against the header, and the whole call
/// against ``ABIBounds``. Value trees are walked with an explicit stack, so
/// hostile nesting cannot overflow the thread's stack.
///
/// One decoder serves one call: its budgets (values, payload bytes) add up
/// over everything it decodes.
package struct ABIDecoder {
    private let bounds: ABIBounds
    private var values = 0
    private var payloadBytes = 0

    package init(bounds: ABIBounds = ABIBounds()) {
        self.bounds = bounds
    }

    /// Reads the list passed to `set_dynamic_items`.
    package mutating func items(
        _ list: UnsafePointer<UnsafePointer<qa_item>?>?, count: Int
    ) throws(ABIDecodingError) -> [ShortcutItem] {
        guard count > 0 else { return [] }
        guard count <= bounds.maxItems else {
            throw ABIDecodingError("\(count) items are more than the ABI's bound of \(bounds.maxItems)")
        }
        guard let list else { throw ABIDecodingError("items is NULL but count is \(count)") }
        var result: [ShortcutItem] = []
        result.reserveCapacity(count)
        for index in 0..<count {
            result.append(try item(list[index], label: "item \(index)"))
        }
        return result
    }

    /// Reads one `qa_item`; `label` prefixes error messages ("item 3", "request item").
    package mutating func item(_ pointer: UnsafePointer<qa_item>?, label: String) throws(ABIDecodingError) -> ShortcutItem {
        guard let pointer else { throw ABIDecodingError("\(label) is NULL") }
        // Read struct_size alone first: a struct smaller than ABI 1.0's must not be read whole.
        // Only the bytes both it and this ABI cover are copied: a 1.0 plugin's struct ends
        // before `id`, a newer minor's carries fields past ours that are never read.
        let size = SizedStruct.size(at: pointer)
        guard size >= Self.itemSizeOfABI10 else {
            throw ABIDecodingError(
                "\(label): struct_size \(size) is smaller than ABI 1.0's qa_item (\(Self.itemSizeOfABI10) bytes)")
        }
        let raw = SizedStruct.copy(from: pointer, size: size, over: qa_item())
        let type = try string(raw.type, at: "\(label): type")
        let labelled = "\(label) (\"\(type)\")"
        let title = try string(raw.title, at: "\(labelled): title")
        let subtitle = try raw.subtitle.map { (s) throws(ABIDecodingError) in try string(s, at: "\(labelled): subtitle") }
        let icon = try self.icon(kind: raw.icon_kind, name: raw.icon, at: "\(labelled): icon")
        let userInfo = try dictionary(raw.user_info, at: "\(labelled): user info")
        let id = try raw.id.map { (s) throws(ABIDecodingError) in try string(s, at: "\(labelled): id") }
        return ShortcutItem(type: type, title: title, subtitle: subtitle, icon: icon, userInfo: userInfo, id: id)
    }

    /// The size of ABI 1.0's `qa_item`: every field up to and including `user_info`.
    package static let itemSizeOfABI10 = MemoryLayout<qa_item>.offset(of: \qa_item.user_info).map {
        $0 + MemoryLayout<qa_dictionary>.size
    } ?? MemoryLayout<qa_item>.size

    private mutating func icon(
        kind: Int32, name: UnsafePointer<CChar>?, at path: String
    ) throws(ABIDecodingError) -> ShortcutIcon? {
        switch kind {
        case QA_ICON_NONE:
            return nil
        case QA_ICON_TYPE:
            let text = try string(name, at: path)
            guard let type = ShortcutIconType(rawValue: text) else {
                throw ABIDecodingError("\(path): unknown icon type \"\(text)\"")
            }
            return .type(type)
        case QA_ICON_SYMBOL:
            return .symbol(try string(name, at: path))
        case QA_ICON_FILE:
            return .file(try string(name, at: path))
        default:
            throw ABIDecodingError("\(path): unknown icon_kind \(kind)")
        }
    }

    /// Reads a NUL-terminated UTF-8 string; NULL and invalid UTF-8 are errors.
    package mutating func string(_ pointer: UnsafePointer<CChar>?, at path: String) throws(ABIDecodingError) -> String {
        guard let pointer else { throw ABIDecodingError("\(path) is NULL") }
        let budget = bounds.maxPayloadBytes - payloadBytes
        // strnlen bounds the scan of an unterminated string by the remaining budget.
        let length = strnlen(pointer, budget + 1)
        guard length <= budget else {
            throw ABIDecodingError("\(path): strings and bytes exceed the ABI's bound of \(bounds.maxPayloadBytes) bytes")
        }
        payloadBytes += length
        let bytes = UnsafeRawBufferPointer(start: pointer, count: length).bindMemory(to: UInt8.self)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw ABIDecodingError("\(path) is not valid UTF-8")
        }
        return text
    }

    /// Reads a dictionary (an item's user info or a request's arguments).
    package mutating func dictionary(_ root: qa_dictionary, at path: String) throws(ABIDecodingError) -> UserInfo {
        try checkContainer(root.entries, count: root.count, at: path)
        var stack = [Frame(dictionary: root, label: path)]
        // Only ever index into `stack`: a copy of a frame would make every
        // later append copy its partly built array or dictionary.
        while !stack.isEmpty {
            let top = stack.count - 1
            let index = stack[top].index
            if index == stack[top].count {
                let finished = stack.removeLast()
                guard !stack.isEmpty else { return finished.dictionary }
                stack[stack.count - 1].attach(finished.value)
                continue
            }
            stack[top].index += 1
            let value: qa_value
            if let entries = stack[top].entries {
                let entry = entries[index]
                let key = try string(entry.key, at: "\(stack[top].label): key of entry \(index)")
                guard stack[top].dictionary[key] == nil else {
                    throw ABIDecodingError("\(stack[top].label): duplicate key \"\(key)\"")
                }
                stack[top].pendingKey = key
                value = entry.value
            } else if let items = stack[top].items {
                value = items[index]
            } else {
                throw ABIDecodingError("\(stack[top].label): container without storage")  // checkContainer rules this out
            }
            let childPath = stack[top].childLabel(index: index)
            values += 1
            guard values <= bounds.maxValues else {
                throw ABIDecodingError("\(childPath): more than the ABI's bound of \(bounds.maxValues) values")
            }
            switch value.kind {
            case QA_VALUE_ARRAY, QA_VALUE_DICTIONARY:
                guard stack.count < bounds.maxDepth else {
                    throw ABIDecodingError("\(childPath): nested deeper than the ABI's bound of \(bounds.maxDepth) levels")
                }
                if value.kind == QA_VALUE_ARRAY {
                    try checkContainer(value.u.array.items, count: value.u.array.count, at: childPath)
                    stack.append(Frame(array: value.u.array, label: childPath))
                } else {
                    try checkContainer(value.u.dictionary.entries, count: value.u.dictionary.count, at: childPath)
                    stack.append(Frame(dictionary: value.u.dictionary, label: childPath))
                }
            default:
                let child = try scalar(value, at: childPath)
                stack[top].attach(child)
            }
        }
        return [:]  // unreachable: the root frame returns when it finishes
    }

    private mutating func scalar(_ value: qa_value, at path: String) throws(ABIDecodingError) -> UserInfoValue {
        switch value.kind {
        case QA_VALUE_STRING:
            return .string(try string(value.u.string, at: path))
        case QA_VALUE_BOOL:
            return .bool(value.u.boolean)
        case QA_VALUE_INT:
            return .int(value.u.integer)
        case QA_VALUE_DOUBLE:
            return .double(value.u.real)
        case QA_VALUE_BYTES:
            let bytes = value.u.bytes
            try checkContainer(bytes.data, count: bytes.length, at: path)
            guard bytes.length <= bounds.maxPayloadBytes - payloadBytes else {
                throw ABIDecodingError("\(path): strings and bytes exceed the ABI's bound of \(bounds.maxPayloadBytes) bytes")
            }
            payloadBytes += bytes.length
            guard let data = bytes.data else { return .bytes([]) }
            return .bytes(Array(UnsafeBufferPointer(start: data, count: bytes.length)))
        default:
            throw ABIDecodingError("\(path): unknown value kind \(value.kind)")
        }
    }

    /// A container's storage may be NULL only when it is empty; its count must fit the budget.
    private func checkContainer<T>(_ base: UnsafePointer<T>?, count: Int, at path: String) throws(ABIDecodingError) {
        if base == nil && count != 0 {
            throw ABIDecodingError("\(path): NULL storage with count \(count)")
        }
        if count > bounds.maxValues && T.self != UInt8.self {
            throw ABIDecodingError("\(path): count \(count) is more than the ABI's bound of \(bounds.maxValues) values")
        }
    }
}

/// One container being read: where its children are, how far reading got,
/// and what has been built so far.
private struct Frame {
    let isDictionary: Bool
    var items: UnsafePointer<qa_value>?
    var entries: UnsafePointer<qa_entry>?
    var count: Int
    var index = 0
    var label: String
    var array: [UserInfoValue] = []
    var dictionary: [String: UserInfoValue] = [:]
    /// The key of the dictionary entry whose value is being read.
    var pendingKey = ""

    init(dictionary: qa_dictionary, label: String) {
        isDictionary = true
        entries = dictionary.entries
        count = dictionary.count
        self.label = label
        self.dictionary.reserveCapacity(min(count, 1024))
    }

    init(array: qa_array, label: String) {
        isDictionary = false
        items = array.items
        count = array.count
        self.label = label
        self.array.reserveCapacity(min(count, 1024))
    }

    var value: UserInfoValue { isDictionary ? .dictionary(dictionary) : .array(array) }

    mutating func attach(_ child: UserInfoValue) {
        if !isDictionary {
            array.append(child)
        } else {
            dictionary[pendingKey] = child
        }
    }

    func childLabel(index: Int) -> String {
        isDictionary ? "\(label)[\"\(pendingKey)\"]" : "\(label)[\(index)]"
    }
}
