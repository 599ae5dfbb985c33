import CMapSketchCounters

/// The calling thread's allocation counters (see `AllocationCounters` in the package traits).
struct AllocationSnapshot: Hashable, Sendable {
    var count: UInt64 = 0
    var bytes: UInt64 = 0

    static func - (a: Self, b: Self) -> Self { Self(count: a.count &- b.count, bytes: a.bytes &- b.bytes) }
}

/// Allocation counters: jemalloc's, when the package was built with the `AllocationCounters`
/// trait.
enum AllocationCounters {
    /// Starts the counters; false when they are not built in.
    static func start() -> Bool { mapsketch_counters_start() == 1 }

    /// The calling thread's allocations so far.
    @inline(__always)
    static func read() -> AllocationSnapshot {
        var s = AllocationSnapshot()
        mapsketch_counters_read(&s.count, &s.bytes)
        return s
    }
}
