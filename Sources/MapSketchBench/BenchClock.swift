import CMapSketchCounters
import Foundation

/// The clock a bench reads around each operation, and how finely it resolves.
///
/// On x86-64 and arm64 it is the CPU's cycle counter (the time-stamp counter, the virtual
/// counter): a few nanoseconds to read, against the tens a clock call costs, converted to
/// nanoseconds by its ratio to the monotonic clock over the whole measurement. Elsewhere it is the
/// monotonic clock itself.
///
/// A counter may advance in steps coarser than one tick: a virtual machine's time-stamp counter
/// often moves in steps of 10 ns. ``resolution`` is the step, measured when the bench starts, so
/// latencies are never reported finer than the clock can see: percentiles are interpolated within
/// the step (``BenchRecorder`` reads a timed operation as lying anywhere within one step of what
/// the counter says), and a kind whose median is below the step is reported as such and gated on
/// its counters only.
package struct BenchClock: Hashable, Sendable {
    /// What is read: `cycle counter` or `monotonic clock`.
    public var source: String
    /// The smallest step the clock takes, in nanoseconds.
    public var resolution: Double

    /// Creates a description of a clock.
    package init(source: String, resolution: Double) {
        self.source = source
        self.resolution = resolution
    }

    /// Whether the cycle counter is read on this platform (decided at compile time).
    static var readsCycleCounter: Bool {
        #if arch(x86_64) || arch(i386) || arch(arm64)
        true
        #else
        false
        #endif
    }

    /// The current tick: the cycle counter, or the monotonic clock in nanoseconds.
    @inline(__always)
    static func ticks() -> UInt64 {
        // Decided at compile time: a call the optimiser cannot see into (the clock) on the hot
        // path would make it retain everything live across it.
        #if arch(x86_64) || arch(i386) || arch(arm64)
        mapsketch_ticks()
        #else
        monotonicNanoseconds()
        #endif
    }

    /// The monotonic clock in nanoseconds.
    static func monotonicNanoseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }

    /// The step of the tick counter, in ticks: the largest step (4 to 256) that every one of a
    /// few thousand intervals of random length is a whole number of, give or take one tick; 1
    /// for a counter that resolves single ticks (steps below 4 cannot be told from jitter and
    /// count as 1).
    /// - Complexity: about a millisecond of spinning.
    static func measureStep() -> UInt64 {
        var deltas: [UInt64] = []
        deltas.reserveCapacity(4096)
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        var sink = 0
        for _ in 0..<4096 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let spins = Int(seed >> 56)  // 0…255
            let t0 = ticks()
            for i in 0..<spins { sink &+= i &* i }
            deltas.append(ticks() &- t0)
        }
        precondition(sink != 1, "keeps the spins")
        let positive = deltas.filter { $0 > 1 }
        guard !positive.isEmpty else { return 1 }
        var best: UInt64 = 1
        for step in 4...256 {
            let s = UInt64(step)
            let onStep = positive.filter { d in
                let r = d % s
                return r <= 1 || r >= s - 1
            }.count
            if onStep == positive.count { best = s }
        }
        return best
    }

    /// Nanoseconds per tick, measured over about `milliseconds` of spinning (1 for the monotonic
    /// clock).
    static func measureNanosecondsPerTick(milliseconds: Double = 5) -> Double {
        guard readsCycleCounter else { return 1 }
        let n0 = monotonicNanoseconds()
        let t0 = ticks()
        var n1 = n0
        while Double(n1 &- n0) < milliseconds * 1e6 { n1 = monotonicNanoseconds() }
        let t1 = ticks()
        return t1 > t0 ? Double(n1 &- n0) / Double(t1 &- t0) : 1
    }
}
