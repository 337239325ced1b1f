import DBus
import QuickActionsAPI

/// Perform's reply, `(b success, a{sv} result)`: result carries `activation`
/// (`launch` or `resume`, ``BrokerAPI/Activation``) and, when the plugin gave one, `message`.
///
/// Most completions carry no message (as on iOS, whose completion handler
/// takes only a Bool), and then the reply is one of four constant bodies:
/// those are encoded once and copied per call, which costs a fraction of
/// encoding them again.
enum PerformReply {
    /// The reply's values.
    static func values(success: Bool, message: String?, launching: Bool) -> [Value] {
        var result = [DictionaryEntry(
            .string(BrokerAPI.ResultKey.activation),
            .variant(.string(launching ? BrokerAPI.Activation.launch : BrokerAPI.Activation.resume)))]
        if let message {
            result.insert(DictionaryEntry(.string(BrokerAPI.ResultKey.message), .variant(.string(message))), at: 0)
        }
        return [.boolean(success), .dictionary(key: .string, value: .variant, result)]
    }

    /// The encoded reply without a message; nil only if encoding failed
    /// (out of memory), and then the caller sends the values.
    static func prepared(success: Bool, launching: Bool) -> PreparedReply? {
        bodies[(success ? 2 : 0) + (launching ? 1 : 0)]
    }

    /// failure/resume, failure/launch, success/resume, success/launch.
    private static let bodies: [PreparedReply?] = [false, true].flatMap { success in
        [false, true].map { launching in
            try? PreparedReply(values(success: success, message: nil, launching: launching))
        }
    }
}
