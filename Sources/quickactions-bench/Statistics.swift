import Glibc

/// CLOCK_MONOTONIC in nanoseconds: the one clock every measurement uses.
@inline(__always)
func monotonicNanoseconds() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
}

/// Percentiles of a set of samples (nearest rank on the sorted samples).
struct Distribution: Sendable {
    let sorted: [Double]

    init(_ samples: [Double]) {
        sorted = samples.sorted()
    }

    var count: Int { sorted.count }

    /// The `p`-th percentile (0...100) by nearest rank; 0 for no samples.
    func percentile(_ p: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }

    var p50: Double { percentile(50) }
    var p99: Double { percentile(99) }
}

/// The median of `values` (the mean of the middle two for an even count); 0 for none.
func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return 0 }
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}
