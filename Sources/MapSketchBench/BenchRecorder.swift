import CMapSketchCounters
import MapSketch
import MapSketchReplay

/// The figures of one operation kind in one measured run.
struct BenchKindRun: Hashable, Sendable {
    /// Operations, and how many of them were timed (``BenchTiming``).
    var count = 0, timed = 0
    /// The timed operations' total time, ns.
    var timedNanoseconds = 0.0
    /// Latency percentiles and maximum of the timed operations, ns (interpolated within the
    /// clock's step: ``BenchClock``).
    var p50 = 0.0, p90 = 0.0, p99 = 0.0, max = 0.0
    /// Allocations and bytes of every operation.
    var allocations: UInt64 = 0, bytes: UInt64 = 0
}

/// What a measured run's outermost operations (those inside no other) add up to: the part of the
/// run that belongs to some kind.
struct BenchAttributed: Hashable, Sendable {
    /// Time, estimated from the timed outermost operations of each kind, ns.
    var nanoseconds = 0.0
    /// Allocations and bytes (exact).
    var allocations: UInt64 = 0, bytes: UInt64 = 0
}

/// Measures the operations of a replay: the probe the bench installs in the map and the session
/// (``BenchRecorder+Probe``), and the timer the runner wraps around what it measures itself
/// (setting the model up, decoding GPS lines).
///
/// Every operation is counted and its allocations are counted exactly (the difference of the
/// thread's counters around it). Its latency is read from ``BenchClock`` — for every operation,
/// or, by default, for a deterministic sample of each fast kind (every `n`-th; see
/// ``BenchTiming``), because two counter reads cost as much as a short operation itself. The timed
/// latencies are kept in a fixed buffer; after the run its percentiles are read from them sorted.
/// The recorder allocates nothing and calls nothing opaque while a run is measured.
///
/// Operations nest (a snap query inside a drag step): each kind's figures include what nests in
/// it, and the run's attributed share (``BenchAttributed``) adds up its outermost operations only.
///
/// One thread at a time: a recorder is used by the thread that runs the replay.
final class BenchRecorder: @unchecked Sendable {
    /// Whether allocations are counted.
    let countsAllocations: Bool
    /// Under callgrind: no clock, no counters; each operation runs in its kind's marker function
    /// so the instruction counts can be attributed (``BenchRegion``).
    let underCallgrind: Bool
    /// Which operations are timed.
    let timing: BenchTiming
    /// The clock and its step.
    let clock: BenchClock

    /// The share of a kind's time that timing it may cost, under ``BenchTiming/automatic``.
    static let timingBudget = 0.02
    /// The fewest timed operations per run a kind keeps under ``BenchTiming/automatic`` (when it
    /// has that many).
    static let minimumTimedPerRun = 200
    /// The longest stride under ``BenchTiming/automatic``.
    static let maximumStride = 64
    /// Timed latencies kept per run for its percentiles (8 MiB; only what a run fills becomes
    /// resident). A run that times more operations than this has its later latencies in its mean
    /// but not its percentiles.
    static let sampleCapacity = 1 << 20
    /// The kinds a recorder has a slot for: the built-in ones, then the user kinds (slot
    /// `BenchKind.builtIn.count + i` for the `i`-th of ``userKinds``).
    let slotCount: Int
    /// The user kinds (``ReplayExtensions``), in registration order.
    let userKinds: [BenchKind]

    /// One kind's figures in the run in progress.
    struct Accumulator {
        var count = 0
        var timed = 0
        var totalTicks: UInt64 = 0
        var allocations: UInt64 = 0
        var bytes: UInt64 = 0
        /// The operations of this kind that were outermost, and of those the timed ones.
        var outerCount = 0
        var outerTimed = 0
        var outerTicks: UInt64 = 0
        /// Operations left before the next timed one (1: the next is timed).
        var countdown = 1
        /// Every `stride`-th operation is timed.
        var stride = 1
    }

