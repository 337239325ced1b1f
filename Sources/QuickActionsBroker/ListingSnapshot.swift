import DBus
import Dispatch
import QuickActionsAPI

/// The catalog a listing reads, bound while a GetManagedObjects listing reads
/// the app objects' properties (on the binding's listing worker), so every
/// app in one listing comes from one catalog generation.
enum ListedCatalog {
    @TaskLocal static var current: Catalog?
}

extension Broker {
    /// Large listings (GetAllItems) are encoded and sent here, never on the bus loop.
    static let listingQueue = DispatchQueue(label: "org.quickactions.broker.listings", qos: .utility)

    /// What one GetManagedObjects listing reads: the catalog as it is now. Its
    /// generation versions the listing; the status properties (Loaded,
    /// HostPID, LastLoadError, Quarantined, QuarantineReason) announce their
    /// changes, which the binding sees.
    func objectManagerSnapshot() -> ObjectManagerSnapshot {
        let catalog = catalog.withLock { $0 }
        let listed = Set(catalog.sorted.map(\.objectPath))
        return ObjectManagerSnapshot(
            version: catalog.generation,
            // An app object being exported or unexported while the catalog already says otherwise.
            includes: { path in !BrokerAPI.appsPath.isAncestor(of: path) || listed.contains(path) },
            read: { body in ListedCatalog.$current.withValue(catalog) { body() } })
    }

    /// App `id` as the listing being read sees it, else as the catalog has it now.
    func currentApp(_ id: String) -> AppSnapshot? {
        if let listed = ListedCatalog.current { return listed[id] }
        return catalog.withLock { $0[id] }
    }

    /// Answers GetAllItems from the listing queue: the loop only promises the
    /// reply (signals emitted meanwhile wait behind it).
    func answerAllItems(options: [String: Value], reply: Reply) throws(DBusError) {
        let parsed = try CallOptions(options)
        let hold = connection.holdSignals()
        Self.listingQueue.async { [self] in
            defer { hold.release() }
            do throws(DBusError) {
                reply.send(try allItemsReply(options: parsed))
            } catch {
                reply.fail(error)
            }
        }
    }
}
