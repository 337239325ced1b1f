/// A D-Bus interface, declared once.
///
/// The same declaration drives dispatch (which methods exist, which input
/// signature each takes, which properties can be read or written) and
/// introspection (the XML that busctl and gdbus show), so they can never
/// disagree.
public struct Interface: Sendable {
    public let name: InterfaceName
    public let methods: [Method]
    public let signals: [Signal]
    public let properties: [Property]
    public let annotations: [Annotation]

    let methodsByName: [String: Method]
    let propertiesByName: [String: Property]

    public init(
        _ name: InterfaceName,
        methods: [Method] = [],
        signals: [Signal] = [],
        properties: [Property] = [],
        annotations: [Annotation] = []
    ) {
        self.name = name
        self.methods = methods
        self.signals = signals
        self.properties = properties
        self.annotations = annotations
        methodsByName = Dictionary(methods.map { ($0.name.rawValue, $0) }, uniquingKeysWith: { first, _ in first })
        propertiesByName = Dictionary(properties.map { ($0.name.rawValue, $0) }, uniquingKeysWith: { first, _ in first })
    }
}

/// A named, typed argument of a method or signal.
public struct Argument: Sendable, Hashable {
    public let name: String
    public let type: DBusType

    public init(_ name: String, _ type: DBusType) {
        self.name = name
        self.type = type
    }
}

/// An introspection annotation, such as `org.freedesktop.DBus.Deprecated`.
public struct Annotation: Sendable, Hashable {
    public let name: String
    public let value: String

    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }

    /// Documentation shown by D-Bus tools (GDBus's doc-string annotation).
    public static func documentation(_ text: String) -> Annotation {
        Annotation("org.gtk.GDBus.DocString", text)
    }
}

/// A method and its handler.
public struct Method: Sendable {
    /// How a handler answers.
    public enum Handler: Sendable {
        /// Runs on the connection's loop thread and returns the reply's
        /// values at once. Keep it short: it holds up the loop while it runs.
        case immediate(@Sendable (MethodCall) throws -> [Value])
        /// Runs on the loop thread and answers later through the `Reply`,
        /// from any thread, exactly once. For work handed to a queue of its own.
        case deferred(@Sendable (MethodCall, Reply) throws -> Void)
        /// Runs as a task, so slow work never stalls the loop.
        case async(@Sendable (MethodCall) async throws -> [Value])
    }

    public let name: MemberName
    public let inputs: [Argument]
    public let outputs: [Argument]
    public let annotations: [Annotation]
    public let handler: Handler

    /// The input signature, e.g. "ssa{sv}", compared with each call's.
    let inputSignature: String
    let outputTypes: [DBusType]
    /// For a method declared with Swift types: decodes straight from the
    /// message into them and runs the handler; nil for a `[Value]` handler.
    @usableFromInline let typed: TypedBody?

    public init(
        _ name: MemberName,
        inputs: [Argument] = [],
        outputs: [Argument] = [],
        annotations: [Annotation] = [],
        handler: Handler
    ) {
        self.init(name, inputs: inputs, outputs: outputs, annotations: annotations, handler: handler, typed: nil)
    }

    @usableFromInline
    init(
        _ name: MemberName, inputs: [Argument], outputs: [Argument], annotations: [Annotation],
        handler: Handler, typed: TypedBody?
    ) {
        self.name = name
        self.inputs = inputs
        self.outputs = outputs
        self.annotations = annotations
        self.handler = handler
        self.typed = typed
        inputSignature = inputs.map(\.type.signature).joined()
        outputTypes = outputs.map(\.type)
    }

    /// Whether the method was declared with Swift types, so its handler
    /// decodes exactly what its declaration says.
    public var isTyped: Bool { typed != nil }

    /// A method whose handler returns its reply at once.
    public init(
        _ name: MemberName,
        inputs: [Argument] = [],
        outputs: [Argument] = [],
        annotations: [Annotation] = [],
        _ body: @escaping @Sendable (MethodCall) throws -> [Value]
    ) {
        self.init(name, inputs: inputs, outputs: outputs, annotations: annotations, handler: .immediate(body))
    }
}

/// A signal an interface may emit.
public struct Signal: Sendable, Hashable {
    public let name: MemberName
    public let arguments: [Argument]
    public let annotations: [Annotation]

    public init(_ name: MemberName, arguments: [Argument] = [], annotations: [Annotation] = []) {
        self.name = name
        self.arguments = arguments
        self.annotations = annotations
    }
}

/// A property with its getter and, when writable, its setter.
public struct Property: Sendable {
    /// What `PropertiesChanged` says about this property
    /// (`org.freedesktop.DBus.Property.EmitsChangedSignal`).
    public enum ChangeSignal: String, Sendable {
        case emits = "true"
        case invalidates = "invalidates"
        case constant = "const"
        case none = "false"
    }

    public let name: MemberName
    public let type: DBusType
    public let changeSignal: ChangeSignal
    public let annotations: [Annotation]
    /// Reads the value of the object at the path it is given.
    let getter: @Sendable (ObjectPath) throws -> Value
    let setter: (@Sendable (Value) throws -> Void)?

    /// A read-only property.
    public init(
        _ name: MemberName, type: DBusType, changeSignal: ChangeSignal = .emits,
        annotations: [Annotation] = [], get: @escaping @Sendable () throws -> Value
    ) {
        self.init(name, type: type, changeSignal: changeSignal, annotations: annotations, getAt: { _ in try get() })
    }

    /// A read-only property whose getter is told which object it is read on: one declaration
    /// (and one ``Interface``) can then serve many objects alike, instead of one per object
    /// with its own closures and tables.
    public init(
        _ name: MemberName, type: DBusType, changeSignal: ChangeSignal = .emits,
        annotations: [Annotation] = [], getAt: @escaping @Sendable (ObjectPath) throws -> Value
    ) {
        self.name = name
        self.type = type
        self.changeSignal = changeSignal
        self.annotations = annotations
        self.getter = getAt
        self.setter = nil
    }

    /// A read-write property. `set` receives a value of exactly `type`.
    public init(
        _ name: MemberName, type: DBusType, changeSignal: ChangeSignal = .emits,
        annotations: [Annotation] = [],
        get: @escaping @Sendable () throws -> Value,
        set: @escaping @Sendable (Value) throws -> Void
    ) {
        self.name = name
        self.type = type
        self.changeSignal = changeSignal
        self.annotations = annotations
        self.getter = { _ in try get() }
        self.setter = set
    }

    public var isWritable: Bool { setter != nil }
}
