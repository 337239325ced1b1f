import DBus
import Locking
import QuickActionsAPI

/// The `a{sv}` result of Perform's reply `(b success, a{sv} result)`:
/// "message" when the plugin gave one, then "activation" ("launch" or
/// "resume"), in that order on the wire.
///
/// A typed argument of its own rather than `[String: Value]`: the broker
/// writes it straight into the reply (``VariantDictionaryWriter``), with no
/// dictionary, no ``Value`` and no validation pass built for the two strings.
struct PerformResult: DBusArgument, Hashable {
    var message: String?
    /// Whether this Perform loaded the plugin ("launch"), else "resume".
    var launched: Bool

    static var dbusType: DBusType { .dictionary(key: .string, value: .variant) }

    var activation: String { launched ? BrokerAPI.Activation.launch : BrokerAPI.Activation.resume }

    func encode(to writer: inout MessageWriter) throws(DBusError) {
        try writer.appendVariantDictionary { entries throws(DBusError) in
            if let message {
                try entries.append(BrokerAPI.ResultKey.message, message)
            }
            try entries.append(BrokerAPI.ResultKey.activation, activation)
        }
    }

    /// Reads a result as a client would (for checks): "activation" must be
    /// "launch" or "resume", "message" a string when present; other keys are
    /// ignored, as clients ignore keys they do not know.
    static func decode(from reader: inout MessageReader) throws(DBusError) -> PerformResult {
        let entries = try [String: Value].decode(from: &reader)
        do throws(DBusValueError) {
            return try PerformResult(dbusValue: entries.dbusValue)
        } catch {
            throw DBusError.invalidArgs("Perform result: \(error)")
        }
    }

    var dbusValue: Value {
        var entries: [DictionaryEntry] = []
        if let message {
            entries.append(DictionaryEntry(.string(BrokerAPI.ResultKey.message), .variant(.string(message))))
        }
        entries.append(DictionaryEntry(.string(BrokerAPI.ResultKey.activation), .variant(.string(activation))))
        return .dictionary(key: .string, value: .variant, entries)
    }

    init(message: String?, launched: Bool) {
        self.message = message
        self.launched = launched
    }

    init(dbusValue: Value) throws(DBusValueError) {
        guard case .dictionary(.string, .variant, let entries) = dbusValue else {
            throw .typeMismatch(expected: Self.dbusType, actual: dbusValue, at: .root)
        }
        var message: String?
        var activation: String?
        for entry in entries {
            guard case .string(let key) = entry.key, case .variant(let inner) = entry.value else { continue }
            switch key {
            case BrokerAPI.ResultKey.message:
                guard case .string(let text) = inner else {
                    throw .typeMismatch(expected: .string, actual: inner, at: .root)
                }
                message = text
            case BrokerAPI.ResultKey.activation:
                guard case .string(let text) = inner, text == BrokerAPI.Activation.launch || text == BrokerAPI.Activation.resume else {
                    throw .typeMismatch(expected: .string, actual: inner, at: .root)
                }
                activation = text
            default:
                continue
            }
        }
        guard let activation else {
            throw .typeMismatch(expected: Self.dbusType, actual: dbusValue, at: .root)
        }
        self.init(message: message, launched: activation == BrokerAPI.Activation.launch)
    }
}

/// Perform's reply, `(b success, a{sv} result)`, as the typed declaration sends it.
typealias PerformReplyHandle = TypedReply<Bool, PerformResult>

/// Perform's reply: written straight into the message by its typed
/// declaration, or copied from one encoded beforehand.
///
/// Encoding `(b, a{sv})` costs more than the rest of a Perform: libdbus's
/// type writer opens and closes five containers for a result with a
/// message. A copy of a reply encoded before (`dbus_message_copy`, then the
/// caller's serial and name) costs about a third of that. So:
///
/// - Most completions carry no message (as on iOS, whose completion handler
///   takes only a Bool), and then the reply is one of four constant bodies,
///   encoded once.
/// - Plugins mostly answer an item with the same message each time
///   ("Composing a new message"). A message seen a second time gets its
///   reply encoded once and kept (``PerformReplyCache``); a message seen once
///   costs one table entry, so a plugin whose every message differs pays
///   next to nothing for the cache.
enum PerformReply {
    /// The encoded reply without a message; nil only if encoding failed
    /// (out of memory), and then the caller encodes it.
    static func prepared(success: Bool, launching: Bool) -> PreparedReply? {
        bodies[(success ? 2 : 0) + (launching ? 1 : 0)]
    }

    /// Answers `reply` with the plugin's outcome.
    static func send(
        _ reply: PerformReplyHandle, success: Bool, message: String?, launched: Bool, cache: PerformReplyCache = .shared
    ) {
        let result = PerformResult(message: message, launched: launched)
        if let prepared = message == nil
            ? prepared(success: success, launching: launched)
            : cache.reply(success: success, result: result) {
            reply.reply.send(prepared)
        } else {
            reply.send(success, result)
        }
    }

    /// failure/resume, failure/launch, success/resume, success/launch.
    private static let bodies: [PreparedReply?] = [false, true].flatMap { success in
        [false, true].map { launching in
            try? PreparedReply(encoding: success, PerformResult(message: nil, launched: launching))
        }
    }
}

/// Encoded Perform replies of messages that came more than once, for
/// ``PerformReply``. Bounded: at most ``capacity`` messages of at most
/// ``maximumMessageBytes`` each; when full it starts again empty, so a
/// plugin with ever new messages cannot grow it.
final class PerformReplyCache: Sendable {
    /// The broker's: replies hold nothing of any one broker or caller.
    static let shared = PerformReplyCache()
    static let capacity = 64
    static let maximumMessageBytes = 1024

    private struct Key: Hashable {
        let success: Bool
        let result: PerformResult
    }

    private let entries = Locked<[Key: PreparedReply?]>([:])

    /// Messages seen or kept now (for tests).
    var count: Int { entries.withLock { $0.count } }

    /// The encoded reply for `result`, when the same one came before; nil the
    /// first time (recorded, so the next time encodes and keeps it) and for
    /// long messages.
    func reply(success: Bool, result: PerformResult) -> PreparedReply? {
        guard let message = result.message, message.utf8.count <= Self.maximumMessageBytes else { return nil }
        let key = Key(success: success, result: result)
        let seen: PreparedReply?? = entries.withLock { entries in
            if let found = entries[key] { return .some(found) }
            if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = .some(nil)
            return nil
        }
        switch seen {
        case .none:
            // First time: sent as encoded, remembered as seen.
            return nil
        case .some(.some(let prepared)):
            return prepared
        case .some(.none):
            // Second time: encode once, outside the lock, and keep it. A
            // message with a NUL cannot be encoded; the direct send says so.
            guard let prepared = try? PreparedReply(encoding: success, result) else { return nil }
            entries.withLock { entries in
                if entries[key] != nil { entries[key] = prepared }
            }
            return prepared
        }
    }
}
