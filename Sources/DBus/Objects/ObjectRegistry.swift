import Locking
import Synchronization


/// The objects a connection exports, by path.
///
/// Read on the loop thread for every incoming call, written by whoever
/// exports; each object is an immutable snapshot replaced whole, so a lookup
/// is one dictionary read and one retain under the lock.
final class ObjectRegistry: Sendable {
    /// One exported object: its interfaces in declaration order.
    final class Node: Sendable {
        let interfaces: [Interface]
        let byName: [InterfaceName: Interface]

        init(_ interfaces: [Interface]) {
            self.interfaces = interfaces
            byName = Dictionary(interfaces.map { ($0.name, $0) }, uniquingKeysWith: { _, last in last })
        }
    }

    private struct State {
        var objects: [ObjectPath: Node] = [:]
        var managers: Set<ObjectPath> = []
        /// Grows with every change to the objects and every PropertiesChanged
        /// announced, so a cached listing knows when it went stale.
        var version: UInt64 = 0
    }

    private let state = Locked(State())
    /// Changes with every change of the objects or managers (for ``DispatchCache``).
    private let changes = Atomic<UInt64>(0)

    /// The registry's generation: any export, removal or new manager makes a new one.
    var generation: UInt64 { changes.load(ordering: .acquiring) }

    func node(at path: ObjectPath) -> Node? {
        state.withLock { $0.objects[path] }
    }

    func isManager(_ path: ObjectPath) -> Bool {
        state.withLock { $0.managers.contains(path) }
    }

    /// Registers `path` as an object manager root.
    func addManager(_ path: ObjectPath) {
        state.withLock { state in
            state.managers.insert(path)
            state.version &+= 1
        }
        changes.add(1, ordering: .releasing)
    }

    /// Sets the interfaces of `path`. Returns the previous node, and the
    /// nearest object manager above `path`, if any.
    func set(_ interfaces: [Interface], at path: ObjectPath) -> (previous: Node?, manager: ObjectPath?) {
        defer { changes.add(1, ordering: .releasing) }
        return state.withLock { state in
            let previous = state.objects.updateValue(Node(interfaces), forKey: path)
            state.version &+= 1
            return (previous, Self.manager(above: path, in: state.managers))
        }
    }

    /// Removes `path`. Returns what it held and its object manager, if any.
    func remove(_ path: ObjectPath) -> (removed: Node?, manager: ObjectPath?) {
        defer { changes.add(1, ordering: .releasing) }
        return state.withLock { state in
            let removed = state.objects.removeValue(forKey: path)
            state.version &+= 1
            return (removed, Self.manager(above: path, in: state.managers))
        }
    }

    /// True when some object lives strictly below `path`.
    func hasDescendants(_ path: ObjectPath) -> Bool {
        state.withLock { state in
            state.objects.keys.contains { path.isAncestor(of: $0) }
        }
    }

    /// The names of the nodes directly below `path`, sorted.
    func children(of path: ObjectPath) -> [String] {
        let depth = path.elements.count
        let names = state.withLock { state in
            var names = Set<String>()
            for candidate in state.objects.keys where path.isAncestor(of: candidate) {
                names.insert(candidate.elements[depth])
            }
            return names
        }
        return names.sorted()
    }

    /// Every object strictly below `root`, sorted by path.
    func objects(below root: ObjectPath) -> [(ObjectPath, Node)] {
        Self.objects(below: root, in: state.withLock { $0.objects })
    }

    /// Records that a property changed (PropertiesChanged was announced).
    func noteChange() {
        state.withLock { $0.version &+= 1 }
    }

    /// Every object and the version they are at, in one read (the dictionary is
    /// shared, not copied, so this costs the loop nothing).
    func snapshot() -> (objects: [ObjectPath: Node], version: UInt64) {
        state.withLock { ($0.objects, $0.version) }
    }

    /// The objects of `objects` strictly below `root`, sorted by path.
    static func objects(below root: ObjectPath, in objects: [ObjectPath: Node]) -> [(ObjectPath, Node)] {
        objects.filter { root.isAncestor(of: $0.key) }.sorted { $0.key.rawValue < $1.key.rawValue }
    }

    private static func manager(above path: ObjectPath, in managers: Set<ObjectPath>) -> ObjectPath? {
        var cursor = path.parent
        while let current = cursor {
            if managers.contains(current) { return current }
            cursor = current.parent
        }
        return nil
    }
}
