import DBus
import Dispatch
import Foundation
import Glibc
import Locking
import QuickActionsTestSupport
import Synchronization
import Testing

/// Peer-to-peer connections without a bus daemon: a ``PeerServer`` beside a bus connection,
/// clients connecting with ``Connection/init(peer:)``, calls both ways, admission by process
/// and user, and disconnection seen on both sides.
@Suite struct PeerConnectionTests {
    static let path: ObjectPath = "/org/quickactions/Peer"
    static let interface: InterfaceName = "org.quickactions.Peer1"

    @Test func aPeerCallsTheServerSideAndTheServerSideCallsThePeer() async throws {
        let fixture = try await PeerFixture()
        let peer = try Connection(peer: fixture.server.address)
        defer { peer.close() }
        try peer.export([Interface(Self.interface, methods: [
            Method("Echo", inputs: TypedArgument("text", String.self), outputs: (TypedArgument("text", String.self))) { (_: CallContext, text: String) -> String in
                text
            },
        ])], at: Self.path)
        let whoami = try await peer.call(destination: nil, path: Self.path, interface: Self.interface, member: "Whoami")
        #expect(whoami == [.int32(getpid())])
        #expect(fixture.admitted.withLock { $0 } == 1)
        let server = try #require(fixture.accepted.withLock { $0.first?.0 })
        #expect(server.peerCredentials?.processID == getpid())
        #expect(server.peerCredentials?.userID == getuid())
        let echoed = try await server.call(destination: nil, path: Self.path, interface: Self.interface,
                                           member: "Echo", [.string("over the peer")])
        #expect(echoed == [.string("over the peer")])
        // The bus connection that shares the loop still serves.
        #expect(try await fixture.owner.call(destination: .bus, path: .bus, interface: .bus, member: "GetId").count == 1)
    }