    /// What ``begin(_:)`` noted.
    struct Mark {
        var ticks: UInt64
        var allocations: AllocationSnapshot
        var timed: Bool
        /// Whether the operation is inside no other.
        var outermost: Bool
    }

    /// Per slot, made once: plain memory, so the hot path has no copy-on-write or exclusivity
    /// checks.
    private let accumulators: UnsafeMutablePointer<Accumulator>
    /// Timed latencies of the run: the slot in the top 8 bits, ticks below.
    private let samples: UnsafeMutablePointer<UInt64>
    private let state: UnsafeMutablePointer<(sampleCount: Int, depth: Int, outerAllocations: UInt64, outerBytes: UInt64, sink: Int)>

    /// The finished runs of the current trace: each kind's figures and the attributed share.
    private(set) var runs: [(kinds: [BenchKindRun], attributed: BenchAttributed)] = []

    /// Where the tick-to-nanosecond calibration started: (ticks, nanoseconds).
    private let calibrationStart: (ticks: UInt64, ns: UInt64)
    /// Nanoseconds per tick, from the calibration so far.
    private var nanosecondsPerTick: Double
    /// The clock's step, in ticks.
    private let stepTicks: UInt64
    /// What timing one operation costs, in ticks (two counter reads and the buffering).
    private let timingCost: Double

    /// A recorder; `countsAllocations` only when the counters started.
    /// `userKinds` are the kinds of the replay's ``ReplayExtensions`` (at most
    /// ``ReplayExtensions/capacity``).
    init(countsAllocations: Bool, underCallgrind: Bool = false, timing: BenchTiming = .automatic, userKinds: [BenchKind] = []) {
        precondition(userKinds.count <= ReplayExtensions.capacity, "at most \(ReplayExtensions.capacity) user kinds")
        self.userKinds = userKinds
        slotCount = BenchKind.builtIn.count + userKinds.count
        self.countsAllocations = countsAllocations
        self.underCallgrind = underCallgrind
        self.timing = timing
        let perTick = underCallgrind ? 1 : BenchClock.measureNanosecondsPerTick()
        nanosecondsPerTick = perTick
        stepTicks = underCallgrind ? 1 : BenchClock.measureStep()
        // Reports keep three decimals of a nanosecond.
        clock = BenchClock(
            source: BenchClock.readsCycleCounter ? "cycle counter" : "monotonic clock",
            resolution: (Double(stepTicks) * perTick * 1000).rounded() / 1000)
        calibrationStart = (BenchClock.ticks(), BenchClock.monotonicNanoseconds())
        accumulators = .allocate(capacity: slotCount)
        accumulators.initialize(repeating: Accumulator(), count: slotCount)
        samples = .allocate(capacity: Self.sampleCapacity)
        state = .allocate(capacity: 1)
        state.initialize(to: (0, 0, 0, 0, 0))
        timingCost = Self.measureTimingCost()
        startRun()
    }

    deinit {
        accumulators.deallocate()
        samples.deallocate()
        state.deallocate()
    }

    private static let ticksMask: UInt64 = (1 << 56) - 1

    /// The ticks a pair of tick reads costs (the least of a few thousand tries).
    private static func measureTimingCost() -> Double {
        var best = UInt64.max
        for _ in 0..<64 {
            let t0 = BenchClock.ticks()
            for _ in 0..<32 { _ = BenchClock.ticks() }
            best = Swift.min(best, BenchClock.ticks() &- t0)
        }
        return Double(best) / 17  // 34 reads: 17 pairs
    }

    /// Results computed only to be timed are folded in here, so the optimiser keeps them.
    var sink: Int { state.pointee.sink }

    /// Keeps a result that is computed only to be timed.
    func keep(_ value: Int) { state.pointee.sink &+= value }

    /// Runs `body` as one operation of `kind` and records it.
    @inline(__always)
    func measure<Result, Failure: Error>(_ kind: BenchKind, _ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        guard let slot = kind.slot else { return try body() }
        if underCallgrind { return try runWrapped(SlotWrapper(recorder: self, slot: slot), body) }
        let mark = begin(slot)
        defer { end(slot, mark) }
        return try body()
    }

