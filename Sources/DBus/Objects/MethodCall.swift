import Synchronization

/// An incoming method call, as a handler sees it.
public struct MethodCall: Sendable {
    public let message: Message
    /// The decoded body; its signature matched the method's inputs.
    public let arguments: [Value]

    /// The caller's unique name.
    public var sender: String? { message.sender }
    public var path: ObjectPath? { message.path }

    init(message: Message, arguments: [Value]) {
        self.message = message
        self.arguments = arguments
    }

    /// A typed call as a `[Value]` handler sees it, for handing it to code
    /// written for those: `arguments` are the call's, already decoded.
    public init(_ context: CallContext, arguments: [Value]) {
        message = context.message
        self.arguments = arguments
    }
}

/// The one answer to a method call, sent from any thread.
///
/// The first `send` or `fail` goes out; any later one is dropped (and
/// reported to `onDuplicate`, if set). A reply released unanswered sends an
/// error, so a caller is never left waiting because a handler forgot it.
/// For a call flagged NO_REPLY_EXPECTED nothing is sent at all.
public final class Reply: Sendable {
    private let call: Message
    private let connection: Connection
    private let outputTypes: [DBusType]
    private let answered = Atomic<Bool>(false)
    @usableFromInline let label: CallLabel

    init(call: Message, connection: Connection, outputTypes: [DBusType], label: CallLabel) {
        self.call = call
        self.connection = connection
        self.outputTypes = outputTypes
        self.label = label
    }

    deinit {
        if !answered.load(ordering: .acquiring) {
            transmit(.failure(DBusError(.noReply, "\(label) ended without an answer")))
        }
    }

    /// Whether an answer has already gone out.
    public var isAnswered: Bool { answered.load(ordering: .acquiring) }

    /// Sends the reply's values. Returns false when the call was already answered.
    @discardableResult
    public func send(_ values: [Value]) -> Bool {
        guard claim() else { return false }
        transmit(.success(values))
        return true
    }

    /// Sends a reply encoded beforehand. Returns false when the call was
    /// already answered.
    @discardableResult
    public func send(_ prepared: PreparedReply) -> Bool {
        guard claim() else { return false }
        if call.noReplyExpected { return true }
        guard prepared.types == outputTypes else {
            transmit(.failure(mismatch(prepared.types)))
            return true
        }
        do {
            try connection.send(prepared.reply(to: call))
        } catch {
            transmit(.failure(error))
        }
        return true
    }

    /// Sends a reply whose body `encode` writes straight into the message,
    /// for typed outputs (their types are the declared ones by construction).
    /// Returns false when the call was already answered.
    @discardableResult @usableFromInline
    func send(encoding encode: (inout MessageWriter) throws(DBusError) -> Void) -> Bool {
        guard claim() else { return false }
        if call.noReplyExpected { return true }
        do {
            let reply = try call.makeReturn()
            var writer = MessageWriter(reply)
            try encode(&writer)
            try connection.send(reply)
        } catch {
            transmit(.failure(DBusError(error.name, "\(label): \(error.message)")))
        }
        return true
    }

    /// Sends an error reply. Returns false when the call was already answered.
    @discardableResult
    public func fail(_ error: DBusError) -> Bool {
        guard claim() else { return false }
        transmit(.failure(error))
        return true
    }

    /// Gives up on answering, for a caller that left the bus: nothing is
    /// sent, now or later. Returns false when the call was already answered.
    @discardableResult
    public func abandon() -> Bool {
        claim()
    }

    private func claim() -> Bool {
        answered.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
    }

    /// The error for a handler whose reply does not match the declared outputs.
    private func mismatch(_ types: [DBusType]) -> DBusError {
        let got = types.map(\.signature).joined()
        let want = outputTypes.map(\.signature).joined()
        return DBusError(.failed, "\(label) produced a reply of signature \"\(got)\" instead of \"\(want)\"")
    }

    private func transmit(_ outcome: Result<[Value], DBusError>) {
        if call.noReplyExpected { return }
        var outcome = outcome
        if case .success(let values) = outcome {
            let types = values.map(\.type)
            if types != outputTypes { outcome = .failure(mismatch(types)) }
        }
        do {
            let reply: Message
            switch outcome {
            case .success(let values):
                reply = try call.makeReturn()
                try reply.append(values)
            case .failure(let error):
                reply = try call.makeError(error)
            }
            try connection.send(reply)
        } catch {
            // Could not build or queue the reply (out of memory, or the bus
            // is gone); try the simplest error so the caller is not left hanging.
            if case .success = outcome, let fallback = try? call.makeError(DBusError(.failed, "\(label): \(error)")) {
                try? connection.send(fallback)
            }
        }
    }
}
