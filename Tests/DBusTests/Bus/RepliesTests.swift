@testable import DBus
import Foundation
import Glibc
import QuickActionsTestSupport
import Testing

/// Deferred replies, exactly-once answers, timeouts and NO_REPLY_EXPECTED.
@Suite struct RepliesTests {
    @Test func aDeferredReplyComesFromAnotherThread() async throws {
        let service = try await TestService()
        let client = try service.client()
        let reply = try await service.call(client, "Later", [.uint32(50)])
        #expect(reply == [.string("worker")])
    }

    @Test func aSecondAnswerIsDropped() async throws {
        let service = try await TestService()
        let client = try service.client()
        let reply = try await service.call(client, "Twice")
        #expect(reply == [.string("first")])
        // The second send reports that it was dropped.
        for _ in 0..<200 where service.duplicatesDropped.load(ordering: .relaxed) == 0 {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(service.duplicatesDropped.load(ordering: .relaxed) == 1)
    }

    @Test func anOutgoingCallTimesOut() async throws {
        let service = try await TestService()
        let client = try service.client()
        do {
            _ = try await service.call(client, "Park", timeout: .milliseconds(200))
            Issue.record("a call that is never answered returned")
        } catch {
            #expect(error.name == .noReply)
        }
        // The parked reply, answered late, goes nowhere and breaks nothing.
        service.parked.withLock { $0.forEach { $0.send([]) } }
        #expect(try await service.call(client, "Echo", [.variant(.byte(1))]) == [.variant(.byte(1))])
    }

    @Test func callsFromManyThreadsEachGetTheirOwnReply() async throws {
        let service = try await TestService()
        let client = try service.client()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<200 {
                group.addTask {
                    let reply = try await service.call(client, "Echo", [.variant(.int32(Int32(index)))])
                    #expect(reply == [.variant(.int32(Int32(index)))])
                }
            }
            try await group.waitForAll()
        }
        #expect(service.calls.load(ordering: .relaxed) == 200)
    }

    /// The reply can come in, and the loop thread resume the caller, before
    /// the calling task has suspended. What the reply holds must reach the
    /// task intact all the same; under ThreadSanitizer (`make sanitizers`)
    /// this is the interleaving that once raced (issue 13, item 4).
    @Test func aReplyThatOvertakesTheAwaitIsHandedOverIntact() async throws {
        let service = try await TestService()
        let client = try service.client()
        for index in 0..<3 {
            let message = try Message.methodCall(
                destination: TestService.name, path: TestService.path, interface: TestService.interface,
                member: "Echo")
            try message.append([.variant(.string("overtaken \(index)"))])
            // Holding the caller back after sending lets the loop thread read the
            // reply and resume the continuation before it is awaited.
            let reply = try await client.call(message, timeout: .seconds(10), afterSending: { usleep(100_000) })
            #expect(try reply.arguments() == [.variant(.string("overtaken \(index)"))])
        }
    }

    @Test func blockingCallsWorkOffTheLoopThread() async throws {
        let service = try await TestService()
        let client = try service.client()
        let reply = try client.callBlocking(destination: TestService.name, path: TestService.path,
                                            interface: TestService.interface, member: "Echo",
                                            [.variant(.string("blocking"))])
        #expect(reply == [.variant(.string("blocking"))])
    }

    /// Replies are matched by serial in the connection's filter: a later call with a shorter
    /// timeout expires first while an earlier one still waits, a late answer to an expired
    /// call is dropped, and nothing stays in the table once every call has ended.
    @Test func callsEndInTheirOwnTimeAndLeaveNothingBehind() async throws {
        let service = try await TestService()
        let client = try service.client()
        async let long: Result<[Value], DBusError> = {
            do throws(DBusError) { return .success(try await service.call(client, "Park", timeout: .seconds(30))) }
            catch { return .failure(error) }
        }()
        for _ in 0..<200 where service.parked.withLock({ $0.count }) == 0 {
            try await Task.sleep(for: .milliseconds(10))
        }
        do {
            _ = try await service.call(client, "Park", timeout: .milliseconds(100))
            Issue.record("a call that is never answered returned")
        } catch {
            #expect(error.name == .noReply)
        }
        #expect(client.replies.count == 1, "the 30 s call still waits")
        // Answer both: the first reaches its caller, the second (expired) goes nowhere.
        service.parked.withLock { $0.forEach { $0.send([]) } }
        #expect(try await long.get() == [])
        for index in 0..<500 {
            #expect(try await service.call(client, "Echo", [.variant(.uint32(UInt32(index)))]) == [.variant(.uint32(UInt32(index)))])
        }
        #expect(client.replies.count == 0)
    }

    @Test func noReplyExpectedIsHonoured() async throws {
        let service = try await TestService()
        let monitor = try ManagedProcess("dbus-monitor", ["--address", service.bus.address, "--monitor"],
                                         directory: service.bus.directory, name: "monitor")
        defer { monitor.stop() }
        let client = try service.client()
        // Give the monitor time to attach, proven by it seeing a first call.
        _ = try await service.call(client, "Echo", [.variant(.string("warm-up"))])
        for _ in 0..<500 where !monitor.standardOutput.contains("warm-up") {
            _ = try await service.call(client, "Echo", [.variant(.string("warm-up"))])
            try await Task.sleep(for: .milliseconds(10))
        }
        let message = try Message.methodCall(destination: TestService.name, path: TestService.path,
                                             interface: TestService.interface, member: "Echo")
        try message.append([.variant(.string("silent"))])
        message.noReplyExpected = true
        try client.send(message)
        // A later call's reply proves the silent one was handled first.
        _ = try await service.call(client, "Echo", [.variant(.string("after"))])
        #expect(service.calls.load(ordering: .relaxed) >= 3)
        for _ in 0..<500 where !monitor.standardOutput.contains("\"after\"") {
            try await Task.sleep(for: .milliseconds(10))
        }
        let log = monitor.standardOutput
        let silentSerial = message.serial
        #expect(log.contains("string \"silent\""))
        #expect(!log.contains("reply_serial=\(silentSerial)\n"), "a reply went out for the NO_REPLY_EXPECTED call:\n\(log)")
    }

    @Test func losingTheBusIsReportedNotFatal() async throws {
        let bus = try await TestBus()
        let connection = try Connection(.address(bus.address))
        let lost = AsyncStream<DBusError>.makeStream()
        connection.onDisconnect { error in
            lost.continuation.yield(error)
            lost.continuation.finish()
        }
        bus.stop()
        var iterator = lost.stream.makeAsyncIterator()
        let error = await iterator.next()
        #expect(error?.name == .disconnected)
        #expect(!connection.isConnected)
        do {
            _ = try await connection.call(destination: .bus, path: .bus, interface: .bus, member: "GetId")
            Issue.record("a call on a lost connection succeeded")
        } catch {
            #expect(error.name == .disconnected || error.name == .noReply)
        }
    }
}
