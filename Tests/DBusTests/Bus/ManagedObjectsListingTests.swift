import DBus
import Dispatch
import Foundation

import QuickActionsTestSupport
import Synchronization
import Testing

/// GetManagedObjects answered off the loop: the loop serves other calls
/// meanwhile, a listing shows one snapshot of its owner's state, no signal
/// emitted after the listing was promised overtakes its reply, and a listing
/// of an unchanged state is sent again without reading it again.
@Suite struct ManagedObjectsListingTests {
    static let manager: ObjectPath = "/org/quickactions/Listing"
    static let interface: InterfaceName = "org.quickactions.Listing1"
    static let name: BusName = "org.quickactions.Listing"

    /// The state a listing reads while one is being read (the owner's task-local binding).
    enum Listed {
        @TaskLocal static var counter: UInt32?
    }

    /// A server with `count` objects below the manager, each with one property `Value` read
    /// by `value` (given the object's index).
    final class Server: Sendable {
        let bus: TestBus
        let connection: Connection

        init(count: Int, snapshot: (@Sendable () -> ObjectManagerSnapshot)?,
             value: @escaping @Sendable (Int) -> UInt32) async throws {
            bus = try await TestBus()
            connection = try Connection(.address(bus.address))
            // The manager is an object of its own (as the broker's root is).
            try connection.export([Interface(ManagedObjectsListingTests.interface)], at: ManagedObjectsListingTests.manager)
            for index in 0..<count {
                try connection.export([Interface(ManagedObjectsListingTests.interface, properties: [
                    Property("Value", type: .uint32) { .uint32(value(index)) },
                ])], at: Self.path(index))
            }
            if let snapshot {
                connection.addObjectManager(at: ManagedObjectsListingTests.manager, snapshot: snapshot)
            } else {
                connection.addObjectManager(at: ManagedObjectsListingTests.manager)
            }
            let reply = try await connection.requestName(ManagedObjectsListingTests.name)
            guard reply == .primaryOwner else { throw TestSupportError("could not own the name: \(reply)") }
        }

        static func path(_ index: Int) -> ObjectPath {
            ManagedObjectsListingTests.manager.appendingEscaped(String(format: "o%04d", index))
        }

        func client() throws -> Connection { try Connection(.address(bus.address)) }

        deinit {
            connection.close()
            bus.stop()
        }
    }

    static func listingMessage() throws -> Message {
        try Message.methodCall(destination: name, path: manager, interface: "org.freedesktop.DBus.ObjectManager",
                               member: "GetManagedObjects")
    }

    /// Each object's `Value` in a GetManagedObjects reply, by path.
    static func values(_ reply: [Value]) -> [String: UInt32] {
        guard case .dictionary(_, _, let objects)? = reply.first else { return [:] }
        var result: [String: UInt32] = [:]
        for object in objects {
            guard case .objectPath(let path) = object.key, case .dictionary(_, _, let interfaces) = object.value,
                  case .dictionary(_, _, let properties)? = interfaces.first?.value,
                  case .variant(.uint32(let value))? = properties.first?.value else { continue }
            result[path.rawValue] = value
        }
        return result
    }

    @Test func everyListingShowsOneSnapshotWhileTheStateKeepsChanging() async throws {
        let counter = Atomic<UInt32>(0)
        // Every object reads the live counter, unless a listing bound its snapshot.
        let server = try await Server(count: 300, snapshot: {
            let now = counter.load(ordering: .acquiring)
            return ObjectManagerSnapshot(version: UInt64(now), read: { body in Listed.$counter.withValue(now) { body() } })
        }, value: { _ in Listed.counter ?? counter.load(ordering: .acquiring) })
        let client = try server.client()
        defer { client.close() }
        let stop = Atomic<Bool>(false)
        let changer = Thread {
            while !stop.load(ordering: .acquiring) {
                counter.add(1, ordering: .releasing)
                usleep(20)
            }
        }
        changer.start()
        defer { stop.store(true, ordering: .releasing) }
        var distinct = Set<UInt32>()
        for _ in 0..<15 {
            let values = Self.values(try await client.call(try Self.listingMessage()).arguments())
            #expect(values.count == 300)
            let seen = Set(values.values)
            #expect(seen.count == 1, "one listing mixed the states \(seen.sorted().prefix(10))")
            distinct.formUnion(seen)
        }
        // The state did change between listings (so the check above could have failed).
        #expect(distinct.count > 1)
    }