    /// Notes the start of an operation in `slot`: the allocation counters, and the tick when
    /// this one is timed.
    @inline(__always)
    func begin(_ slot: Int) -> Mark {
        let a0 = countsAllocations ? AllocationCounters.read() : AllocationSnapshot()
        let outermost = state.pointee.depth == 0
        state.pointee.depth += 1
        let timed = accumulators[slot].countdown <= 1
        return Mark(ticks: timed ? BenchClock.ticks() : 0, allocations: a0, timed: timed, outermost: outermost)
    }

    /// Records an operation in `slot` that began at `mark`.
    @inline(__always)
    func end(_ slot: Int, _ mark: Mark) {
        let t1 = mark.timed ? BenchClock.ticks() : 0
        state.pointee.depth -= 1
        let a = accumulators + slot
        if mark.timed {
            a.pointee.countdown = a.pointee.stride
            let t = t1 &- mark.ticks
            a.pointee.timed += 1
            a.pointee.totalTicks &+= t
            if mark.outermost {
                a.pointee.outerTimed += 1
                a.pointee.outerTicks &+= t
            }
            let n = state.pointee.sampleCount
            if n < Self.sampleCapacity {
                samples[n] = UInt64(truncatingIfNeeded: slot) << 56 | Swift.min(t, Self.ticksMask)
                state.pointee.sampleCount = n + 1
            }
        } else {
            a.pointee.countdown -= 1
        }
        if countsAllocations {
            let d = AllocationCounters.read() - mark.allocations
            a.pointee.allocations &+= d.count
            a.pointee.bytes &+= d.bytes
            if mark.outermost {
                state.pointee.outerAllocations &+= d.count
                state.pointee.outerBytes &+= d.bytes
            }
        }
        a.pointee.count += 1
        if mark.outermost { a.pointee.outerCount += 1 }
    }

    /// Under callgrind: runs `body` inside the marker function of `slot` (and, when it is inside
    /// no other operation, inside the attributed marker), counting it.
    func wrap(_ slot: Int, _ body: () -> Void) {
        let outermost = state.pointee.depth == 0
        state.pointee.depth += 1
        BenchRegion.operation(slot, outermost: outermost, body)
        state.pointee.depth -= 1
        accumulators[slot].count += 1
    }

