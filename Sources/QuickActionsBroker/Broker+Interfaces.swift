import DBus
import Glibc
import QuickActionsAPI

/// The D-Bus API v1 declarations. dbus/org.quickactions.Broker1.xml and
/// dbus/org.quickactions.Application1.xml document the same contract; a test
/// checks that the broker's introspection matches them.
extension Broker {
    static let itemType = DBusType.dictionary(key: .string, value: .variant)

    /// An item as the contract sends it: a{sv}, kept encoded in the catalog.
    typealias EncodedItem = ValueOf<[String: Value]>
    typealias AppRow = DBusStruct<String, String, String>
    typealias AppItems = DBusStruct<String, [EncodedItem]>

    /// Every method is declared with Swift types: the declaration is the
    /// signature, the introspection and the decoding (InterfaceProof checks it).
    func rootInterface() -> Interface {
        Interface(Self.interfaceName, methods: [
            Method(BrokerAPI.Member.listApplications,
                   outputs: (TypedArgument("applications", [AppRow].self)),
                   annotations: [.documentation("(app id, display name, icon) of every app, sorted by app id.")]) { [weak self] _ in
                guard let self else { return [] }
                return listApplicationRows()
            },
            Method(BrokerAPI.Member.getItems,
                   inputs: TypedArgument("app_id", String.self), TypedArgument("options", [String: Value].self),
                   outputs: (TypedArgument("items", [EncodedItem].self)),
                   annotations: [.documentation("One app's items in display order: static items in manifest order, then dynamic items.")]) { [weak self] _, id, options in
                guard let self else { return [] }
                return try Self.encodedItems(getItems(id, options: CallOptions(options)))
            },
            Method(BrokerAPI.Member.getAllItems,
                   inputs: TypedArgument("options", [String: Value].self),
                   outputs: (TypedArgument("items", [AppItems].self)),
                   annotations: [.documentation("(app id, items) for every app, sorted by app id.")],
                   deferred: { [weak self] _, reply, options in
                guard let self else { return }
                // Encoded once per catalog state, off the loop: the prepared body has exactly the declared type.
                try answerAllItems(options: options, reply: reply.reply)
            }),
            Method(BrokerAPI.Member.perform,
                   inputs: TypedArgument("app_id", String.self), TypedArgument("type", String.self),
                   TypedArgument("options", [String: Value].self),
                   outputs: (TypedArgument("success", Bool.self), TypedArgument("result", PerformResult.self)),
                   annotations: [.documentation("Performs one current item; answers when the plugin completes.")],
                   deferred: { [weak self] call, reply, id, type, options in
                guard let self else { return }
                try perform(appID: id, type: type, options: options, caller: call.sender, reply: reply)
            }),
            Method(BrokerAPI.Member.forgetApplication,
                   inputs: TypedArgument("app_id", String.self),
                   outputs: (TypedArgument("removed_items", UInt32.self)),
                   annotations: [.documentation(Self.forgetDocumentation)],
                   deferred: { [weak self] call, reply, id in
                guard let self else { return }
                let caller = call.sender
                scanQueue.async {
                    do throws(DBusError) {
                        let removed = try self.forgetApplication(id, caller: caller)
                        _ = reply.send(removed)
                    } catch {
                        _ = reply.fail(error)
                    }
                }
            }),
            Method(BrokerAPI.Member.reload, outputs: (), annotations: [.documentation("Re-reads the plugin directories now.")],
                   deferred: { [weak self] _, reply in
                guard let self else { return }
                scanQueue.async {
                    self.rescanNow(reason: "Reload() was called")
                    reply.send()
                }
            }),
        ] + usageMethods(), signals: [
            Signal(BrokerAPI.Signal.itemsChanged, arguments: [Argument("app_id", .string)],
                   annotations: [.documentation("An app's items changed: dynamic items set, manifest edited, app added or removed.")]),
            Signal(BrokerAPI.Signal.applicationsChanged, annotations: [.documentation("The set of apps changed.")]),
        ], properties: [
            Property(MemberName(stringLiteral: BrokerAPI.Property.version), type: .string, changeSignal: .constant, get: { .string(Broker.version) }),
            Property(MemberName(stringLiteral: BrokerAPI.Property.pendingPerforms), type: .uint32, changeSignal: .none,
                     annotations: [.documentation("Performs received and not yet answered, for all callers.")],
                     get: { [weak self] in .uint32(UInt32(clamping: self?.pending.count ?? 0)) }),
        ] + rootStatusProperties())
    }

