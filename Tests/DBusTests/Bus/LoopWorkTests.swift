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
