/// Why bytes are not a property list we accept: the reason and, for binary property lists, the
/// byte offset of the fault.
struct PropertyListError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The byte offset in the file where the fault is, when there is one.
    var offset: Int?
    /// What is wrong, naming the value at fault.
    var reason: String

    init(offset: Int? = nil, _ reason: String) {
        self.offset = offset
        self.reason = reason
    }

    var description: String {
        guard let offset else { return reason }
        return "at byte \(offset): \(reason)"
    }
}

/// The bounds that keep a hostile property list from hanging the broker or exhausting memory.
enum PropertyListLimits {
    /// The deepest nesting of arrays and dictionaries accepted; the top level is level 1.
    static let maximumDepth = 64
    /// The most values (every string, number, key, array, … counted each time it appears in the
    /// result, so shared objects count once per use) one property list may expand to.
    static let maximumValues = 1 << 20
}
