import CDBus
import WorkQueues
import Locking

/// What an object manager's owner gives each GetManagedObjects listing
/// (``Connection/addObjectManager(at:snapshot:)``), so a listing shows one
/// state of the owner's and can be sent again without encoding it again.
public struct ObjectManagerSnapshot: Sendable {
    /// The owner's state the listing reads, which changes whenever any
    /// listed property could change other than by a PropertiesChanged the
    /// binding sees; nil when the owner cannot say, and the listing is then
    /// encoded anew every time.
    public var version: UInt64?
    /// Whether the object at a path is part of this state (an object being
    /// exported or removed while the owner's state already says otherwise is
    /// left out).
    public var includes: @Sendable (ObjectPath) -> Bool
    /// Runs `body`, which reads every listed property, so that the getters
    /// see this one state (a task-local binding of the owner's, say).
    public var read: @Sendable (() -> Void) -> Void

    public init(
        version: UInt64?, includes: @escaping @Sendable (ObjectPath) -> Bool = { _ in true },
        read: @escaping @Sendable (() -> Void) -> Void = { $0() }
    ) {
        self.version = version
        self.includes = includes
        self.read = read
    }
}

/// GetManagedObjects, answered off the loop thread.
///
/// A listing of thousands of objects takes long to read and encode (every
/// property of every object); on the loop it would hold up every other
/// call meanwhile. The loop only promises the reply (``Connection/holdSignals()``,
/// so no change signal overtakes it) and hands the call to one worker
/// queue, which reads the properties inside the owner's snapshot, encodes
/// the reply straight into the message and sends it. The encoded reply is
/// kept while neither the objects, nor any property announced by
/// PropertiesChanged, nor the owner's snapshot version changed, and sent
/// again as a copy of its bytes.
final class ManagedObjectsLister: Sendable {
    /// One queue for every connection's listings: they are rare, large and CPU-bound.
    static let queue = SerialQueue(label: "org.quickactions.dbus.managed-objects", priority: .utility)

    private struct Cached {
        let registryVersion: UInt64
        let ownerVersion: UInt64
        let reply: PreparedReply
    }

    private let snapshots = Locked<[ObjectPath: @Sendable () -> ObjectManagerSnapshot]>([:])
    private let cache = Locked<[ObjectPath: Cached]>([:])

    func setSnapshot(_ snapshot: (@Sendable () -> ObjectManagerSnapshot)?, for root: ObjectPath) {
        snapshots.withLock { $0[root] = snapshot }
        cache.withLock { $0[root] = nil }
    }

    func snapshot(for root: ObjectPath) -> ObjectManagerSnapshot? {
        snapshots.withLock { $0[root] }?()
    }

    func cached(_ root: ObjectPath, registryVersion: UInt64, ownerVersion: UInt64?) -> PreparedReply? {
        guard let ownerVersion else { return nil }
        return cache.withLock { cache in
            guard let entry = cache[root], entry.registryVersion == registryVersion,
                  entry.ownerVersion == ownerVersion else { return nil }
            return entry.reply
        }
    }

    func store(_ reply: PreparedReply, for root: ObjectPath, registryVersion: UInt64, ownerVersion: UInt64) {
        cache.withLock { cache in
            // A listing that read an older state than the one kept does not replace it.
            if let entry = cache[root], entry.registryVersion > registryVersion || entry.ownerVersion > ownerVersion {
                return
            }
            cache[root] = Cached(registryVersion: registryVersion, ownerVersion: ownerVersion, reply: reply)
        }
    }
}

extension Connection {
    /// Makes `path` an org.freedesktop.DBus.ObjectManager for the objects
    /// below it, whose listings read the owner's state through `snapshot`
    /// (called on the listing worker, once per listing): see
    /// ``ObjectManagerSnapshot``.
    public func addObjectManager(at path: ObjectPath, snapshot: @escaping @Sendable () -> ObjectManagerSnapshot) {
        lister.setSnapshot(snapshot, for: path)
        addObjectManager(at: path)
    }

