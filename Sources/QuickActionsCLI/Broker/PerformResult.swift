import DBus
import QuickActionsAPI

/// What `Perform` answered: the plugin's success and the result dictionary
/// (`message` when the plugin gave one, `activation`).
public struct PerformResult: Sendable, Equatable {
    public let success: Bool
    public let message: String?
    /// "launch" when this call loaded the plugin, else "resume".
    public let activation: String?
    /// The result dictionary exactly as received.
    public let raw: Value

    public init(success: Bool, message: String?, activation: String?, raw: Value) {
        self.success = success
        self.message = message
        self.activation = activation
        self.raw = raw
    }

    /// Reads the reply's `(b success, a{sv} result)`.
    init(decoding values: [Value]) throws(CLIError) {
        guard values.count == 2, let success = values[0].bool, let fields = values[1].dictionary else {
            let signature = values.map(\.type.signature).joined()
            throw .failed("the broker answered Perform with (\(signature)), not (ba{sv})")
        }
        self.success = success
        message = fields[.string(BrokerAPI.ResultKey.message)]?.string
        activation = fields[.string(BrokerAPI.ResultKey.activation)]?.string
        raw = values[1]
    }
}
