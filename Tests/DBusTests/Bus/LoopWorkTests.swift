import DBus
import Dispatch
import Foundation
import QuickActionsTestSupport
import Synchronization
import Testing

/// Work a handler queues with `runAfterCurrentMessage`: it runs on the loop
/// thread after its message, in order, and work that blocks hands the loop
/// to a new thread instead of stalling the connection.
@Suite struct LoopWorkTests {
    @Test func workRunsAfterItsMessageInTheOrderQueued() async throws {
        let service = try await TestService()
        let client = try service.client()
        let tags = (0..<50).map { "work-\($0)" }
        // All in flight at once, so many messages are dispatched back to back.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for tag in tags {
                group.addTask {
                    let reply = try await service.call(client, "AfterMessage", [.string(tag)])
                    #expect(reply == [.boolean(true)])
                }
            }
            try await group.waitForAll()
        }
        let done = service.workDone.withLock { $0 }
        #expect(done.sorted() == tags.sorted())
        // Calls from one connection are dispatched in the order sent, and the
        // work in the order dispatched; concurrent tasks send in any order, so
        // check the order against a strictly sequential second run.
        service.workDone.withLock { $0.removeAll() }
        for tag in tags {
            let message = try Message.methodCall(destination: TestService.name, path: TestService.path,
                                                 interface: TestService.interface, member: "AfterMessage")
            try message.append([.string(tag)])
            client.call(message, timeout: .seconds(10)) { _ in }
        }
        #expect(try await service.call(client, "AfterMessage", [.string("last")]) == [.boolean(true)])
        #expect(service.workDone.withLock { $0 } == tags + ["last"])
    }

    @Test func workIsRefusedOffTheLoopThread() async throws {
        let service = try await TestService()
        #expect(!service.server.runAfterCurrentMessage {})
        let flag = LockedFlag()
        let queued = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: service.server.runAfterCurrentMessage { flag.set() })
            }
        }
        #expect(!queued)
        // Nothing queued runs later either.
        _ = try await service.call(try service.client(), "Echo", [.variant(.byte(1))])
        #expect(!flag.isSet)
    }

    @Test func blockedWorkHandsTheLoopToAnotherThread() async throws {
        let service = try await TestService()
        let client = try service.client()
        async let released = service.call(client, "BlockAfterMessage", timeout: .seconds(60))
        #expect(await waitUntil { service.isBlocking }, "the work started blocking")

        // The connection keeps serving while the work blocks: plain calls,
        // more work (run by the new loop thread), and a blocking call made
        // from another thread.
        for round in 0..<3 {
            #expect(try await service.call(client, "Echo", [.variant(.int32(Int32(round)))])
                == [.variant(.int32(Int32(round)))])
            #expect(try await service.call(client, "AfterMessage", [.string("during-\(round)")]) == [.boolean(true)])
        }
        #expect(service.workDone.withLock { $0 } == ["during-0", "during-1", "during-2"])
        #expect(service.isBlocking, "the blocked work was not released")

        service.unblock.signal()
        #expect(try await released == [.boolean(true)])
        #expect(try await service.call(client, "AfterMessage", [.string("after")]) == [.boolean(true)])
        #expect(try await service.call(client, "Echo", [.variant(.string("after"))]) == [.variant(.string("after"))])
    }

    @Test func closingDoesNotWaitForBlockedWork() async throws {
        let service = try await TestService()
        let client = try service.client()
        client.call(try Message.methodCall(destination: TestService.name, path: TestService.path,
                                           interface: TestService.interface, member: "BlockAfterMessage"),
                    timeout: .seconds(60)) { _ in }
        #expect(await waitUntil { service.isBlocking }, "the work started blocking")
        let closed = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            service.server.close()
            closed.signal()
        }
        let waited = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: closed.wait(timeout: .now() + .seconds(10)))
            }
        }
        #expect(waited == .success, "close() waited for work that blocks")
        service.unblock.signal()
        #expect(await waitUntil { !service.isBlocking })
    }
}

/// Polls `condition` every 10 ms for up to 10 s.
private func waitUntil(_ condition: () -> Bool) async -> Bool {
    for _ in 0..<1000 {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return condition()
}

private final class LockedFlag: Sendable {
    private let value = Mutex(false)
    func set() { value.withLock { $0 = true } }
    var isSet: Bool { value.withLock { $0 } }
}
