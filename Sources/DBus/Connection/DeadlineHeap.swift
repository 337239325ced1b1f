/// A call's deadline, in DispatchTime's uptime nanoseconds.
public struct Deadline: Sendable {
    public let time: UInt64
    public let id: UInt64

    public init(time: UInt64, id: UInt64) {
        self.time = time
        self.id = id
    }
}

/// A binary min-heap of deadlines.
public struct DeadlineHeap: Sendable {
    private var items: [Deadline] = []

    public init() {}

    public var first: Deadline? { items.first }
    public var count: Int { items.count }

    public mutating func push(_ deadline: Deadline) {
        items.append(deadline)
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard items[child].time < items[parent].time else { break }
            items.swapAt(child, parent)
            child = parent
        }
    }

    public mutating func popFirst() {
        guard !items.isEmpty else { return }
        items.swapAt(0, items.count - 1)
        items.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < items.count && items[left].time < items[smallest].time { smallest = left }
            if right < items.count && items[right].time < items[smallest].time { smallest = right }
            if smallest == parent { return }
            items.swapAt(parent, smallest)
            parent = smallest
        }
    }

    public mutating func removeAll() {
        // Element by element: `removeAll(keepingCapacity:)` goes through the generic
        // `replaceSubrange` (≈ 130 instructions), and this runs after every reply taken while
        // no other call waits, with one deadline in the heap.
        while !items.isEmpty { items.removeLast() }
    }
}
