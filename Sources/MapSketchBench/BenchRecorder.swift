import MapSketchReplay
import CMapSketchCounters
import Foundation
import Histogram
import MapSketch

/// The figures of one operation kind in one measured run (latencies in clock ticks until the run
/// ends, then in nanoseconds).
struct BenchKindRun: Hashable, Sendable {
    var count = 0
    var totalTicks: UInt64 = 0
    var totalNanoseconds: UInt64 = 0
    var p50: UInt64 = 0
    var p90: UInt64 = 0
    var p99: UInt64 = 0
    var max: UInt64 = 0
    var allocations: UInt64 = 0
    var bytes: UInt64 = 0
    /// Operations whose latency was read (all, or a sample: ``BenchTiming``).
    var timed = 0
}

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

/// A monotonic clock in nanoseconds.
@inline(__always)
func monotonicNanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
}

/// How often `mapsketch bench` reads the clock around an operation.
public enum BenchTiming: Hashable, Sendable {
    /// Every operation is timed.
    case everyOperation
    /// Every `n`-th operation of each kind is timed (counts and allocations stay exact for all).
    case every(Int)
    /// Per kind, from the run before: slow operations are all timed; fast ones every `n`-th, with
    /// `n` chosen so that reading the clock costs at most ``BenchRecorder/timingBudget`` of the
    /// kind's time, keeping at least ``BenchRecorder/minimumTimedPerRun`` timed operations per run
    /// (the default).
    case automatic
}

/// Measures the operations of a replay: the probe the bench installs in the map (the model's
/// own operations) and the timer the session wraps around calls and GPS stages.
///
/// Every operation is counted and its allocations are counted exactly (the difference of the
/// thread's counters around it). Its latency is read from the CPU's cycle counter (a few
/// nanoseconds a read, where a clock call costs tens), converted to nanoseconds by the ratio of
/// the monotonic clock to the counter over everything measured so far — for every operation, or,
/// by default, for a deterministic sample of each fast kind (every `n`-th; see ``BenchTiming``),
/// because two counter reads cost as much as a short operation itself. The timed latencies are
/// kept in a fixed buffer; after the run the run's percentiles are read from them sorted (exact),
/// and they go into each kind's HDR histogram for the trace (3 significant digits). The recorder
/// allocates nothing and calls nothing opaque while a run is measured.
@MainActor
final class BenchRecorder {
    /// Whether allocations are counted.
    let countsAllocations: Bool
    /// Under callgrind: no clock, no counters; each operation runs in its kind's named function
    /// so the instruction counts can be attributed (``BenchRegion``).
    let underCallgrind: Bool
    /// Which operations are timed.
    let timing: BenchTiming

    /// The share of a kind's time that timing it may cost, under ``BenchTiming/automatic``.
    static let timingBudget = 0.02
    /// The fewest timed operations per run a kind keeps under ``BenchTiming/automatic`` (when it
    /// has that many).
    static let minimumTimedPerRun = 200
    /// The longest stride under ``BenchTiming/automatic``.
    static let maximumStride = 64
    /// Timed latencies kept per run for its percentiles (8 MiB; only what a run fills becomes
    /// resident). A run that times more operations than this — over a million, or 64 million
    /// operations of a sampled kind — has its later latencies in its mean but not its percentiles.
    static let sampleCapacity = 1 << 20

    /// One kind's figures in the run in progress.
    struct Accumulator {
        var count = 0
        var timed = 0
        var totalTicks: UInt64 = 0
        var allocations: UInt64 = 0
        var bytes: UInt64 = 0
        /// Operations left before the next timed one (1: the next is timed).
        var countdown = 1
        /// Every `stride`-th operation is timed.
        var stride = 1
    }

    /// Per kind (by ordinal), made once: plain memory, so the hot path has no copy-on-write or
    /// exclusivity checks.
    private let accumulators: UnsafeMutablePointer<Accumulator>
    /// Timed latencies not yet in the histograms: the kind's ordinal in the top 8 bits, ticks below.
    private let samples: UnsafeMutablePointer<UInt64>
    @exclusivity(unchecked) private var sampleCount = 0

