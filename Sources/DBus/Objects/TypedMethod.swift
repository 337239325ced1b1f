import CDBus

/// A named argument or result of a typed method: its Swift type is its D-Bus type.
public struct TypedArgument<T: DBusArgument>: Sendable {
    public let name: String

    /// `TypedArgument("app_id", String.self)` is an "s" argument named app_id.
    public init(_ name: String, _ type: T.Type = T.self) {
        self.name = name
    }

    /// The argument as introspection shows it.
    public var argument: Argument { Argument(name, T.dbusType) }
}

/// What a typed handler learns about the call besides its arguments.
public struct CallContext: Sendable {
    public let message: Message

    @usableFromInline
    init(message: Message) {
        self.message = message
    }

    /// The caller's unique name.
    public var sender: String? { message.sender }
    public var path: ObjectPath? { message.path }
}

/// The one answer to a typed method call, sent from any thread: the
/// declared outputs, written straight into the reply. The rules of ``Reply``
/// apply (first answer wins; released unanswered, it sends an error).
public struct TypedReply<each Output: DBusArgument>: Sendable {
    public let reply: Reply

    @usableFromInline
    init(reply: Reply) {
        self.reply = reply
    }

    /// Sends the results. Returns false when the call was already answered.
    @discardableResult @inlinable
    public func send(_ values: repeat each Output) -> Bool {
        reply.send { (writer: inout MessageWriter) throws(DBusError) in
            for value in repeat each values {
                try value.encode(to: &writer)
            }
        }
    }

    /// Sends an error reply. Returns false when the call was already answered.
    @discardableResult
    public func fail(_ error: DBusError) -> Bool { reply.fail(error) }

    /// See ``Reply/abandon()``.
    @discardableResult
    public func abandon() -> Bool { reply.abandon() }

    public var isAnswered: Bool { reply.isAnswered }
}

/// The decoding and running of a typed method, built from its declaration.
/// Inlinable (as are the typed initialisers), so each declaration is
/// specialised for its own types where it is written: no generic dispatch
/// or runtime tuple metadata per call.
@usableFromInline
struct TypedBody: Sendable {
    /// Decodes the message's arguments and runs the handler, which answers through the reply.
    let run: @Sendable (Message, Reply) -> Void
    /// Decodes the arguments as `run` does and writes them back, for checks.
    let reencode: @Sendable (Message, inout MessageWriter) throws(DBusError) -> Void

    @usableFromInline
    init(run: @escaping @Sendable (Message, Reply) -> Void,
         reencode: @escaping @Sendable (Message, inout MessageWriter) throws(DBusError) -> Void) {
        self.run = run
        self.reencode = reencode
    }
}

extension Method {
    /// A method declared with Swift types whose handler returns its results at once.
    ///
    /// The one declaration is the input signature (checked against each
    /// call's first, `InvalidArgs` naming both), the introspection (names and
    /// types) and the decoding: arguments go straight from the message into
    /// `In…`, results straight from `Out…` into the reply.
    ///
    /// ```swift
    /// Method("Perform",
    ///        inputs: TypedArgument("app_id", String.self), TypedArgument("type", String.self),
    ///        TypedArgument("options", [String: Value].self),
    ///        outputs: (TypedArgument("success", Bool.self), TypedArgument("result", [String: Value].self))
    /// ) { call, appID, type, options in (true, [:]) }
    /// ```
    ///
    /// The handler runs on the connection's loop thread; keep it short.
    @inlinable
    public init<each In: DBusArgument, each Out: DBusArgument>(
        _ name: MemberName,
        inputs: repeat TypedArgument<each In>,
        outputs: (repeat TypedArgument<each Out>),
        annotations: [Annotation] = [],
        _ body: @escaping @Sendable (CallContext, repeat each In) throws -> (repeat each Out)
    ) {
        let run: @Sendable (Message, Reply) -> Void = { message, reply in
            let arguments: (repeat each In)
            do throws(DBusError) {
                arguments = try Self.decode(message, label: reply.label, as: repeat (each In).self)
            } catch {
                reply.fail(error)
                return
            }
            do {
                let results = try body(CallContext(message: message), repeat each arguments)
                reply.send { (writer: inout MessageWriter) throws(DBusError) in
                    for result in repeat each results {
                        try result.encode(to: &writer)
                    }
                }
            } catch {
                reply.fail(Connection.dbusError(error, label: reply.label))
            }
        }
        self.init(name, inputs: Self.arguments(repeat each inputs), outputs: Self.arguments(repeat each outputs),
                  annotations: annotations, run: run, reencode: Self.reencoder(name, as: repeat (each In).self))
    }

    /// A method declared with Swift types whose handler answers later
    /// through the ``TypedReply``, from any thread, exactly once.
    @inlinable
    public init<each In: DBusArgument, each Out: DBusArgument>(
        _ name: MemberName,
        inputs: repeat TypedArgument<each In>,
        outputs: (repeat TypedArgument<each Out>),
        annotations: [Annotation] = [],
        deferred body: @escaping @Sendable (CallContext, TypedReply<repeat each Out>, repeat each In) throws -> Void
    ) {
        let run: @Sendable (Message, Reply) -> Void = { message, reply in
            let arguments: (repeat each In)
            do throws(DBusError) {
                arguments = try Self.decode(message, label: reply.label, as: repeat (each In).self)
            } catch {
                reply.fail(error)
                return
            }
            do {
                try body(CallContext(message: message), TypedReply<repeat each Out>(reply: reply), repeat each arguments)
            } catch {
                reply.fail(Connection.dbusError(error, label: reply.label))
            }
        }
        self.init(name, inputs: Self.arguments(repeat each inputs), outputs: Self.arguments(repeat each outputs),
                  annotations: annotations, run: run, reencode: Self.reencoder(name, as: repeat (each In).self))
    }

