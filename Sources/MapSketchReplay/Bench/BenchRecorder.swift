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

/// Measures the operations of a replay: the probe the bench installs in the map (the model's
/// own operations) and the timer the session wraps around calls and GPS stages.
///
/// Each operation's latency goes into an HDR histogram (3 significant digits) for the run and for
/// the whole trace, in ticks of the CPU's cycle counter (a few nanoseconds to read, where a clock
/// call costs tens), converted to nanoseconds by the ratio of the monotonic clock to the counter
/// over everything measured so far. Allocation counts and bytes are the difference of the
/// thread's counters around the operation. The recorder's own bookkeeping happens outside the
/// two tick reads and the two counter reads, and it allocates nothing while a run is measured
/// (its histograms are made once and reset).
@MainActor
final class BenchRecorder: OperationProbe {
    /// Whether allocations are counted.
    let countsAllocations: Bool
    /// Under callgrind: no clock, no counters; each operation runs in its kind's named function
    /// so the instruction counts can be attributed (``BenchRegion``).
    let underCallgrind: Bool

    private var runHistograms: [Histogram<UInt64>]
    private var traceHistograms: [Histogram<UInt64>]
    private var current: [BenchKindRun]
    /// The finished runs of the current trace, each with every kind's figures.
    private(set) var runs: [[BenchKindRun]] = []
    /// Results the bench computes only to time them are folded in here, so the optimiser keeps
    /// the computation.
    private(set) var sink = 0

    /// Whether the cycle counter works here (else ticks are monotonic-clock nanoseconds).
    private let cycleCounter: Bool
    /// Where the tick-to-nanosecond calibration started: (ticks, nanoseconds).
    private let calibrationStart: (ticks: UInt64, ns: UInt64)
    /// Nanoseconds per tick, from the calibration so far.
    private var nanosecondsPerTick = 1.0

    /// A recorder; `countsAllocations` only when the counters started.
    init(countsAllocations: Bool, underCallgrind: Bool = false) {
        self.countsAllocations = countsAllocations
        self.underCallgrind = underCallgrind
        cycleCounter = mapsketch_ticks() != 0
        calibrationStart = (cycleCounter ? mapsketch_ticks() : 0, monotonicNanoseconds())
        // 1 tick to 10¹² ticks (over 100 s at any clock rate): bigger values are clamped.
        let empty = Histogram<UInt64>(lowestDiscernibleValue: 1, highestTrackableValue: Self.maxTicks, numberOfSignificantValueDigits: .three)
        runHistograms = Array(repeating: empty, count: BenchOperation.allCases.count)
        traceHistograms = runHistograms
        current = Array(repeating: BenchKindRun(), count: BenchOperation.allCases.count)
    }

    static let maxTicks: UInt64 = 1_000_000_000_000

    /// The current tick.
    @inline(__always)
    private func ticks() -> UInt64 { cycleCounter ? mapsketch_ticks() : monotonicNanoseconds() }

    /// Runs `body` as one `operation` and records it.
    @inline(__always)
    func measure<Result>(_ operation: BenchOperation, _ body: () throws -> Result) rethrows -> Result {
        if underCallgrind { return try BenchRegion.operation(operation, body) }
        let a0 = countsAllocations ? AllocationCounters.read() : AllocationSnapshot()
        let t0 = ticks()
        let result = try body()
        let t1 = ticks()
        let a = countsAllocations ? AllocationCounters.read() - a0 : AllocationSnapshot()
        record(operation.ordinal, t1 &- t0, a)
        return result
    }

    /// Keeps a result that is computed only to be timed.
    func keep(_ value: Int) { sink &+= value }

    /// The model probe's entry: the same as ``measure(_:_:)-swift.method`` with the bench's name
    /// for the operation.
    func measure(_ operation: ProbedOperation, _ body: () throws -> Void) rethrows {
        try measure(BenchOperation(operation), body)
    }

    private func record(_ k: Int, _ t: UInt64, _ a: AllocationSnapshot) {
        _ = runHistograms[k].record(Swift.min(Swift.max(t, 1), Self.maxTicks))
        current[k].count += 1
        current[k].totalTicks &+= t
        current[k].allocations &+= a.count
        current[k].bytes &+= a.bytes
    }