    private var traceHistograms: [Histogram<UInt64>]
    /// The finished runs of the current trace, each with every kind's figures.
    private(set) var runs: [[BenchKindRun]] = []
    /// Results the bench computes only to time them are folded in here, so the optimiser keeps
    /// the computation.
    @exclusivity(unchecked) private(set) var sink = 0

    /// Whether the cycle counter works here (else ticks are monotonic-clock nanoseconds).
    private let cycleCounter: Bool
    /// Where the tick-to-nanosecond calibration started: (ticks, nanoseconds).
    private let calibrationStart: (ticks: UInt64, ns: UInt64)
    /// Nanoseconds per tick, from the calibration so far.
    private var nanosecondsPerTick = 1.0
    /// What timing one operation costs, in ticks (two counter reads and the buffering).
    private let timingCost: Double

    /// A recorder; `countsAllocations` only when the counters started.
    init(countsAllocations: Bool, underCallgrind: Bool = false, timing: BenchTiming = .automatic) {
        self.countsAllocations = countsAllocations
        self.underCallgrind = underCallgrind
        self.timing = timing
        #if arch(x86_64) || arch(i386) || arch(arm64)
        cycleCounter = true
        #else
        cycleCounter = false
        #endif
        calibrationStart = (cycleCounter ? mapsketch_ticks() : 0, monotonicNanoseconds())
        // 1 tick to 10¹² ticks (over 100 s at any clock rate): bigger values are clamped.
        let empty = Histogram<UInt64>(lowestDiscernibleValue: 1, highestTrackableValue: Self.maxTicks, numberOfSignificantValueDigits: .three)
        let kinds = BenchOperation.allCases.count
        traceHistograms = Array(repeating: empty, count: kinds)
        accumulators = .allocate(capacity: kinds)
        accumulators.initialize(repeating: Accumulator(), count: kinds)
        samples = .allocate(capacity: Self.sampleCapacity)
        timingCost = Self.measureTimingCost(cycleCounter: cycleCounter)
        startRun()
    }

    isolated deinit {
        accumulators.deallocate()
        samples.deallocate()
    }

    static let maxTicks: UInt64 = 1_000_000_000_000
    private static let ticksMask: UInt64 = (1 << 56) - 1

    /// The current tick.
    @inline(__always)
    private func ticks() -> UInt64 {
        // Decided at compile time: a call the optimiser cannot see into (the clock) on the hot
        // path would make it retain everything live across it.
        #if arch(x86_64) || arch(i386) || arch(arm64)
        mapsketch_ticks()
        #else
        monotonicNanoseconds()
        #endif
    }

    /// The ticks a pair of tick reads costs (the least of a few thousand tries).
    private static func measureTimingCost(cycleCounter: Bool) -> Double {
        let read: () -> UInt64 = cycleCounter ? { mapsketch_ticks() } : { monotonicNanoseconds() }
        var best = UInt64.max
        for _ in 0..<64 {
            let t0 = read()
            for _ in 0..<32 { _ = read() }
            best = Swift.min(best, read() &- t0)
        }
        return Double(best) / 17  // 34 reads: 17 pairs
    }

    /// Runs `body` as one `operation` and records it.
    @inline(__always)
    func measure<Result, Failure: Error>(_ operation: BenchOperation, _ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        if underCallgrind { return try runWrapped({ BenchRegion.operation(operation, $0) }, body) }
        let k = operation.ordinal
        let mark = begin(k)
        defer { end(k, mark) }
        return try body()
    }

    /// Notes the start of an `operation` run between this and ``end(_:_:)-swift.method`` (not
    /// inside a closure: a closure the optimiser must keep retains what it captures). Under
    /// callgrind use ``measure(_:_:)-swift.method``, which runs the operation in its kind's
    /// function.
    @inline(__always)
    func begin(_ operation: BenchOperation) -> Mark { begin(operation.ordinal) }

