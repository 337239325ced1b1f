import DBus
import Testing
@testable import QuickActionsBroker

@Suite struct DeadlineHeapTests {
    @Test func popsDeadlinesInTimeOrder() {
        var heap = DeadlineHeap()
        var generator = SystemRandomNumberGenerator()
        let times = (0..<500).map { _ in UInt64.random(in: 0..<10_000, using: &generator) }
        for (index, time) in times.enumerated() {
            heap.push(Deadline(time: time, id: UInt64(index)))
        }
        var popped: [UInt64] = []
        while let first = heap.first {
            popped.append(first.time)
            heap.popFirst()
        }
        #expect(popped == times.sorted())
        #expect(heap.count == 0)
    }
}
