import DBus
import Locking

/// One app's quicklist as a com.canonical.dbusmenu menu (libdbusmenu's dbus-menu.xml,
/// version 3): a root (id 0) whose children are the app's current items in display order.
///
/// Each item keeps its menu id for as long as it is listed (a dock caches by id); a new
/// listing bumps the revision and emits LayoutUpdated(revision, 0). Properties: `label`
/// (the title, dbusmenu's mnemonic underscores doubled so it shows as typed), `icon-name`
/// (when the item or its app has a theme icon), `enabled` and `visible`. A "clicked" Event
/// on an item calls `onClick` with it; other events are accepted and ignored.
public final class DbusMenu: Sendable {
    public static let interfaceName: InterfaceName = "com.canonical.dbusmenu"
    static let propertiesType = DBusType.dictionary(key: .string, value: .variant)
    static let layoutType = DBusType.structure([.int32, propertiesType, .array(.variant)])

    public let path: ObjectPath
    private let connection: Connection
    private let onClick: @Sendable (SearchEntry) -> Void

    private struct State {
        var revision: UInt32 = 1
        var entries: [(id: Int32, entry: SearchEntry)] = []
        var ids: [String: Int32] = [:]
        var nextID: Int32 = 1
    }
    private let state = Locked(State())

    public init(path: ObjectPath, connection: Connection, onClick: @escaping @Sendable (SearchEntry) -> Void) {
        self.path = path
        self.connection = connection
        self.onClick = onClick
    }

    /// dbusmenu reads "_" as a mnemonic marker: "__" shows one underscore.
    public static func label(_ title: String) -> String {
        title.replacingOccurrences(of: "_", with: "__")
    }

    /// Replaces the items; emits LayoutUpdated when they changed (and `announce` is set).
    public func set(_ entries: [SearchEntry], announce: Bool = true) {
        let revision: UInt32? = state.withLock { state in
            let old = state.entries.map(\.entry)
            guard old != entries else { return nil }
            var ids: [String: Int32] = [:]
            state.entries = entries.map { entry in
                let id = state.ids[entry.itemID] ?? {
                    defer { state.nextID &+= 1 }
                    return state.nextID
                }()
                ids[entry.itemID] = id
                return (id, entry)
            }
            state.ids = ids
            state.revision &+= 1
            return state.revision
        }
        if let revision, announce {
            try? connection.emit(path: path, interface: Self.interfaceName, member: "LayoutUpdated",
                                 [.uint32(revision), .int32(0)])
        }
    }

    public var count: Int { state.withLock { $0.entries.count } }

    // MARK: The interface

    public func interface() -> Interface {
        let ints = DBusType.array(.int32)
        let strings = DBusType.array(.string)
        return Interface(Self.interfaceName, methods: [
            Method("GetLayout",
                   inputs: [Argument("parentId", .int32), Argument("recursionDepth", .int32), Argument("propertyNames", strings)],
                   outputs: [Argument("revision", .uint32), Argument("layout", Self.layoutType)]) { [self] call in
                guard case .int32(let parent) = call.arguments[0], case .int32(let depth) = call.arguments[1] else { return [] }
                return try layout(parent: parent, depth: depth, names: Self.strings(call.arguments[2]))
            },
            Method("GetGroupProperties",
                   inputs: [Argument("ids", ints), Argument("propertyNames", strings)],
                   outputs: [Argument("properties", .array(.structure([.int32, Self.propertiesType])))]) { [self] call in
                [groupProperties(ids: Self.ints(call.arguments[0]), names: Self.strings(call.arguments[1]))]
            },
            Method("GetProperty", inputs: [Argument("id", .int32), Argument("name", .string)],
                   outputs: [Argument("value", .variant)]) { [self] call in
                guard case .int32(let id) = call.arguments[0], case .string(let name) = call.arguments[1] else { return [] }
                guard let properties = properties(of: id) else { throw Self.unknown(id) }
                guard let value = properties.first(where: { $0.0 == name })?.1 else {
                    throw DBusError.invalidArgs("menu item \(id) has no property \"\(name.prefix(100))\"")
                }
                return [.variant(value)]
            },
            Method("Event",
                   inputs: [Argument("id", .int32), Argument("eventId", .string), Argument("data", .variant),
                            Argument("timestamp", .uint32)]) { [self] call in
                guard case .int32(let id) = call.arguments[0], case .string(let event) = call.arguments[1] else { return [] }
                guard handle(id: id, event: event) else { throw Self.unknown(id) }
                return []
            },
            Method("EventGroup", inputs: [Argument("events", .array(.structure([.int32, .string, .variant, .uint32])))],
                   outputs: [Argument("idErrors", ints)]) { [self] call in
                guard case .array(_, let events) = call.arguments[0] else { return [.array(.int32, [])] }
                var errors: [Value] = []
                for event in events {
                    guard case .structure(let fields) = event, fields.count == 4, case .int32(let id) = fields[0],
                          case .string(let name) = fields[1] else { continue }
                    if !handle(id: id, event: name) { errors.append(.int32(id)) }
                }
                return [.array(.int32, errors)]
            },
            Method("AboutToShow", inputs: [Argument("id", .int32)], outputs: [Argument("needUpdate", .boolean)]) { [self] call in
                guard case .int32(let id) = call.arguments[0] else { return [] }
                guard properties(of: id) != nil else { throw Self.unknown(id) }
                // The menu is kept current by LayoutUpdated: nothing to refresh before showing.
                return [.boolean(false)]
            },
            Method("AboutToShowGroup", inputs: [Argument("ids", ints)],
                   outputs: [Argument("updatesNeeded", ints), Argument("idErrors", ints)]) { [self] call in
                let unknown = Self.ints(call.arguments[0]).filter { properties(of: $0) == nil }
                return [.array(.int32, []), .array(.int32, unknown.map { .int32($0) })]
            },
        ], signals: [
            Signal("ItemsPropertiesUpdated", arguments: [
                Argument("updatedProps", .array(.structure([.int32, Self.propertiesType]))),
                Argument("removedProps", .array(.structure([.int32, .array(.string)]))),
            ]),
            Signal("LayoutUpdated", arguments: [Argument("revision", .uint32), Argument("parent", .int32)]),
            Signal("ItemActivationRequested", arguments: [Argument("id", .int32), Argument("timestamp", .uint32)]),
        ], properties: [
            Property("Version", type: .uint32, changeSignal: .constant) { .uint32(3) },
            Property("TextDirection", type: .string, changeSignal: .constant) { .string("ltr") },
            Property("Status", type: .string, changeSignal: .constant) { .string("normal") },
            Property("IconThemePath", type: .array(.string), changeSignal: .constant) { .array(.string, []) },
        ])
    }

