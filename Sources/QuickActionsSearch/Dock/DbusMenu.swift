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

    public let path: ObjectPath
    private let connection: Connection
    private let onClick: @Sendable (SearchEntry, UInt32) -> Void

    private struct State {
        var revision: UInt32 = 1
        var entries: [(id: Int32, entry: SearchEntry)] = []
        var ids: [String: Int32] = [:]
        var nextID: Int32 = 1
    }
    private let state = Locked(State())

    /// - Parameter onClick: the item clicked and the event's X11 timestamp (0 when none).
    public init(path: ObjectPath, connection: Connection, onClick: @escaping @Sendable (SearchEntry, UInt32) -> Void) {
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

    /// An item's properties, an a{sv} kept in the order they are listed.
    typealias Properties = ValueOf<[String: Value]>
    /// A layout node, (ia{sv}av): its children are variants holding nodes of the same
    /// layout, so the recursion goes through `Value` and the rest is typed.
    typealias Layout = DBusStruct<Int32, Properties, [Value]>
    typealias Event = DBusStruct<Int32, String, Value, UInt32>

    /// Every method declared with Swift types: the declaration is the signature, the
    /// introspection and the decoding (BridgeInterfaceProofTests checks all three).
    public func interface() -> Interface {
        Interface(Self.interfaceName, methods: [
            Method("GetLayout",
                   inputs: TypedArgument("parentId", Int32.self), TypedArgument("recursionDepth", Int32.self),
                   TypedArgument("propertyNames", [String].self),
                   outputs: (TypedArgument("revision", UInt32.self), TypedArgument("layout", Layout.self))
            ) { [self] _, parent, depth, names in
                try layout(parent: parent, depth: depth, names: names)
            },
            Method("GetGroupProperties",
                   inputs: TypedArgument("ids", [Int32].self), TypedArgument("propertyNames", [String].self),
                   outputs: (TypedArgument("properties", [DBusStruct<Int32, Properties>].self))
            ) { [self] _, ids, names in
                try groupProperties(ids: ids, names: names)
            },
            Method("GetProperty", inputs: TypedArgument("id", Int32.self), TypedArgument("name", String.self),
                   outputs: (TypedArgument("value", Value.self))) { [self] _, id, name in
                guard let properties = properties(of: id) else { throw Self.unknown(id) }
                guard let value = properties.first(where: { $0.0 == name })?.1 else {
                    throw DBusError.invalidArgs("menu item \(id) has no property \"\(name.prefix(100))\"")
                }
                return value
            },
            Method("Event",
                   inputs: TypedArgument("id", Int32.self), TypedArgument("eventId", String.self),
                   TypedArgument("data", Value.self), TypedArgument("timestamp", UInt32.self),
                   outputs: ()) { [self] _, id, event, _, timestamp in
                guard handle(id: id, event: event, timestamp: timestamp) else { throw Self.unknown(id) }
            },
            Method("EventGroup", inputs: TypedArgument("events", [Event].self),
                   outputs: (TypedArgument("idErrors", [Int32].self))) { [self] _, events in
                var errors: [Int32] = []
                for event in events {
                    let (id, name, _, timestamp) = event.fields
                    if !handle(id: id, event: name, timestamp: timestamp) { errors.append(id) }
                }
                return errors
            },
            Method("AboutToShow", inputs: TypedArgument("id", Int32.self),
                   outputs: (TypedArgument("needUpdate", Bool.self))) { [self] _, id in
                guard properties(of: id) != nil else { throw Self.unknown(id) }
                // The menu is kept current by LayoutUpdated: nothing to refresh before showing.
                return false
            },
            Method("AboutToShowGroup", inputs: TypedArgument("ids", [Int32].self),
                   outputs: (TypedArgument("updatesNeeded", [Int32].self), TypedArgument("idErrors", [Int32].self))
            ) { [self] _, ids in
                ([], ids.filter { properties(of: $0) == nil })
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

    func layout(parent: Int32, depth: Int32, names: [String]) throws(DBusError) -> (UInt32, Layout) {
        let (revision, entries) = state.withLock { ($0.revision, $0.entries) }
        guard let properties = properties(of: parent) else { throw Self.unknown(parent) }
        // Each child is a variant's contents: `[Value]` is "av", each element sent as a variant.
        var children: [Value] = []
        if parent == 0 && depth != 0 {
            children = entries.map { item in
                .structure([.int32(item.id), Self.dictionary(Self.properties(item.entry), names: names), .array(.variant, [])])
            }
        }
        return (revision, Layout(parent, try Properties(Self.dictionary(properties, names: names)), children))
    }

    func groupProperties(ids: [Int32], names: [String]) throws(DBusError) -> [DBusStruct<Int32, Properties>] {
        let all = ids.isEmpty ? [0] + state.withLock { $0.entries.map(\.id) } : ids
        var result: [DBusStruct<Int32, Properties>] = []
        for id in all {
            guard let properties = properties(of: id) else { continue }
            result.append(DBusStruct(id, try Properties(Self.dictionary(properties, names: names))))
        }
        return result
    }

    /// Handles one event; false for an unknown id.
    func handle(id: Int32, event: String, timestamp: UInt32 = 0) -> Bool {
        if id == 0 { return true }
        guard let entry = state.withLock({ $0.entries.first { $0.id == id }?.entry }) else { return false }
        if event == "clicked" { onClick(entry, timestamp) }
        return true
    }
}
