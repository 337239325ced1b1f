import DBus
import Foundation
import QuickActionsAPI
import QuickActionsTestSupport
import Testing

/// Item ids end to end: every reply that carries items has them, they stay put, and Perform's
/// `item-id` reaches exactly that item, checked with busctl, gdbus and python3's dbus.
@Suite struct ItemIdentityTests {
    static let app = "org.example.ids"
    static let bundle = TestBundle(
        appID: app, library: "QATestSwiftPlugin", name: "Ids",
        items: [TestBundle.item("publish", "Publish"), TestBundle.item("show-static", "Static")])

    /// Has the plugin publish `items` (type, title, optional id, user info name).
    static func publish(
        _ client: Connection, _ items: [(type: String, title: String, id: String?, name: String)]
    ) async throws -> PerformOutcome {
        let list = items.map { item -> Value in
            var fields = [
                DictionaryEntry(.string("type"), .variant(.string(item.type))),
                DictionaryEntry(.string("title"), .variant(.string(item.title))),
                DictionaryEntry(.string("user-info"), .variant(.dictionary(key: .string, value: .variant, [
                    DictionaryEntry(.string("Name"), .variant(.string(item.name))),
                ]))),
            ]
            if let id = item.id { fields.append(DictionaryEntry(.string("id"), .variant(.string(id)))) }
            return .variant(.dictionary(key: .string, value: .variant, fields))
        }
        let arguments = Value.dictionary(key: .string, value: .variant, [
            DictionaryEntry(.string("items"), .variant(.array(.variant, list))),
        ])
        return try await BrokerProxy(connection: client).perform(
            appID: app, type: "publish", itemID: nil, arguments: arguments)
    }

    static let favorites: [(type: String, title: String, id: String?, name: String)] = [
        ("show-fav", "Ada", nil, "Ada"), ("show-fav", "Bob", nil, "Bob"), ("show-fav", "Cy", nil, "Cy"),
    ]

    /// (id, type, title) of each item busctl lists for the app.
    static func busctlItems(_ harness: BrokerHarness) async throws -> [(id: String, type: String, title: String)] {
        let reply = try BusctlReply(try await harness.call("GetItems", "sa{sv}", [app, "0"]))
        return try (reply.data.first as? [Any] ?? []).map { element in
            guard let item = ItemJSON(element), let id = item.string("id"), let type = item.string("type"),
                  let title = item.string("title") else {
                throw TestSupportError("busctl listed an item without id, type and title: \(element)")
            }
            return (id, type, title)
        }
    }

    @Test func theSecondOfThreeItemsOfOneTypeIsPerformedByItsId() async throws {
        let harness = try await BrokerHarness(bundles: [Self.bundle])
        let client = try Connection(.address(harness.bus.address))
        defer { client.close() }
        #expect(try await Self.publish(client, Self.favorites).message == "set 3 items")
        let listed = try await Self.busctlItems(harness)
        #expect(listed.map(\.type) == ["publish", "show-static", "show-fav", "show-fav", "show-fav"])
        #expect(listed.map(\.id).prefix(2) == ["publish", "show-static"])
        #expect(Set(listed.map(\.id)).count == 5, "ids must be unique: \(listed)")
        let bob = listed[3]
        #expect(bob.id.hasPrefix("show-fav#"))

        // busctl, with item-id: exactly Bob.
        let performed = try BusctlReply(try await harness.call(
            "Perform", "ssa{sv}", [Self.app, "show-fav", "1", "item-id", "s", bob.id]))
        let fields = performed.data.last as? [String: Any]
        #expect((fields?["message"] as? [String: Any])?["data"] as? String == "performed \(bob.id) Bob Name=Bob")

        // gdbus too; and without item-id, v1 behaviour: the first item of the type.
        let gdbus = try await Command.run("gdbus", [
            "call", "--address", harness.bus.address, "--dest", BrokerAPI.busName.rawValue,
            "--object-path", BrokerAPI.rootPath.rawValue, "--method", "org.quickactions.Broker1.Perform",
            Self.app, "show-fav", "{'item-id': <'\(listed[4].id)'>}",
        ], timeout: .seconds(30))
        #expect(gdbus.status == 0, "\(gdbus)")
        #expect(gdbus.stdout.contains("performed \(listed[4].id) Cy Name=Cy"), "\(gdbus.stdout)")
        let byType = try await BrokerProxy(connection: client).perform(appID: Self.app, type: "show-fav", itemID: nil)
        #expect(byType.message == "performed \(listed[2].id) Ada Name=Ada")
    }

