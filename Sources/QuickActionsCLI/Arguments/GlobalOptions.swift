import DBus

/// The options every command accepts: which bus the broker is on.
public struct GlobalOptions: Sendable, Equatable {
    /// The bus to connect to; the session bus unless told otherwise.
    public var bus: Connection.Bus = .session

    public init(bus: Connection.Bus = .session) {
        self.bus = bus
    }

    /// The global options, in the order help lists them.
    public static let specs: [OptionSpec] = [
        OptionSpec("session", help: "Talk to the broker on the session bus (the default)."),
        OptionSpec("system", help: "Talk to the broker on the system bus."),
        OptionSpec(
            "address", kind: .value(name: "address"),
            help: "Talk to the broker on the bus at this D-Bus address, e.g. unix:path=/run/user/1000/bus."),
    ]

    /// Whether `long` names a global option.
    static func isGlobal(_ long: String) -> Bool {
        specs.contains { $0.long == long }
    }

    /// Reads the bus choice out of parsed options. Two different choices are
    /// a usage error naming both.
    static func from(_ parsed: ParsedArguments) throws(UsageError) -> GlobalOptions {
        var chosen: [(String, Connection.Bus)] = []
        if parsed.flag("session") { chosen.append(("--session", .session)) }
        if parsed.flag("system") { chosen.append(("--system", .system)) }
        let addresses = Set(parsed.allValues("address"))
        if addresses.count > 1 {
            let listed = addresses.sorted().map { "'\($0)'" }.joined(separator: " and ")
            throw UsageError("--address was given twice with different values: \(listed)")
        }
        if let address = addresses.first {
            guard !address.isEmpty else { throw UsageError("--address needs a D-Bus address, got ''") }
            chosen.append(("--address", .address(address)))
        }
        if chosen.count > 1 {
            let names = chosen.map(\.0).joined(separator: " and ")
            throw UsageError("\(names) cannot be combined: choose one bus")
        }
        return GlobalOptions(bus: chosen.first?.1 ?? .session)
    }

    /// Words for messages: "the session bus", "the bus at unix:…".
    public var busDescription: String {
        switch bus {
        case .session: "the session bus"
        case .system: "the system bus"
        case .address(let address): "the bus at \(address)"
        }
    }

    /// The options that select this bus again, for commands the CLI suggests or runs.
    public var commandLine: [String] {
        switch bus {
        case .session: []
        case .system: ["--system"]
        case .address(let address): ["--address", address]
        }
    }
}