    /// A method declared with Swift types whose handler runs as a task, so
    /// slow work never stalls the loop. The arguments are decoded on the
    /// loop thread before the task starts.
    @inlinable
    public init<each In: DBusArgument, each Out: DBusArgument>(
        _ name: MemberName,
        inputs: repeat TypedArgument<each In>,
        outputs: (repeat TypedArgument<each Out>),
        annotations: [Annotation] = [],
        async body: @escaping @Sendable (CallContext, repeat each In) async throws -> (repeat each Out)
    ) {
        let run: @Sendable (Message, Reply) -> Void = { message, reply in
            let arguments: (repeat each In)
            do throws(DBusError) {
                arguments = try Self.decode(message, label: reply.label, as: repeat (each In).self)
            } catch {
                reply.fail(error)
                return
            }
            let context = CallContext(message: message)
            Task {
                do {
                    let results = try await body(context, repeat each arguments)
                    reply.send { (writer: inout MessageWriter) throws(DBusError) in
                        for result in repeat each results {
                            try result.encode(to: &writer)
                        }
                    }
                } catch {
                    reply.fail(Connection.dbusError(error, label: reply.label))
                }
            }
        }
        self.init(name, inputs: Self.arguments(repeat each inputs), outputs: Self.arguments(repeat each outputs),
                  annotations: annotations, run: run, reencode: Self.reencoder(name, as: repeat (each In).self))
    }

    /// A method whose handler reads the call's body itself (``MessageReader``), for a hot
    /// method that needs only part of it; the body's signature has been checked against
    /// `inputs` when it runs. It answers through the ``Reply``, from any thread, exactly once,
    /// as a deferred handler does; a thrown error is the reply.
    public init(
        _ name: MemberName, inputs: [Argument], outputs: [Argument] = [], annotations: [Annotation] = [],
        reading body: @escaping @Sendable (Message, Reply) throws -> Void
    ) {
        let run: @Sendable (Message, Reply) -> Void = { message, reply in
            do {
                try body(message, reply)
            } catch {
                reply.fail(Connection.dbusError(error, label: reply.label))
            }
        }
        let reencode: @Sendable (Message, inout MessageWriter) throws(DBusError) -> Void = { message, writer throws(DBusError) in
            for argument in try message.arguments() {
                try writer.appendValue(argument)
            }
        }
        self.init(name, inputs: inputs, outputs: outputs, annotations: annotations, run: run, reencode: reencode)
    }

    @usableFromInline
    init(
        _ name: MemberName, inputs: [Argument], outputs: [Argument], annotations: [Annotation],
        run: @escaping @Sendable (Message, Reply) -> Void,
        reencode: @escaping @Sendable (Message, inout MessageWriter) throws(DBusError) -> Void
    ) {
        let body = TypedBody(run: run, reencode: reencode)
        // Called by hand (not through dispatch), the handler still decodes from the message.
        let fallback = Handler.deferred { call, reply in body.run(call.message, reply) }
        self.init(name, inputs: inputs, outputs: outputs, annotations: annotations, handler: fallback, typed: body)
    }

    /// The declared arguments as introspection shows them.
    @inlinable
    static func arguments<each T: DBusArgument>(_ typed: repeat TypedArgument<each T>) -> [Argument] {
        var result: [Argument] = []
        for argument in repeat each typed {
            result.append(argument.argument)
        }
        return result
    }

    /// Decodes a message's arguments as `In…` and writes them back, for ``decodedArguments(of:)``.
    @inlinable
    static func reencoder<each In: DBusArgument>(
        _ name: MemberName, as types: repeat (each In).Type
    ) -> @Sendable (Message, inout MessageWriter) throws(DBusError) -> Void {
        { message, writer throws(DBusError) in
            let arguments = try Self.decode(message, label: CallLabel(interface: nil, member: name),
                                            as: repeat (each In).self)
            for argument in repeat each arguments {
                try argument.encode(to: &writer)
            }
        }
    }

    /// Reads the arguments of `message` as `In…`; a failure names the method.
    @inlinable
    static func decode<each In: DBusArgument>(
        _ message: Message, label: CallLabel, as types: repeat (each In).Type
    ) throws(DBusError) -> (repeat each In) {
        var reader = MessageReader(message)
        do throws(DBusError) {
            return (repeat try (each In).decode(from: &reader))
        } catch {
            throw DBusError(error.name, "\(label): \(error.message)")
        }
    }

    /// The error for a call whose arguments do not have the declared signature.
    func signatureMismatch(_ message: Message, label: CallLabel) -> DBusError {
        .invalidArgs("\(label) takes arguments of signature \"\(inputSignature)\", got \"\(message.signature)\"")
    }

    /// For checks and tests: decodes `message`'s arguments exactly as this
    /// method's handler receives them, after the same signature check as a
    /// call (without running the handler), and returns the decoded Swift
    /// values written back as ``Value``s. nil for a method whose handler
    /// takes `[Value]`.
    public func decodedArguments(of message: Message) throws(DBusError) -> [Value]? {
        guard let typed else { return nil }
        guard message.hasSignature(inputSignature) else {
            throw signatureMismatch(message, label: CallLabel(interface: nil, member: name))
        }
        guard let raw = dbus_message_new(DBUS_MESSAGE_TYPE_METHOD_RETURN) else {
            throw DBusError.noMemory("creating a scratch message")
        }
        let scratch = Message(owning: raw)
        var writer = MessageWriter(scratch)
        try typed.reencode(message, &writer)
        return try scratch.arguments()
    }
}
