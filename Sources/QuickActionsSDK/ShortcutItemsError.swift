/// Why ``PluginHost/setShortcutItems(_:)`` did not take a list. The previous
/// list stays in place.
public enum ShortcutItemsError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The broker's limits refused it (``PluginHost/limits`` gives them), or
    /// two items share an id; the message names the item and value.
    case rejected(String)
    /// The list could not be handed over as it is (the message says which value).
    case invalid(String)

    public var description: String {
        switch self {
        case .rejected(let message): return "shortcut items rejected: \(message)"
        case .invalid(let message): return "shortcut items invalid: \(message)"
        }
    }
}