    /// GetManagedObjects' handler: runs on the loop, answers from the worker.
    func listManagedObjects(_ call: MethodCall, reply: Reply) {
        guard let root = call.path else {
            reply.fail(DBusError(.unknownObject, "GetManagedObjects without a path"))
            return
        }
        let hold = holdSignals()
        ManagedObjectsLister.queue.async { [self] in
            // The reply goes out first, then the signals held behind it.
            defer { hold.release() }
            guard !call.message.noReplyExpected else {
                reply.abandon()
                return
            }
            do throws(DBusError) {
                reply.send(try managedObjectsReply(below: root))
            } catch {
                reply.fail(error)
            }
        }
    }

    /// The listing of the objects below `root`, from the cache when still current.
    func managedObjectsReply(below root: ObjectPath) throws(DBusError) -> PreparedReply {
        let owner = lister.snapshot(for: root)
        // The version first: a change after it makes what is read here newer, never older.
        let (all, registryVersion) = objects.snapshot()
        if let cached = lister.cached(root, registryVersion: registryVersion, ownerVersion: owner?.version) {
            return cached
        }
        let owned = owner ?? ObjectManagerSnapshot(version: nil)
        let listed = ObjectRegistry.objects(below: root, in: all).filter { owned.includes($0.0) }
        var outcome: Result<(PreparedReply, cacheable: Bool), DBusError> = .failure(.noMemory("listing objects"))
        owned.read {
            do throws(DBusError) {
                outcome = .success(try encodeManagedObjects(listed))
            } catch {
                outcome = .failure(error)
            }
        }
        let (reply, cacheable) = try outcome.get()
        if cacheable, let ownerVersion = owner?.version {
            lister.store(reply, for: root, registryVersion: registryVersion, ownerVersion: ownerVersion)
        }
        return reply
    }

    /// Encodes `a{oa{sa{sv}}}` straight into a reply: every property read
    /// once, each value written as it is read, no tree of the whole listing.
    /// Not cacheable when a listed property announces no changes (`.none`).
    private func encodeManagedObjects(
        _ listed: [(ObjectPath, ObjectRegistry.Node)]
    ) throws(DBusError) -> (PreparedReply, cacheable: Bool) {
        guard let raw = dbus_message_new(DBUS_MESSAGE_TYPE_METHOD_RETURN) else {
            throw DBusError.noMemory("creating a listing")
        }
        let message = Message(owning: raw)
        var writer = MessageWriter(message)
        var cacheable = true
        try writer.appendContainer(DBUS_TYPE_ARRAY, "{oa{sa{sv}}}") { objects throws(DBusError) in
            for (path, node) in listed {
                let interfaces = Self.readProperties(node, at: path, cacheable: &cacheable)
                try objects.appendContainer(DBUS_TYPE_DICT_ENTRY, nil) { entry throws(DBusError) in
                    try path.encode(to: &entry)
                    try entry.appendContainer(DBUS_TYPE_ARRAY, "{sa{sv}}") { names throws(DBusError) in
                        for (name, properties) in interfaces {
                            try names.appendContainer(DBUS_TYPE_DICT_ENTRY, nil) { pair throws(DBusError) in
                                try name.rawValue.encode(to: &pair)
                                try pair.appendContainer(DBUS_TYPE_ARRAY, "{sv}") { values throws(DBusError) in
                                    for (property, value) in properties {
                                        try values.appendContainer(DBUS_TYPE_DICT_ENTRY, nil) { field throws(DBusError) in
                                            try property.encode(to: &field)
                                            try value.encode(to: &field)
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        return (PreparedReply(encoded: message, types: [ManagedObjects.type]), cacheable)
    }

    /// Each interface's properties and their values; an object whose getter
    /// fails is still listed, with its interfaces but without properties.
    private static func readProperties(
        _ node: ObjectRegistry.Node, at path: ObjectPath, cacheable: inout Bool
    ) -> [(InterfaceName, [(String, Value)])] {
        var result: [(InterfaceName, [(String, Value)])] = []
        result.reserveCapacity(node.interfaces.count)
        for interface in node.interfaces {
            var values: [(String, Value)] = []
            values.reserveCapacity(interface.properties.count)
            for property in interface.properties {
                if property.changeSignal == .none { cacheable = false }
                guard let value = try? property.getter(path) else {
                    return node.interfaces.map { ($0.name, []) }
                }
                values.append((property.name.rawValue, value))
            }
            result.append((interface.name, values))
        }
        return result
    }
}
