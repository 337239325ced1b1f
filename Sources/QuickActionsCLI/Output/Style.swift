/// ANSI styling, applied only when the terminal wants colour.
public struct Style: Sendable, Equatable {
    public let enabled: Bool

    public init(enabled: Bool) {
        self.enabled = enabled
    }

    public func bold(_ text: String) -> String { wrap(text, "1") }
    public func dim(_ text: String) -> String { wrap(text, "2") }
    public func green(_ text: String) -> String { wrap(text, "32") }
    public func red(_ text: String) -> String { wrap(text, "31") }
    public func cyan(_ text: String) -> String { wrap(text, "36") }

    private func wrap(_ text: String, _ code: String) -> String {
        enabled && !text.isEmpty ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
