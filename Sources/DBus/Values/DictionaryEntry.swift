/// One key/value pair of a ``Value/dictionary(key:value:_:)``.
public struct DictionaryEntry: Hashable, Sendable {
    /// The key; its type must be basic.
    public var key: Value
    /// The value.
    public var value: Value

    public init(_ key: Value, _ value: Value) {
        self.key = key
        self.value = value
    }
}
