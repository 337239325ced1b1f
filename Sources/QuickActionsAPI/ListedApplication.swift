import DBus

/// One app as ListApplications lists it: `(id, display name, icon)`.
public struct ListedApplication: Sendable, Equatable {
    public let id: String
    public let name: String
    /// A freedesktop icon name, an absolute path, or "" for none.
    public let icon: String

    public init(id: String, name: String, icon: String) {
        self.id = id
        self.name = name
        self.icon = icon
    }

    /// Reads an `a(sss)`.
    public static func list(decoding value: Value?) throws(APIDecodingError) -> [ListedApplication] {
        guard let elements = value?.array else {
            throw APIDecodingError("the applications are \(value?.type.signature ?? "missing"), not a(sss)")
        }
        var apps: [ListedApplication] = []
        for element in elements {
            guard let fields = element.structure, fields.count == 3,
                  let id = fields[0].string, let name = fields[1].string, let icon = fields[2].string
            else {
                throw APIDecodingError("an application is \(element.type.signature), not (sss)")
            }
            apps.append(ListedApplication(id: id, name: name, icon: icon))
        }
        return apps
    }
}

/// What Perform answered.
public struct PerformOutcome: Sendable, Equatable {
    public let success: Bool
    /// The plugin's message, when it gave one.
    public let message: String?
    /// "launch" when this call loaded the plugin, else "resume".
    public let activation: String?
    /// The result dictionary as received.
    public let raw: Value

    /// Reads Perform's `(b success, a{sv} result)`.
    public init(decoding values: [Value]) throws(APIDecodingError) {
        guard values.count == 2, let success = values[0].bool, let fields = values[1].dictionary else {
            let signature = values.map(\.type.signature).joined()
            throw APIDecodingError("Perform answered (\(signature)), not (ba{sv})")
        }
        self.success = success
        message = fields[.string(BrokerAPI.ResultKey.message)]?.string
        activation = fields[.string(BrokerAPI.ResultKey.activation)]?.string
        raw = values[1]
    }
}
