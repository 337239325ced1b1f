import DBus
import Testing

/// Signals, NameOwnerChanged, Properties and ObjectManager through our own client.
@Suite struct SignalsAndPropertiesTests {
    @Test func aSubscriberReceivesEmittedSignals() async throws {
        let service = try await TestService()
        let client = try service.client()
        let received = AsyncStream<String>.makeStream()
        let subscription = try await client.subscribe(
            MatchRule(path: TestService.path, interface: TestService.interface, member: "Changed")
        ) { message in
            if case .string(let text)? = try? message.arguments().first {
                received.continuation.yield(text)
            }
        }
        _ = try await service.call(client, "Emit", [.string("one")])
        _ = try await service.call(client, "Emit", [.string("two")])
        var iterator = received.stream.makeAsyncIterator()
        #expect(await iterator.next() == "one")
        #expect(await iterator.next() == "two")
        subscription.cancel()
    }

    @Test func nameOwnerChangedReportsADepartedPeer() async throws {
        let service = try await TestService()
        let watcher = try service.client()
        let departed = AsyncStream<String>.makeStream()
        let peer = try service.client()
        let peerName = peer.uniqueName
        let subscription = try await watcher.watchNameOwners(arg0: peerName) { name, _, newOwner in
            if newOwner.isEmpty { departed.continuation.yield(name) }
        }
        peer.close()
        var iterator = departed.stream.makeAsyncIterator()
        #expect(await iterator.next() == peerName)
        subscription.cancel()
    }

    @Test func propertiesGetGetAllSetAndPropertiesChanged() async throws {
        let service = try await TestService()
        let client = try service.client()
        let changes = AsyncStream<[Value]>.makeStream()
        let subscription = try await client.subscribe(
            MatchRule(path: TestService.path, interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged")
        ) { message in
            if let values = try? message.arguments() { changes.continuation.yield(values) }
        }
        let properties: InterfaceName = "org.freedesktop.DBus.Properties"
        let interface = Value.string(TestService.interface.rawValue)
        #expect(try await service.call(client, "Get", [interface, .string("Label")], interface: properties)
                == [.variant(.string("initial"))])
        _ = try await service.call(client, "Set", [interface, .string("Label"), .variant(.string("renamed"))],
                                   interface: properties)
        #expect(try await service.call(client, "Get", [interface, .string("Label")], interface: properties)
                == [.variant(.string("renamed"))])
        let all = try await service.call(client, "GetAll", [interface], interface: properties)
        guard case .dictionary(_, _, let entries)? = all.first else {
            Issue.record("GetAll returned \(all)")
            return
        }
        #expect(Set(entries.compactMap { $0.key.string }) == ["Label", "Calls", "Kind"])
        var iterator = changes.stream.makeAsyncIterator()
        let change = await iterator.next()
        #expect(change == [interface,
                           .dictionary(key: .string, value: .variant, [DictionaryEntry(.string("Label"), .variant(.string("renamed")))]),
                           .array(.string, [])])
        // A setter's own error reaches the caller.
        do {
            _ = try await service.call(client, "Set", [interface, .string("Label"), .variant(.string(""))],
                                       interface: properties)
            Issue.record("an empty label was accepted")
        } catch {
            #expect(error.name == .invalidArgs)
            #expect(error.message.contains("Label"))
        }
        subscription.cancel()
    }

    @Test func objectManagerListsAndAnnouncesObjects() async throws {
        let service = try await TestService()
        let client = try service.client()
        let announcements = AsyncStream<String>.makeStream()
        let subscription = try await client.subscribe(
            MatchRule(path: TestService.path, interface: "org.freedesktop.DBus.ObjectManager")
        ) { message in
            let first = (try? message.arguments())?.first.map { "\($0)" } ?? ""
            announcements.continuation.yield("\(message.member?.rawValue ?? "") \(first)")
        }
        let item: InterfaceName = "org.quickactions.TestItem1"
        let childPath: ObjectPath = "/org/quickactions/Test/items/first"
        let interface = Interface(item, properties: [Property("Title", type: .string, get: { .string("First") })])
        try service.server.export([interface], at: childPath)

        let managed = try await service.call(client, "GetManagedObjects", interface: "org.freedesktop.DBus.ObjectManager")
        let expected = Value.dictionary(key: .objectPath, value: .dictionary(key: .string, value: .dictionary(key: .string, value: .variant)), [
            DictionaryEntry(.objectPath(childPath), .dictionary(key: .string, value: .dictionary(key: .string, value: .variant), [
                DictionaryEntry(.string(item.rawValue), .dictionary(key: .string, value: .variant, [
                    DictionaryEntry(.string("Title"), .variant(.string("First"))),
                ])),
            ])),
        ])
        #expect(managed == [expected])
        try service.server.unexport(childPath)
        var iterator = announcements.stream.makeAsyncIterator()
        #expect(await iterator.next()?.hasPrefix("InterfacesAdded") == true)
        #expect(await iterator.next()?.hasPrefix("InterfacesRemoved") == true)
        subscription.cancel()
    }
}