    /// Records the `operation` that began at `mark`.
    @inline(__always)
    func end(_ operation: BenchOperation, _ mark: Mark) { end(operation.ordinal, mark) }

    /// What ``begin(_:)-swift.method`` noted.
    struct Mark {
        var ticks: UInt64
        var allocations: AllocationSnapshot
        var timed: Bool
    }

    /// Notes the start of an operation of kind `k`: the allocation counters, and the tick when
    /// this one is timed.
    @inline(__always)
    private func begin(_ k: Int) -> Mark {
        let a0 = countsAllocations ? AllocationCounters.read() : AllocationSnapshot()
        let timed = accumulators[k].countdown <= 1
        return Mark(ticks: timed ? ticks() : 0, allocations: a0, timed: timed)
    }

    /// Records an operation of kind `k` that began at `mark`.
    @inline(__always)
    private func end(_ k: Int, _ mark: Mark) {
        let t1 = mark.timed ? ticks() : 0
        let a = accumulators + k
        if mark.timed {
            a.pointee.countdown = a.pointee.stride
            addSample(k, t1 &- mark.ticks)
        } else {
            a.pointee.countdown -= 1
        }
        if countsAllocations {
            let d = AllocationCounters.read() - mark.allocations
            a.pointee.allocations &+= d.count
            a.pointee.bytes &+= d.bytes
        }
        a.pointee.count += 1
    }

    /// Keeps a result that is computed only to be timed.
    func keep(_ value: Int) { sink &+= value }

    /// Under callgrind the model's operations run inside the kinds' named functions.
    var wrapsOperations: Bool { underCallgrind }
    @inline(__always)
    private func addSample(_ k: Int, _ t: UInt64) {
        let a = accumulators + k
        a.pointee.timed += 1
        a.pointee.totalTicks &+= t
        guard sampleCount < Self.sampleCapacity else { return }
        samples[sampleCount] = UInt64(truncatingIfNeeded: k) << 56 | Swift.min(t, Self.ticksMask)
        sampleCount += 1
    }

    /// Sets every kind's counters to zero and its timing stride for the next run.
    private func startRun() {
        for k in 0..<BenchOperation.allCases.count {
            let a = accumulators + k
            let stride = nextStride(a.pointee)
            a.pointee = Accumulator(countdown: 1, stride: stride)
        }
        sampleCount = 0
    }

    /// The stride of a kind's next run, from its figures in the run that just ended.
    private func nextStride(_ a: Accumulator) -> Int {
        switch timing {
        case .everyOperation: return 1
        case .every(let n): return Swift.max(1, n)
        case .automatic:
            guard a.timed > 0, a.totalTicks > 0 else { return 1 }
            let mean = Double(a.totalTicks) / Double(a.timed)
            let wanted = (timingCost / (Self.timingBudget * mean)).rounded(.up)
            let byCount = Swift.max(1, a.count / Self.minimumTimedPerRun)
            return Swift.max(1, Swift.min(Int(Swift.min(wanted, Double(Self.maximumStride))), byCount))
        }
    }

    /// Ends a measured run: its per-kind percentiles are taken (exactly, from its sorted
    /// latencies) and its latencies go into the trace's histograms.
    func endRun() {
        runs.append(finishRun())
        startRun()
    }

    /// Ends a run of operations measured apart from the replay whose figures are in measured
    /// run `index` (`gps.read`): its kinds' figures are added to that run's.
    func endRun(mergingInto index: Int) {
        let extra = finishRun()
        if runs.indices.contains(index) {
            for k in extra.indices where extra[k].count > 0 { runs[index][k] = extra[k] }
        }
        startRun()
    }