    /// Ends a measured run: its per-kind percentiles are taken and its histograms folded into the
    /// trace's.
    func endRun() {
        calibrate()
        for k in current.indices {
            let h = runHistograms[k]
            if current[k].count > 0 {
                current[k].p50 = nanoseconds(h.valueAtPercentile(50))
                current[k].p90 = nanoseconds(h.valueAtPercentile(90))
                current[k].p99 = nanoseconds(h.valueAtPercentile(99))
                current[k].max = nanoseconds(h.max)
                current[k].totalNanoseconds = nanoseconds(current[k].totalTicks)
                traceHistograms[k].add(h)
            }
            runHistograms[k].reset()
        }
        runs.append(current)
        for k in current.indices { current[k] = BenchKindRun() }
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

    /// Forgets the run in progress (a warm-up run).
    func discardRun() {
        for k in current.indices {
            runHistograms[k].reset()
            current[k] = BenchKindRun()
        }
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
            let h = traceHistograms[k]
            let count = perRun.map(\.count).max() ?? 0
            let total = perRun.reduce(UInt64(0)) { $0 &+ $1.totalNanoseconds }
            let ops = perRun.reduce(0) { $0 + $1.count }
            out.append(
                BenchKindResult(
                    kind: kind, count: count,
                    p50: nanoseconds(h.valueAtPercentile(50)), p90: nanoseconds(h.valueAtPercentile(90)),
                    p99: nanoseconds(h.valueAtPercentile(99)), max: nanoseconds(h.max),
                    mean: ops > 0 ? Double(total) / Double(ops) : 0,
                    runs: perRun.map {
                        BenchKindResult.Run(
                            count: $0.count, p50: $0.p50, p90: $0.p90, p99: $0.p99, max: $0.max,
                            mean: $0.count > 0 ? Double($0.totalNanoseconds) / Double($0.count) : 0,
                            allocations: countsAllocations ? $0.allocations : nil, bytes: countsAllocations ? $0.bytes : nil)
                    }))
        }
        for k in traceHistograms.indices { traceHistograms[k].reset() }
        runs.removeAll(keepingCapacity: true)
        return out
    }
}

/// The measured region and the per-kind functions callgrind attributes instructions to.
///
/// `mapsketch bench --instrument callgrind` runs the bench under
/// `valgrind --tool=callgrind --collect-atstart=no --toggle-collect=mapsketch_bench_region`, so
/// instructions are counted only inside ``region(_:)`` (one measured replay), and each kind's
/// operations run inside the function `mapsketch_bench_kind_<ordinal>`, whose inclusive cost is
/// that kind's instruction count. The functions have fixed symbol names (`@_silgen_name`), are
/// never inlined, and differ in what they return, so no optimisation merges them; the
/// optimiser's copies specialised for one caller keep the name at the start of their mangled
/// name, which ``Callgrind/parse(_:)`` recognises.
enum BenchRegion {
    /// The symbol of the measured region.
    static let regionSymbol = "mapsketch_bench_region"
    /// The symbol prefix of the per-kind functions (followed by the kind's ordinal).
    static let kindSymbol = "mapsketch_bench_kind_"

    /// Runs one measured replay inside the region callgrind collects (the C function
    /// `mapsketch_bench_region`).
    static func region(_ body: () -> Void) {
        withoutActuallyEscaping(body) { escapable in
            var call = escapable
            withUnsafeMutablePointer(to: &call) { p in
                mapsketch_bench_region({ context in context?.assumingMemoryBound(to: (() -> Void).self).pointee() }, p)
            }
        }
    }

    /// Runs one operation inside its kind's function.
    static func operation<Result>(_ op: BenchOperation, _ body: () throws -> Result) rethrows -> Result {
        var result: Result?
        let marker: Int
        switch op.ordinal {
        case 0: marker = try mapsketchBenchKind0 { result = try body() }
        case 1: marker = try mapsketchBenchKind1 { result = try body() }
        case 2: marker = try mapsketchBenchKind2 { result = try body() }
        case 3: marker = try mapsketchBenchKind3 { result = try body() }
        case 4: marker = try mapsketchBenchKind4 { result = try body() }
        case 5: marker = try mapsketchBenchKind5 { result = try body() }
        case 6: marker = try mapsketchBenchKind6 { result = try body() }
        case 7: marker = try mapsketchBenchKind7 { result = try body() }
        case 8: marker = try mapsketchBenchKind8 { result = try body() }
        case 9: marker = try mapsketchBenchKind9 { result = try body() }
        case 10: marker = try mapsketchBenchKind10 { result = try body() }
        case 11: marker = try mapsketchBenchKind11 { result = try body() }
        case 12: marker = try mapsketchBenchKind12 { result = try body() }
        case 13: marker = try mapsketchBenchKind13 { result = try body() }
        case 14: marker = try mapsketchBenchKind14 { result = try body() }
        case 15: marker = try mapsketchBenchKind15 { result = try body() }
        case 16: marker = try mapsketchBenchKind16 { result = try body() }
        case 17: marker = try mapsketchBenchKind17 { result = try body() }
        case 18: marker = try mapsketchBenchKind18 { result = try body() }
        case 19: marker = try mapsketchBenchKind19 { result = try body() }
        default: marker = try mapsketchBenchKind20 { result = try body() }
        }
        _ = marker
        // `result` is always set once `run` returned; evaluating `body` again is unreachable.
        return try result ?? body()
    }
}