    @Test func aStaleIdOrAWrongTypeIsUnknownItemAndNeverAnotherItem() async throws {
        let harness = try await BrokerHarness(bundles: [Self.bundle])
        let client = try Connection(.address(harness.bus.address))
        defer { client.close() }
        _ = try await Self.publish(client, Self.favorites)
        let bob = try await Self.busctlItems(harness)[3].id
        _ = try await Self.publish(client, [Self.favorites[0], Self.favorites[2]])
        let proxy = BrokerProxy(connection: client)
        await #expect {
            _ = try await proxy.perform(appID: Self.app, type: "show-fav", itemID: bob)
        } throws: { error in
            let error = error as? DBusError
            return error?.name == BrokerAPI.ErrorNames.unknownItem && error?.message.contains(bob) == true
        }
        await #expect {
            _ = try await proxy.perform(appID: Self.app, type: "show-static", itemID: "publish")
        } throws: { error in
            (error as? DBusError)?.message
                == "application \"org.example.ids\"'s item with id \"publish\" has type \"publish\", not \"show-static\""
        }
    }

    @Test func idsAreTheSameInEveryReplyAcrossRepublishesAndRestarts() async throws {
        let harness = try await BrokerHarness(bundles: [Self.bundle])
        let client = try Connection(.address(harness.bus.address))
        defer { client.close() }
        _ = try await Self.publish(client, Self.favorites)
        let first = try await Self.busctlItems(harness)

        // python3's dbus reads GetItems, GetAllItems, the Items property and GetManagedObjects.
        let script = """
            import dbus, json, sys
            bus = dbus.bus.BusConnection(sys.argv[1])
            root = bus.get_object('org.quickactions.Broker1', '/org/quickactions/Broker1')
            broker = dbus.Interface(root, 'org.quickactions.Broker1')
            ids = lambda items: [str(i['id']) for i in items]
            out = {'GetItems': ids(broker.GetItems(sys.argv[2], {}))}
            out['GetAllItems'] = [ids(items) for app, items in broker.GetAllItems({}) if app == sys.argv[2]][0]
            path = '/org/quickactions/Broker1/apps/' + sys.argv[2].replace('.', '_2e')
            app = bus.get_object('org.quickactions.Broker1', path)
            out['Items'] = ids(app.Get('org.quickactions.Application1', 'Items',
                                        dbus_interface='org.freedesktop.DBus.Properties'))
            objects = dbus.Interface(root, 'org.freedesktop.DBus.ObjectManager').GetManagedObjects()
            out['GetManagedObjects'] = ids(objects[path]['org.quickactions.Application1']['Items'])
            print(json.dumps(out))
            """
        let python = try await Command.run("/usr/bin/python3", ["-c", script, harness.bus.address, Self.app],
                                           timeout: .seconds(30))
        #expect(python.status == 0, "\(python)")
        let replies = try JSONSerialization.jsonObject(with: Data(python.stdout.utf8)) as? [String: [String]] ?? [:]
        #expect(replies.count == 4)
        for (method, ids) in replies {
            #expect(ids == first.map(\.id), "\(method)")
        }

        // Republished in another order, each favorite keeps its id.
        _ = try await Self.publish(client, Self.favorites.reversed())
        let republished = try await Self.busctlItems(harness)
        #expect(Dictionary(uniqueKeysWithValues: republished.map { ($0.title, $0.id) })
                == Dictionary(uniqueKeysWithValues: first.map { ($0.title, $0.id) }))
        // After a restart (kill -9: a clean stop would run the plugin's will-resign, which
        // replaces its items), read from the store before the plugin loads: the same ids.
        try await harness.restart(killing: true)
        let restarted = try await Self.busctlItems(harness)
        #expect(restarted.map(\.id) == republished.map(\.id))
    }

    @Test func givenIdsAreKeptAndTwoEqualOnesRefuseTheList() async throws {
        let harness = try await BrokerHarness(bundles: [Self.bundle])
        let client = try Connection(.address(harness.bus.address))
        defer { client.close() }
        let given: [(type: String, title: String, id: String?, name: String)] = [
            ("show-fav", "Ada", "contact-1", "Ada"), ("show-fav", "Bob", "contact-2", "Bob"),
        ]
        #expect(try await Self.publish(client, given).success)
        #expect(try await Self.busctlItems(harness).map(\.id).suffix(2) == ["contact-1", "contact-2"])
        let performed = try await BrokerProxy(connection: client).perform(
            appID: Self.app, type: "show-fav", itemID: "contact-2")
        #expect(performed.message == "performed contact-2 Bob Name=Bob")

        let clash = try await Self.publish(client, given + [("show-fav", "Cy", "contact-1", "Cy")])
        #expect(!clash.success)
        #expect(clash.message?.contains("items 0 and 2 have the same id \"contact-1\"") == true, "\(clash)")
        let onStatic = try await Self.publish(client, [("show-fav", "Ada", "publish", "Ada")])
        #expect(onStatic.message?.contains("item 0: id \"publish\" is the id of a static item") == true, "\(onStatic)")
        // Refused lists change nothing.
        #expect(try await Self.busctlItems(harness).map(\.id).suffix(2) == ["contact-1", "contact-2"])
    }

    @Test func aSecondStaticItemOfOneTypeIsSkippedNamingBothIndices() async throws {
        let twice = TestBundle(
            appID: "org.example.twice", name: "Twice",
            items: [TestBundle.item("a", "First"), TestBundle.item("b", "B"), TestBundle.item("a", "Second")])
        let harness = try await BrokerHarness(bundles: [twice])
        let reply = try BusctlReply(try await harness.call("GetItems", "sa{sv}", ["org.example.twice", "0"]))
        let titles = (reply.data.first as? [Any] ?? []).compactMap { ItemJSON($0)?.string("title") }
        #expect(titles == ["First", "B"])
        #expect(harness.log.contains("UIApplicationShortcutItems[2] skipped: its type \"a\" is already that of "
                                     + "UIApplicationShortcutItems[0]"), "\(harness.log)")
    }

    /// In both modes: a 1.0 plugin gets the host's requests (request_id and all) and ignores
    /// what it does not know.
    @Test(arguments: [TestPluginHost.hostsOnly, ["--plugin-host", "in-process"]])
    func aPluginBuiltForABI10HasItsItemsIdentifiedAndPerformedByID(_ mode: [String]) async throws {
        let old = TestBundle(
            appID: "org.example.abi10", library: "QATestABI10", name: "Old",
            items: [TestBundle.item("publish", "Publish")])
        let harness = try await BrokerHarness(bundles: [old], arguments: mode)
        let client = try Connection(.address(harness.bus.address))
        defer { client.close() }
        let proxy = BrokerProxy(connection: client)
        #expect(try await proxy.perform(appID: "org.example.abi10", type: "publish", itemID: nil).message == "published")
        let items = try await proxy.items(of: "org.example.abi10")
        #expect(items.map(\.title) == ["Publish", "Ada", "Bob"])
        let bob = try #require(items.last)
        #expect(bob.id == ItemIdentityTests.derivedLooking(bob.id, type: "pick"))
        #expect(items[1].id != bob.id)
        // Repeated and interleaved: the kept requests each stay their own item's.
        for (name, id) in [("Bob", bob.id), ("Bob", bob.id), ("Ada", items[1].id), ("Bob", bob.id)] {
            let picked = try await proxy.perform(appID: "org.example.abi10", type: "pick", itemID: id)
            #expect(picked.message == "picked \(name) \(id)")
        }
    }

    /// `id` when it has the derived form `<type>#<16 hex digits>`, else a note saying it has not.
    static func derivedLooking(_ id: String, type: String) -> String {
        let hex = id.dropFirst(type.count + 1)
        guard id.hasPrefix(type + "#"), hex.count == 16, hex.allSatisfy(\.isHexDigit) else { return "not derived: \(id)" }
        return id
    }
}