    /// The figures of the run in progress, its latencies folded into the trace's histograms.
    private func finishRun() -> [BenchKindRun] {
        calibrate()
        var current = Array(repeating: BenchKindRun(), count: BenchOperation.allCases.count)
        for k in current.indices {
            let a = accumulators[k]
            guard a.count > 0 else { continue }
            current[k].count = a.count
            current[k].timed = a.timed
            current[k].totalTicks = a.totalTicks
            current[k].allocations = a.allocations
            current[k].bytes = a.bytes
            current[k].totalNanoseconds = nanoseconds(a.totalTicks)
        }
        // Sorted, the buffer holds each kind's latencies in one ascending range (the kind is in
        // the top bits).
        var buffer = UnsafeMutableBufferPointer(start: samples, count: sampleCount)
        buffer.sort()
        var i = 0
        while i < buffer.count {
            let k = Int(buffer[i] >> 56)
            var j = i
            while j < buffer.count && Int(buffer[j] >> 56) == k {
                _ = traceHistograms[k].record(Swift.min(Swift.max(buffer[j] & Self.ticksMask, 1), Self.maxTicks))
                j += 1
            }
            let n = j - i
            func at(_ percentile: Double) -> UInt64 {
                // The smallest latency with at least `percentile` % of the run's at or below it.
                let rank = Swift.max(1, Int((percentile / 100 * Double(n)).rounded(.up)))
                return nanoseconds(buffer[i + rank - 1] & Self.ticksMask)
            }
            current[k].p50 = at(50)
            current[k].p90 = at(90)
            current[k].p99 = at(99)
            current[k].max = at(100)
            i = j
        }
        return current
    }

    /// Updates the tick-to-nanosecond ratio from the time since the recorder was made.
    private func calibrate() {
        guard cycleCounter else { return }
        let dt = mapsketch_ticks() &- calibrationStart.ticks
        let dns = monotonicNanoseconds() &- calibrationStart.ns
        if dt > 0 && dns > 0 { nanosecondsPerTick = Double(dns) / Double(dt) }
    }

    private func nanoseconds(_ t: UInt64) -> UInt64 {
        cycleCounter ? UInt64((Double(t) * nanosecondsPerTick).rounded()) : t
    }

    /// Forgets the run in progress (a warm-up run); its timings still choose the next run's
    /// timing strides.
    func discardRun() {
        startRun()
    }

    /// The per-kind results of the trace's measured runs, for the kinds that occurred; then the
    /// recorder is ready for the next trace.
    func finishTrace() -> [BenchKindResult] {
        var out: [BenchKindResult] = []
        calibrate()
        for kind in BenchOperation.allCases {
            let k = kind.ordinal
            let perRun = runs.map { $0[k] }
            guard perRun.contains(where: { $0.count > 0 }) else { continue }
            let count = perRun.map(\.count).max() ?? 0
            let total = perRun.reduce(UInt64(0)) { $0 &+ $1.totalNanoseconds }
            let timed = perRun.reduce(0) { $0 + $1.timed }
            out.append(
                BenchKindResult(
                    kind: kind, count: count,
                    p50: nanoseconds(traceHistograms[k].valueAtPercentile(50)), p90: nanoseconds(traceHistograms[k].valueAtPercentile(90)),
                    p99: nanoseconds(traceHistograms[k].valueAtPercentile(99)), max: nanoseconds(traceHistograms[k].max),
                    mean: timed > 0 ? Double(total) / Double(timed) : 0,
                    runs: perRun.map {
                        BenchKindResult.Run(
                            count: $0.count, p50: $0.p50, p90: $0.p90, p99: $0.p99, max: $0.max,
                            mean: $0.timed > 0 ? Double($0.totalNanoseconds) / Double($0.timed) : 0,
                            allocations: countsAllocations ? $0.allocations : nil, bytes: countsAllocations ? $0.bytes : nil,
                            timed: $0.timed)
                    }))
            if traceHistograms[k].totalCount > 0 { traceHistograms[k].reset() }
        }
        runs.removeAll(keepingCapacity: true)
        // The next trace starts with every operation timed (its own kinds' costs are unknown).
        for k in 0..<BenchOperation.allCases.count { accumulators[k] = Accumulator() }
        return out
    }
}