    @Test func theLoopAnswersOtherCallsWhileAListingIsRead() async throws {
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let server = try await Server(count: 3, snapshot: nil, value: { index in
            if index == 1 {
                entered.signal()
                // Held here until the test has had its Ping answered.
                _ = release.wait(timeout: .now() + 30)
            }
            return UInt32(index)
        })
        let client = try server.client()
        defer { client.close() }
        let listing = Mutex<Result<Message, DBusError>?>(nil)
        let listed = DispatchSemaphore(value: 0)
        client.call(try Self.listingMessage(), timeout: .seconds(60)) { result in
            listing.withLock { $0 = result }
            listed.signal()
        }
        await Task.detached { _ = entered.wait(timeout: .now() + 30) }.value
        do {
            // The listing is being read (blocked in a getter): Ping on the same object still answers.
            _ = try await client.call(destination: Self.name, path: Server.path(0), interface: "org.freedesktop.DBus.Peer",
                                      member: "Ping", timeout: .seconds(20))
        } catch {
            Issue.record("Ping was not answered while a listing was read: \(error)")
        }
        release.signal()
        await Task.detached { _ = listed.wait(timeout: .now() + 30) }.value
        let reply = try #require(listing.withLock { $0 }).get()
        #expect(Self.values(try reply.arguments()).values.sorted() == [0, 1, 2])
    }

    @Test func aSignalEmittedAfterAListingWasPromisedArrivesAfterItsReply() async throws {
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let server = try await Server(count: 3, snapshot: nil, value: { index in
            if index == 2 {
                entered.signal()
                _ = release.wait(timeout: .now() + 30)
            }
            return UInt32(index)
        })
        let client = try server.client()
        defer { client.close() }
        let order = Mutex<[String]>([])
        let done = DispatchSemaphore(value: 0)
        let subscription = try await client.subscribe(
            MatchRule(path: Self.manager, interface: Self.interface, member: "Changed")
        ) { _ in
            order.withLock { $0.append("signal") }
            done.signal()
        }
        defer { subscription.cancel() }
        client.call(try Self.listingMessage(), timeout: .seconds(60)) { result in
            order.withLock { $0.append((try? result.get()) == nil ? "listing failed" : "reply") }
            done.signal()
        }
        await Task.detached { _ = entered.wait(timeout: .now() + 30) }.value
        // Emitted while the promised listing is still being read: held behind its reply.
        try server.connection.emit(path: Self.manager, interface: Self.interface, member: "Changed")
        release.signal()
        await Task.detached {
            _ = done.wait(timeout: .now() + 30)
            _ = done.wait(timeout: .now() + 30)
        }.value
        #expect(order.withLock { $0 } == ["reply", "signal"])

        // With no listing in flight, a signal goes out at once.
        try server.connection.emit(path: Self.manager, interface: Self.interface, member: "Changed")
        await Task.detached { _ = done.wait(timeout: .now() + 30) }.value
        #expect(order.withLock { $0 } == ["reply", "signal", "signal"])
    }

    @Test func anUnchangedStateIsListedAgainWithoutReadingItAndAChangeIsRead() async throws {
        let reads = Atomic<Int>(0)
        let value = Atomic<UInt32>(1)
        let server = try await Server(count: 4, snapshot: { ObjectManagerSnapshot(version: 7) }, value: { _ in
            reads.add(1, ordering: .relaxed)
            return value.load(ordering: .acquiring)
        })
        let client = try server.client()
        defer { client.close() }
        let first = Self.values(try await client.call(try Self.listingMessage()).arguments())
        #expect(first.values.sorted() == [1, 1, 1, 1])
        #expect(reads.load(ordering: .relaxed) == 4)
        let second = Self.values(try await client.call(try Self.listingMessage()).arguments())
        #expect(second == first)
        #expect(reads.load(ordering: .relaxed) == 4, "an unchanged listing was read again")

        // A change announced with PropertiesChanged makes the next listing read again.
        value.store(2, ordering: .releasing)
        try server.connection.emitPropertiesChanged(path: Server.path(3), interface: Self.interface, names: ["Value"])
        let third = Self.values(try await client.call(try Self.listingMessage()).arguments())
        #expect(third.values.sorted() == [2, 2, 2, 2])
        // A new object, too.
        try server.connection.export([Interface(Self.interface, properties: [
            Property("Value", type: .uint32) { .uint32(9) },
        ])], at: Server.path(4))
        let fourth = Self.values(try await client.call(try Self.listingMessage()).arguments())
        #expect(fourth[Server.path(4).rawValue] == 9 && fourth.count == 5)
    }
}
