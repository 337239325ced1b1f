import DBus
import QuickActionsAPI
import Synchronization

/// Host1.Perform's answers `(b success, a{sv} result)`, each encoded once.
///
/// A plugin answers with a handful of outcomes ("done", "sent", failure), and encoding one
/// into a reply, validating the values and appending them to libdbus entry by entry, cost the
/// host about 18,000 of its instructions per Perform (callgrind). So each outcome is kept as a
/// ``PreparedReply`` and each call's reply is a copy of it addressed to the call.
///
/// At most ``capacity`` outcomes are kept (when full it starts over), and messages longer
/// than ``longestCached`` bytes are encoded per call: a plugin that puts a counter or a time
/// into its message would otherwise fill the cache with answers never sent again.
public final class PerformReplies: Sendable {
    public static let capacity = 32
    public static let longestCached = 512

    public struct Outcome: Hashable, Sendable {
        public var success: Bool
        public var message: String?

        public init(success: Bool, message: String?) {
            self.success = success
            self.message = message
        }
    }

    private let replies = Mutex<[Outcome: PreparedReply]>([:])

    public init() {}

    /// Outcomes kept now, for tests.
    public var count: Int { replies.withLock { $0.count } }

    /// The reply's values, as ``prepared(_:)`` encodes them.
    public static func values(_ outcome: Outcome) -> [Value] {
        var result: [DictionaryEntry] = []
        if let message = outcome.message {
            result.append(DictionaryEntry(.string(BrokerAPI.ResultKey.message), .variant(.string(message))))
        }
        return [.boolean(outcome.success), .dictionary(key: .string, value: .variant, result)]
    }

    /// The reply's values that also tell the broker the host keeps `keptRequestKey`'s request
    /// (``HostAPI/ResultKey/keptRequestKey``, protocol 1.1).
    public static func values(_ outcome: Outcome, keptRequestKey: UInt64) -> [Value] {
        var result: [DictionaryEntry] = []
        if let message = outcome.message {
            result.append(DictionaryEntry(.string(BrokerAPI.ResultKey.message), .variant(.string(message))))
        }
        result.append(DictionaryEntry(.string(HostAPI.ResultKey.keptRequestKey), .variant(.uint64(keptRequestKey))))
        return [.boolean(outcome.success), .dictionary(key: .string, value: .variant, result)]
    }

    /// The encoded reply for `outcome`; nil when it is not to be cached (a long message) or
    /// cannot be encoded (send ``values(_:)`` then, whose failure names the value at fault).
    public func prepared(_ outcome: Outcome) -> PreparedReply? {
        if let message = outcome.message, message.utf8.count > Self.longestCached { return nil }
        if let known = replies.withLock({ $0[outcome] }) { return known }
        guard let made = try? PreparedReply(Self.values(outcome)) else { return nil }
        replies.withLock { replies in
            if replies.count >= Self.capacity { replies.removeAll() }
            replies[outcome] = made
        }
        return made
    }
}
