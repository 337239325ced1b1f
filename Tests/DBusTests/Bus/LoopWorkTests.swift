import DBus
import Dispatch
import Foundation
import QuickActionsTestSupport
import Synchronization
import Testing

/// Work handed to a connection's loop thread from other threads: it runs there, between
/// messages, in the order queued; on the loop thread itself it runs at once.
@Suite struct LoopWorkTests {
    @Test func workFromAnotherThreadRunsOnTheLoopInOrder() async throws {
        let service = try await TestService()
        let client = try service.client()
        let tags = (0..<50).map { "work-\($0)" }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for tag in tags {
                group.addTask {
                    let reply = try await service.call(client, "OnLoop", [.string(tag)])
                    #expect(reply == [.boolean(true)])
                }
            }
            try await group.waitForAll()
        }
        #expect(service.workDone.withLock { $0 }.sorted() == tags.sorted())
    }

    @Test func workQueuedInOrderRunsInOrder() async throws {
        let service = try await TestService()
        let order = Mutex<[Int]>([])
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            for index in 0..<100 {
                service.server.onLoopThread {
                    order.withLock { $0.append(index) }
                    if index == 99 { done.signal() }
                }
            }
        }
        #expect(done.wait(timeout: .now() + .seconds(10)) == .success)
        #expect(order.withLock { $0 } == Array(0..<100))
    }

    /// A loop that stops itself (its connection closed or its bus lost, on the loop thread)
    /// while other work is queued still runs that work: the callers of such work (closing
    /// a peer server or a shared connection from another thread) wait for it, and a broker
    /// told to stop just as its bus went away once waited forever.
    @Test func workQueuedBeforeTheLoopStopsItselfStillRuns() async throws {
        let service = try await TestService()
        let connection = try service.client()
        let running = DispatchSemaphore(value: 0)
        let gate = DispatchSemaphore(value: 0)
        let ran = DispatchSemaphore(value: 0)
        let (first, second) = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                // The first piece holds the loop until the second is queued behind it, then
                // closes the connection, which stops its own loop from the loop thread.
                let first = connection.onLoopThread {
                    running.signal()
                    gate.wait()
                    connection.close()
                }
                running.wait()
                let second = connection.onLoopThread { ran.signal() }
                gate.signal()
                continuation.resume(returning: (first, second))
            }
        }
        #expect(first && second)
        #expect(ran.wait(timeout: .now() + .seconds(10)) == .success)
        let late = await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: connection.onLoopThread {}) }
        }
        #expect(!late)
    }

    @Test func workIsRefusedOnceTheConnectionIsClosed() async throws {
        let service = try await TestService()
        let connection = try service.client()
        connection.close()
        let ran = Atomic<Bool>(false)
        let queued = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: connection.onLoopThread { ran.store(true, ordering: .releasing) })
            }
        }
        #expect(!queued)
        let didRun = ran.load(ordering: .acquiring)
        #expect(!didRun)
    }
}