    private static func unknown(_ id: Int32) -> DBusError {
        DBusError.invalidArgs("this menu has no item \(id)")
    }

    /// An item's properties (the root's for 0), or nil for an unknown id.
    func properties(of id: Int32) -> [(String, Value)]? {
        if id == 0 { return [("children-display", .string("submenu"))] }
        guard let entry = state.withLock({ $0.entries.first { $0.id == id }?.entry }) else { return nil }
        return Self.properties(entry)
    }

    static func properties(_ entry: SearchEntry) -> [(String, Value)] {
        var properties: [(String, Value)] = [("type", .string("standard")), ("label", .string(label(entry.title))),
                                             ("enabled", .boolean(true)), ("visible", .boolean(true))]
        let icon = [entry.icon ?? "", entry.appIcon].first { !$0.isEmpty && !$0.hasPrefix("/") }
        if let icon { properties.append(("icon-name", .string(icon))) }
        return properties
    }

    static func dictionary(_ properties: [(String, Value)], names: [String]) -> Value {
        let wanted = Set(names)
        return .dictionary(key: .string, value: .variant, properties.filter { wanted.isEmpty || wanted.contains($0.0) }
            .map { DictionaryEntry(.string($0.0), .variant($0.1)) })
    }

    func layout(parent: Int32, depth: Int32, names: [String]) throws(DBusError) -> [Value] {
        let (revision, entries) = state.withLock { ($0.revision, $0.entries) }
        guard let properties = properties(of: parent) else { throw Self.unknown(parent) }
        var children: [Value] = []
        if parent == 0 && depth != 0 {
            children = entries.map { item in
                .variant(.structure([.int32(item.id), Self.dictionary(Self.properties(item.entry), names: names),
                                     .array(.variant, [])]))
            }
        }
        return [.uint32(revision), .structure([.int32(parent), Self.dictionary(properties, names: names), .array(.variant, children)])]
    }

    func groupProperties(ids: [Int32], names: [String]) -> Value {
        let all = ids.isEmpty ? [0] + state.withLock { $0.entries.map(\.id) } : ids
        let found = all.compactMap { id in properties(of: id).map { (id, $0) } }
        return .array(.structure([.int32, Self.propertiesType]),
                      found.map { .structure([.int32($0.0), Self.dictionary($0.1, names: names)]) })
    }

    /// Handles one event; false for an unknown id.
    func handle(id: Int32, event: String) -> Bool {
        if id == 0 { return true }
        guard let entry = state.withLock({ $0.entries.first { $0.id == id }?.entry }) else { return false }
        if event == "clicked" { onClick(entry) }
        return true
    }

    static func strings(_ value: Value) -> [String] {
        guard case .array(_, let elements) = value else { return [] }
        return elements.compactMap(\.string)
    }

    static func ints(_ value: Value) -> [Int32] {
        guard case .array(_, let elements) = value else { return [] }
        return elements.compactMap { if case .int32(let number) = $0 { number } else { nil } }
    }
}