    @Test func aPeerThatIsNotAllowedIsClosedBeforeItsCallIsHandled() async throws {
        let fixture = try await PeerFixture(allow: { _, _ in false })
        let peer = try Connection(peer: fixture.server.address)
        defer { peer.close() }
        await #expect(throws: DBusError.self) {
            _ = try await peer.call(destination: nil, path: Self.path, interface: Self.interface, member: "Whoami",
                                    timeout: .seconds(10))
        }
        #expect(fixture.accepted.withLock { $0.isEmpty })
    }

    @Test func eachSideSeesThePeerGo() async throws {
        let fixture = try await PeerFixture()
        let peer = try Connection(peer: fixture.server.address)
        _ = try await peer.call(destination: nil, path: Self.path, interface: Self.interface, member: "Whoami")
        let server = try #require(fixture.accepted.withLock { $0.first?.0 })
        let gone = DispatchSemaphore(value: 0)
        server.onDisconnect { _ in gone.signal() }
        peer.close()
        #expect(gone.wait(timeout: .now() + .seconds(10)) == .success)

        // And the other way round: the server side closing ends the peer's connection.
        let second = try Connection(peer: fixture.server.address)
        defer { second.close() }
        _ = try await second.call(destination: nil, path: Self.path, interface: Self.interface, member: "Whoami")
        let lost = DispatchSemaphore(value: 0)
        second.onDisconnect { _ in lost.signal() }
        fixture.accepted.withLock { $0.last?.0 }?.close()
        #expect(lost.wait(timeout: .now() + .seconds(10)) == .success)
    }

    @Test func aCallPendingWhenThePeerGoesFailsAtOnce() async throws {
        let fixture = try await PeerFixture()
        let peer = try Connection(peer: fixture.server.address)
        try peer.export([Interface(Self.interface, methods: [
            Method("Never", outputs: (), deferred: { _, reply in
                // Never answered while the peer is open.
                DispatchQueue.global().asyncAfter(deadline: .now() + 60) { withExtendedLifetime(reply) {} }
            }),
        ])], at: Self.path)
        _ = try await peer.call(destination: nil, path: Self.path, interface: Self.interface, member: "Whoami")
        let server = try #require(fixture.accepted.withLock { $0.first?.0 })
        let started = ContinuousClock.now
        let pending = Task { () -> Result<[Value], DBusError> in
            do throws(DBusError) {
                return .success(try await server.call(
                    destination: nil, path: Self.path, interface: Self.interface, member: "Never", timeout: .seconds(30)))
            } catch {
                return .failure(error)
            }
        }
        try await Task.sleep(for: .milliseconds(200))
        peer.close()
        let outcome = await pending.value
        guard case .failure = outcome else {
            Issue.record("expected the pending call to fail, got \(outcome)")
            return
        }
        #expect(ContinuousClock.now - started < .seconds(10))
    }

    /// libdbus writes a message sent from another thread at once only when no thread is in the
    /// connection's I/O path; while the loop thread is there reading, the message is queued and
    /// libdbus asks the loop to wake (`dbus_connection_set_wakeup_main_function`) without
    /// enabling the write watch. The peer keeps the server side's loop reading most of the
    /// time, and each call the server side sends from a pool thread meanwhile must still go
    /// out and be answered.
    @Test func aMessageSentWhileTheLoopReadsStillGoesOut() async throws {
        let fixture = try await PeerFixture()
        let (peer, server) = try await Self.echoingPeer(of: fixture)
        defer { peer.close() }
        // The server side answers nothing while flooded: a message of its own would write the
        // queued one too.
        let received = Atomic<Int>(0)
        try server.export([Interface(Self.interface, methods: [
            Method("Flood", inputs: TypedArgument("filler", String.self), outputs: ()) { (_: CallContext, _: String) in
                received.add(1, ordering: .relaxed)
            },
        ])], at: "/org/quickactions/Flood")
        let flooding = Atomic<Bool>(true)
        let flooded = DispatchSemaphore(value: 0)
        let flood = Thread {
            defer { flooded.signal() }
            // Calls that want no reply, 16 KiB each, at most 32 ahead of the server side.
            let filler = String(repeating: "x", count: 16384)
            var sent = 0
            while flooding.load(ordering: .relaxed) {
                if sent - received.load(ordering: .relaxed) >= 32 {
                    sched_yield()
                    continue
                }
                guard let message = try? Message.methodCall(
                    destination: nil, path: "/org/quickactions/Flood", interface: Self.interface, member: "Flood")
                else { return }
                try? message.append([.string(filler)])
                message.noReplyExpected = true
                try? peer.send(message)
                sent += 1
            }
        }
        flood.start()
        defer {
            flooding.store(false, ordering: .relaxed)
            flooded.wait()
        }
        // Bounded in count and time; a message left queued fails its call after 20 s.
        let deadline = ContinuousClock.now + .seconds(4)
        for round in 0..<3000 where ContinuousClock.now < deadline {
            let echoed = try await server.call(destination: nil, path: Self.path, interface: Self.interface,
                                               member: "Echo", [.string("round \(round)")], timeout: .seconds(20))
            #expect(echoed == [.string("round \(round)")])
        }
    }

    /// A call made with `sendAndWait` from another thread while the loop thread waits for that
    /// very thread (in the host: a plugin's perform, run on the loop thread, that sets its items
    /// from a thread of its own and waits for it) reads its reply itself; a call that left the
    /// reading to the loop would wait for ever.
    @Test func aBlockingCallOffTheLoopIsAnsweredWhileTheLoopWaitsForIt() async throws {
        let fixture = try await PeerFixture()
        let (peer, server) = try await Self.echoingPeer(of: fixture)
        defer { peer.close() }
        try server.export([Interface(Self.interface, methods: [
            Method("Relay", inputs: TypedArgument("text", String.self), outputs: (TypedArgument("text", String.self))) { [weak server] (_: CallContext, text: String) -> String in
                let answer = Locked<String?>(nil)
                let finished = DispatchSemaphore(value: 0)
                let caller = server
                Thread {
                    defer { finished.signal() }
                    guard let server = caller, let message = try? Message.methodCall(
                        destination: nil, path: Self.path, interface: Self.interface, member: "Echo") else { return }
                    try? message.append([.string(text)])
                    guard let reply = try? server.sendAndWait(message, timeout: .seconds(10)),
                          case .string(let echoed)? = try? reply.arguments().first else { return }
                    answer.withLock { $0 = echoed }
                }.start()
                guard finished.wait(timeout: .now() + .seconds(20)) == .success else { return "(the thread did not finish)" }
                return answer.withLock { $0 } ?? "(no answer)"
            },
        ])], at: "/org/quickactions/Relay")
        let relayed = try await peer.call(destination: nil, path: "/org/quickactions/Relay", interface: Self.interface,
                                          member: "Relay", [.string("through a thread")], timeout: .seconds(40))
        #expect(relayed == [.string("through a thread")])
    }

    /// A peer of the fixture's server that answers Echo, and the server side's connection to it.
    static func echoingPeer(of fixture: PeerFixture) async throws -> (peer: Connection, server: Connection) {
        let peer = try Connection(peer: fixture.server.address)
        do {
            try peer.export([Interface(interface, methods: [
                Method("Echo", inputs: TypedArgument("text", String.self), outputs: (TypedArgument("text", String.self))) { (_: CallContext, text: String) -> String in
                    text
                },
            ])], at: path)
            _ = try await peer.call(destination: nil, path: path, interface: interface, member: "Whoami")
            return (peer, try #require(fixture.accepted.withLock { $0.first?.0 }))
        } catch {
            peer.close()
            throw error
        }
    }

    @Test func manyPeersShareOneLoopThread() async throws {
        let fixture = try await PeerFixture()
        let peers = try (0..<8).map { _ in try Connection(peer: fixture.server.address) }
        defer { peers.forEach { $0.close() } }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for peer in peers {
                group.addTask {
                    for _ in 0..<50 {
                        _ = try await peer.call(destination: nil, path: Self.path, interface: Self.interface, member: "Whoami")
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(fixture.accepted.withLock { $0.count } == 8)
    }
}

/// A bus connection with a peer server beside it, in a 0700 folder of its own.
final class PeerFixture: Sendable {
    let bus: TestBus
    let owner: Connection
    let folder: URL
    let server: PeerServer
    let accepted = Locked<[(Connection, Int32)]>([])
    let admitted = Locked(0)

    init(allow: @escaping @Sendable (Int32, UInt32) -> Bool = { _, uid in uid == getuid() }) async throws {
        bus = try await TestBus()
        owner = try Connection(.address(bus.address))
        folder = try TemporaryDirectory.make(prefix: "qa-peer")
        chmod(folder.path, 0o700)
        let accepted = self.accepted
        let admitted = self.admitted
        server = try PeerServer(
            listeningAt: "unix:path=\(folder.path)/socket", sharing: owner,
            allow: { pid, uid in
                let yes = allow(pid, uid)
                if yes { admitted.withLock { $0 += 1 } }
                return yes
            },
            accepted: { connection, pid in
                try? connection.export([Interface(PeerConnectionTests.interface, methods: [
                    Method("Whoami", outputs: (TypedArgument("pid", Int32.self))) { _ in pid },
                ])], at: PeerConnectionTests.path)
                accepted.withLock { $0.append((connection, pid)) }
            })
    }

    deinit {
        for (connection, _) in accepted.withLock({ $0 }) { connection.close() }
        server.close()
        owner.close()
        bus.stop()
        try? FileManager.default.removeItem(at: folder)
    }
}