    static let forgetDocumentation = "Removes the stored dynamic items and last-seen record of an app that is not installed; "
        + "returns how many items were removed. An installed app is refused with ApplicationInstalled; "
        + "an app with nothing stored gets UnknownApplication."

    /// Application1, declared once for every app: each handler and getter finds its app from
    /// the object path it is called on, whose last element is the app id escaped. One
    /// declaration per app was about 4 KiB of tables and closures each (issue 33 §6: 1,000
    /// installed applications).
    func applicationInterface() -> Interface {
        sharedApplicationInterface.withLock { shared in
            if let shared { return shared }
            let made = makeApplicationInterface()
            shared = made
            return made
        }
    }

    /// The app id of the Application1 object at `path`.
    static func appID(at path: ObjectPath?) throws(DBusError) -> String {
        guard let path, let id = appID(inPath: path.rawValue) else {
            throw DBusError(.unknownObject, "\((path?.rawValue ?? "").quoted()) is not an app's object")
        }
        return id
    }

    private static let appsPrefix = Array((BrokerAPI.appsPath.rawValue + "/").utf8)

    /// The unescaped element right below the apps' path, read as bytes: every property getter
    /// of every exported app asks, and Foundation's `contains("/")` there alone cost 11,000
    /// instructions a call (15 % of a start-up among 1,000 installed applications, issue 33 §6).
    private static func appID(inPath path: String) -> String? {
        var path = path
        return path.withUTF8 { bytes -> String? in
            let prefix = appsPrefix
            guard bytes.count > prefix.count, let base = bytes.baseAddress, memcmp(base, prefix, prefix.count) == 0,
                  memchr(base + prefix.count, Int32(UInt8(ascii: "/")), bytes.count - prefix.count) == nil else { return nil }
            return ObjectPath.unescapedElement(String(decoding: UnsafeBufferPointer(rebasing: bytes[prefix.count...]), as: UTF8.self))
        }
    }

    private func makeApplicationInterface() -> Interface {
        let locale = configuration.locale
        let current: @Sendable (ObjectPath) throws -> AppSnapshot = { [weak self] path in
            let id = try Self.appID(at: path)
            // In a GetManagedObjects listing, the listing's catalog (ListedCatalog).
            guard let app = self?.currentApp(id) else { throw DBusError.unknownApplication(id) }
            return app
        }
        return Interface(Self.applicationInterfaceName, methods: [
            Method(BrokerAPI.Member.perform,
                   inputs: TypedArgument("type", String.self), TypedArgument("options", [String: Value].self),
                   outputs: (TypedArgument("success", Bool.self), TypedArgument("result", PerformResult.self)),
                   annotations: [.documentation("The same as the root's Perform, for this app.")],
                   deferred: { [weak self] call, reply, type, options in
                guard let self else { return }
                try perform(appID: Self.appID(at: call.path), type: type, options: options, caller: call.sender, reply: reply)
            }),
        ], properties: [
            Property(MemberName(stringLiteral: BrokerAPI.Property.id), type: .string, changeSignal: .constant,
                     getAt: { .string(try Self.appID(at: $0)) }),
            Property(MemberName(stringLiteral: BrokerAPI.Property.name), type: .string,
                     getAt: { .string(try current($0).name(locale: locale)) }),
            Property(MemberName(stringLiteral: BrokerAPI.Property.icon), type: .string, getAt: { .string(try current($0).icon) }),
            Property(MemberName(stringLiteral: BrokerAPI.Property.version), type: .string, getAt: { .string(try current($0).version) }),
            Property(MemberName(stringLiteral: BrokerAPI.Property.languages), type: .array(.string),
                     annotations: [.documentation("The languages the bundle is localised in: its .lproj names without Base, sorted.")],
                     getAt: { .array(.string, (try current($0).bundle?.languages ?? []).map(Value.string)) }),
            Property(MemberName(stringLiteral: BrokerAPI.Property.displayNames), type: .dictionary(key: .string, value: .string),
                     annotations: [.documentation("The display name in each of Languages, and under C in no particular one.")],
                     getAt: {
                         let app = try current($0)
                         return .dictionary(key: .string, value: .string, (["C"] + (app.bundle?.languages ?? [])).map {
                             DictionaryEntry(.string($0), .string(app.name(locale: $0)))
                         })
                     }),
            Property(MemberName(stringLiteral: BrokerAPI.Property.desktopEntry), type: .string,
                     annotations: [.documentation("The desktop file id of the app's own entry (Info.plist QuickActionsDesktopEntry, or the installed application's that item providers serve), or \"\".")],
                     getAt: { .string(try current($0).desktopEntry) }),
            Property(MemberName(stringLiteral: BrokerAPI.Property.loaded), type: .boolean, getAt: { [weak self] path in
                let id = try Self.appID(at: path)
                return .boolean(self?.slots.withLock { $0[id] }?.executor.isLoaded == true)
            }),
            Property(MemberName(stringLiteral: BrokerAPI.Property.items), type: .array(Self.itemType), getAt: {
                .array(Self.itemType, try current($0).items(locale: locale))
            }),
        ] + applicationStatusProperties(current: current))
    }