@_silgen_name("mapsketch_bench_kind_0") @inline(never) @_optimize(none) func mapsketchBenchKind0(_ body: () throws -> Void) rethrows -> Int { try body(); return 0 }
@_silgen_name("mapsketch_bench_kind_1") @inline(never) @_optimize(none) func mapsketchBenchKind1(_ body: () throws -> Void) rethrows -> Int { try body(); return 1 }
@_silgen_name("mapsketch_bench_kind_2") @inline(never) @_optimize(none) func mapsketchBenchKind2(_ body: () throws -> Void) rethrows -> Int { try body(); return 2 }
@_silgen_name("mapsketch_bench_kind_3") @inline(never) @_optimize(none) func mapsketchBenchKind3(_ body: () throws -> Void) rethrows -> Int { try body(); return 3 }
@_silgen_name("mapsketch_bench_kind_4") @inline(never) @_optimize(none) func mapsketchBenchKind4(_ body: () throws -> Void) rethrows -> Int { try body(); return 4 }
@_silgen_name("mapsketch_bench_kind_5") @inline(never) @_optimize(none) func mapsketchBenchKind5(_ body: () throws -> Void) rethrows -> Int { try body(); return 5 }
@_silgen_name("mapsketch_bench_kind_6") @inline(never) @_optimize(none) func mapsketchBenchKind6(_ body: () throws -> Void) rethrows -> Int { try body(); return 6 }
@_silgen_name("mapsketch_bench_kind_7") @inline(never) @_optimize(none) func mapsketchBenchKind7(_ body: () throws -> Void) rethrows -> Int { try body(); return 7 }
@_silgen_name("mapsketch_bench_kind_8") @inline(never) @_optimize(none) func mapsketchBenchKind8(_ body: () throws -> Void) rethrows -> Int { try body(); return 8 }
@_silgen_name("mapsketch_bench_kind_9") @inline(never) @_optimize(none) func mapsketchBenchKind9(_ body: () throws -> Void) rethrows -> Int { try body(); return 9 }
@_silgen_name("mapsketch_bench_kind_10") @inline(never) @_optimize(none) func mapsketchBenchKind10(_ body: () throws -> Void) rethrows -> Int { try body(); return 10 }
@_silgen_name("mapsketch_bench_kind_11") @inline(never) @_optimize(none) func mapsketchBenchKind11(_ body: () throws -> Void) rethrows -> Int { try body(); return 11 }
@_silgen_name("mapsketch_bench_kind_12") @inline(never) @_optimize(none) func mapsketchBenchKind12(_ body: () throws -> Void) rethrows -> Int { try body(); return 12 }
@_silgen_name("mapsketch_bench_kind_13") @inline(never) @_optimize(none) func mapsketchBenchKind13(_ body: () throws -> Void) rethrows -> Int { try body(); return 13 }
@_silgen_name("mapsketch_bench_kind_14") @inline(never) @_optimize(none) func mapsketchBenchKind14(_ body: () throws -> Void) rethrows -> Int { try body(); return 14 }
@_silgen_name("mapsketch_bench_kind_15") @inline(never) @_optimize(none) func mapsketchBenchKind15(_ body: () throws -> Void) rethrows -> Int { try body(); return 15 }
@_silgen_name("mapsketch_bench_kind_16") @inline(never) @_optimize(none) func mapsketchBenchKind16(_ body: () throws -> Void) rethrows -> Int { try body(); return 16 }
@_silgen_name("mapsketch_bench_kind_17") @inline(never) @_optimize(none) func mapsketchBenchKind17(_ body: () throws -> Void) rethrows -> Int { try body(); return 17 }
@_silgen_name("mapsketch_bench_kind_18") @inline(never) @_optimize(none) func mapsketchBenchKind18(_ body: () throws -> Void) rethrows -> Int { try body(); return 18 }
@_silgen_name("mapsketch_bench_kind_19") @inline(never) @_optimize(none) func mapsketchBenchKind19(_ body: () throws -> Void) rethrows -> Int { try body(); return 19 }
@_silgen_name("mapsketch_bench_kind_20") @inline(never) @_optimize(none) func mapsketchBenchKind20(_ body: () throws -> Void) rethrows -> Int { try body(); return 20 }