    /// Sets every kind's counters to zero and its timing stride for the next run.
    private func startRun() {
        for slot in 0..<slotCount {
            let a = accumulators + slot
            let stride = nextStride(a.pointee)
            a.pointee = Accumulator(countdown: 1, stride: stride)
        }
        state.pointee.sampleCount = 0
        state.pointee.depth = 0
        state.pointee.outerAllocations = 0
        state.pointee.outerBytes = 0
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

    /// Ends a measured run: its per-kind figures and its attributed share are kept.
    func endRun() {
        runs.append(finishRun())
        startRun()
    }

    /// Ends a run of operations measured apart from the replay whose figures are in measured
    /// run `index` (`gps.read`): its kinds' figures are added to that run's (its attributed
    /// share is not: it is outside the run's time).
    func endRun(mergingInto index: Int) {
        let extra = finishRun().kinds
        if runs.indices.contains(index) {
            for k in extra.indices where extra[k].count > 0 { runs[index].kinds[k] = extra[k] }
        }
        startRun()
    }

    /// Forgets the run in progress (a warm-up run); its timings still choose the next run's
    /// timing strides.
    func discardRun() { startRun() }

    /// The figures of the run in progress.
    private func finishRun() -> (kinds: [BenchKindRun], attributed: BenchAttributed) {
        calibrate()
        var current = Array(repeating: BenchKindRun(), count: slotCount)
        var attributed = BenchAttributed(allocations: state.pointee.outerAllocations, bytes: state.pointee.outerBytes)
        for k in current.indices {
            let a = accumulators[k]
            guard a.count > 0 else { continue }
            current[k].count = a.count
            current[k].timed = a.timed
            current[k].timedNanoseconds = Double(a.totalTicks) * nanosecondsPerTick
            current[k].allocations = a.allocations
            current[k].bytes = a.bytes
            if a.outerTimed > 0 {
                attributed.nanoseconds += Double(a.outerCount) * Double(a.outerTicks) / Double(a.outerTimed) * nanosecondsPerTick
            }
        }
        // Sorted, the buffer holds each kind's latencies in one ascending range (the slot is in
        // the top bits).
        var buffer = UnsafeMutableBufferPointer(start: samples, count: state.pointee.sampleCount)
        buffer.sort()
        var i = 0
        while i < buffer.count {
            let k = Int(buffer[i] >> 56)
            var j = i
            while j < buffer.count && Int(buffer[j] >> 56) == k { j += 1 }
            let ticks = UnsafeBufferPointer(rebasing: buffer[i..<j])
            current[k].p50 = percentile(50, of: ticks)
            current[k].p90 = percentile(90, of: ticks)
            current[k].p99 = percentile(99, of: ticks)
            current[k].max = Double(ticks[ticks.count - 1] & Self.ticksMask) * nanosecondsPerTick
            i = j
        }
        return (current, attributed)
    }

    /// A percentile of one kind's sorted latencies (ticks, the slot in the top bits), in ns.
    ///
    /// The clock moves in steps of ``stepTicks``, so a latency the counter reads as `v` ticks lies
    /// anywhere within half a step of `v`. The latencies are grouped by step, and the percentile
    /// is interpolated within its group as for grouped data (the group's count spread evenly over
    /// its step): a median of latencies read as 70 and 80 ns comes out between them, in proportion
    /// to how many read each, not on one of the two. With a clock that resolves single ticks this
    /// is the plain percentile (the smallest latency with at least `p` % at or below it).
    private func percentile(_ p: Double, of sorted: UnsafeBufferPointer<UInt64>) -> Double {
        let n = sorted.count
        let rank = p / 100 * Double(n)
        guard stepTicks > 1 else {
            let r = Swift.max(1, Int(rank.rounded(.up)))
            return Double(sorted[r - 1] & Self.ticksMask) * nanosecondsPerTick
        }
        let step = Double(stepTicks)
        func group(_ v: UInt64) -> Double { (Double(v & Self.ticksMask) / step).rounded() }
        var below = 0
        var i = 0
        while i < n {
            let g = group(sorted[i])
            var j = i
            while j < n && group(sorted[j]) == g { j += 1 }
            let inGroup = j - i
            if Double(below + inGroup) >= rank || j == n {
                let within = Swift.min(Swift.max((rank - Double(below)) / Double(inGroup), 0), 1)
                return Swift.max(0, (g - 0.5 + within) * step) * nanosecondsPerTick
            }
            below += inGroup
            i = j
        }
        return 0
    }

    /// Updates the tick-to-nanosecond ratio from the time since the recorder was made.
    private func calibrate() {
        guard BenchClock.readsCycleCounter, !underCallgrind else { return }
        let dt = BenchClock.ticks() &- calibrationStart.ticks
        let dns = BenchClock.monotonicNanoseconds() &- calibrationStart.ns
        // Only once enough time has passed for the ratio to beat the start-up measurement.
        if dt > 0 && dns > 50_000_000 { nanosecondsPerTick = Double(dns) / Double(dt) }
    }

    /// The runs of the trace just measured (each kind's figures by slot, and the attributed
    /// share); then the recorder is ready for the next trace.
    func finishTrace() -> [(kinds: [BenchKindRun], attributed: BenchAttributed)] {
        let out = runs
        runs.removeAll(keepingCapacity: true)
        // The next trace starts with every operation timed (its own kinds' costs are unknown).
        for k in 0..<slotCount { accumulators[k] = Accumulator() }
        return out
    }
}

/// The recorder's marker of one kind, as ``runWrapped(_:_:)`` calls it.
private struct SlotWrapper: OperationWrapper {
    let recorder: BenchRecorder
    let slot: Int
    func run(_ body: () -> Void) { recorder.wrap(slot, body) }
}