    /// Exports the root and every app. The object manager is added last (its
    /// listings read one catalog snapshot: ListingSnapshot.swift):
    /// apps exported before anyone can listen need no InterfacesAdded (which
    /// would also build every app's items at start-up).
    func exportObjects() throws(DBusError) {
        try connection.export([rootInterface()], at: Self.rootPath)
        for app in catalog.withLock({ $0.sorted }) {
            try connection.export([applicationInterface()], at: app.objectPath)
        }
        connection.addObjectManager(at: Self.rootPath) { [weak self] in
            self?.objectManagerSnapshot() ?? ObjectManagerSnapshot(version: nil)
        }
    }

    // MARK: Listing

    /// (app id, display name, icon) of every app, sorted by app id.
    func listApplicationRows() -> [AppRow] {
        let locale = configuration.locale
        return catalog.withLock { $0.sorted }.map { AppRow($0.id, $0.name(locale: locale), $0.icon) }
    }

    /// A listing's items, each already an a{sv} value.
    static func encodedItems(_ listing: Value) throws(DBusError) -> [EncodedItem] {
        guard case .array(_, let items) = listing else { return [] }
        var result: [EncodedItem] = []
        result.reserveCapacity(items.count)
        for item in items {
            result.append(try EncodedItem(item))
        }
        return result
    }

    func getItems(_ id: String, options: CallOptions) throws(DBusError) -> Value {
        guard let app = catalog.withLock({ $0[id] }) else { throw DBusError.unknownApplication(id) }
        let locale = options.locale ?? configuration.locale
        if options.order == .frecency {
            return .array(Self.itemType, usage.ordered(app.items(locale: locale), app: id, limit: options.limit))
        }
        return .array(Self.itemType, app.items(locale: locale, limit: options.limit))
    }

    /// GetAllItems' reply, encoded once per catalog state, locale and limit:
    /// the whole listing is the largest answer the broker gives and changes
    /// only when an app or its items do.
    func allItemsReply(options: CallOptions) throws(DBusError) -> PreparedReply {
        let locale = options.locale ?? configuration.locale
        let (apps, generation) = catalog.withLock { ($0.sorted, $0.generation) }
        if options.order == .frecency {
            // Scores decay with time and change with every Perform: never cached.
            return try PreparedReply([.array(.structure([.string, .array(Self.itemType)]), apps.map { app in
                .structure([.string(app.id), .array(Self.itemType, usage.ordered(app.items(locale: locale), app: app.id,
                                                                                 limit: options.limit))])
            })])
        }
        let key = ListingKey(locale: locale, limit: options.limit)
        if let cached = listingCache.reply(for: key, generation: generation) {
            return cached
        }
        let value = Value.array(.structure([.string, .array(Self.itemType)]), apps.map { app in
            .structure([.string(app.id), .array(Self.itemType, app.items(locale: locale, limit: options.limit))])
        })
        // Kept until the catalog changes: in buffers of its own size (a thousand installed
        // applications' listing is hundreds of kilobytes).
        let prepared = try PreparedReply([value]).compacted()
        listingCache.store(prepared, for: key, generation: generation)
        return prepared
    }

    // MARK: Signals

    /// ItemsChanged for `app`, and PropertiesChanged for its Items unless it was just exported
    /// (`added`): its InterfacesAdded carried them already, and encoding every new app's items a
    /// second time was a quarter of exporting 1,000 installed applications (issue 33 §6).
    func emitItemsChanged(_ app: AppSnapshot, added: Bool = false) {
        do {
            try connection.emit(path: Self.rootPath, interface: Self.interfaceName, member: BrokerAPI.Signal.itemsChanged, [.string(app.id)])
            guard !added else { return }
            try connection.emitPropertiesChanged(path: app.objectPath, interface: Self.applicationInterfaceName, names: [MemberName(stringLiteral: BrokerAPI.Property.items)])
        } catch {
            log(.warning, "cannot announce new items of \(app.id): \(error)")
        }
    }
}
