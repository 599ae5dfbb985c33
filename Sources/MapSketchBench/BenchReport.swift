public import MapSketchGeometry
import MapSketchReplay
package import MapSketchGolden

/// The figures of one operation kind over a trace's measured runs. Times are nanoseconds.
public struct BenchKindResult: Hashable, Sendable {
    /// One measured run's figures.
    package struct Run: Hashable, Sendable {
        /// Operations in the run.
        public var count: Int
        /// Latency percentiles and maximum in the run (interpolated within the clock's step:
        /// ``BenchClock``).
        public var p50: Double, p90: Double, p99: Double, max: Double
        /// Mean latency in the run.
        public var mean: Double
        /// Allocations the run's operations made, when counted.
        public var allocations: UInt64?
        /// Bytes they allocated, when counted.
        public var bytes: UInt64?
        /// Instructions they executed, under callgrind.
        public var instructions: UInt64?
        /// How many of the operations were timed (``BenchTiming``): the percentiles and the mean
        /// are theirs. Nil: all of them.
        public var timed: Int?

        /// Creates a run's figures.
        public init(
            count: Int, p50: Double, p90: Double, p99: Double, max: Double, mean: Double, allocations: UInt64? = nil,
            bytes: UInt64? = nil, instructions: UInt64? = nil, timed: Int? = nil
        ) {
            self.count = count
            self.p50 = p50
            self.p90 = p90
            self.p99 = p99
            self.max = max
            self.mean = mean
            self.allocations = allocations
            self.bytes = bytes
            self.instructions = instructions
            self.timed = timed
        }
    }

    /// The kind.
    public var kind: BenchKind
    /// Each measured run.
    package var runs: [Run]

    /// Creates a kind's figures.
    package init(kind: BenchKind, runs: [Run]) {
        self.kind = kind
        self.runs = runs
    }

    /// Operations per run (the largest run's: runs of one trace agree).
    public var count: Int { runs.map(\.count).max() ?? 0 }
    /// The median of the runs' latency percentiles and maxima.
    public var p50: Double { median(runs.map(\.p50)) ?? 0 }
    /// The median of the runs' 90th percentiles.
    public var p90: Double { median(runs.map(\.p90)) ?? 0 }
    /// The median of the runs' 99th percentiles.
    public var p99: Double { median(runs.map(\.p99)) ?? 0 }
    /// The largest latency of any run.
    public var max: Double { runs.map(\.max).max() ?? 0 }
    /// The median of the runs' mean latencies.
    public var mean: Double { median(runs.map(\.mean)) ?? 0 }

    /// Timed operations over all runs (nil when the runs do not say: all were timed).
    package var timed: Int? {
        let t = runs.compactMap(\.timed)
        return t.count == runs.count && !t.isEmpty ? t.reduce(0, +) : nil
    }

    /// Operations per second of operation time (1 / mean latency).
    package var throughput: Double { mean > 0 ? 1e9 / mean : 0 }
    /// Allocations per run, when counted (the largest run's: runs are expected to agree).
    package var allocations: UInt64? { runs.compactMap(\.allocations).max() }
    /// Bytes allocated per run, when counted.
    package var bytes: UInt64? { runs.compactMap(\.bytes).max() }
    /// Instructions per run (the median run's), under callgrind.
    package var instructions: UInt64? { median(runs.compactMap(\.instructions)) }

    /// Whether the kind's median latency is below what `clock` resolves: its latencies are
    /// reported as such and gated on the counters only.
    package func isBelowResolution(of clock: BenchClock) -> Bool { p50 < clock.resolution }
}

/// What the operations of a measured run add up to when each is counted once, at its outermost
/// kind: the part of the run that belongs to some kind. The rest is the run's `unattributed` row.
package struct BenchAttributedRun: Hashable, Sendable {
    /// Time, ns (estimated from the timed operations when fast kinds are timed on a sample).
    public var nanoseconds: Double
    /// Allocations and bytes, when counted.
    public var allocations: UInt64?, bytes: UInt64?
    /// Instructions, under callgrind.
    public var instructions: UInt64?

    /// Creates a run's attributed share.
    public init(nanoseconds: Double, allocations: UInt64? = nil, bytes: UInt64? = nil, instructions: UInt64? = nil) {
        self.nanoseconds = nanoseconds
        self.allocations = allocations
        self.bytes = bytes
        self.instructions = instructions
    }
}

/// The figures of one trace: its totals per run and its operation kinds.
public struct BenchTraceResult: Hashable, Sendable {
    /// The trace's name: its path below the folder given, or its file name when the file was
    /// given, without `.trace.jsonl` (``TraceSelection``).
    public var name: String
    /// Events in the trace.
    public var events: Int
    /// Wall-clock time of each measured run's replay of the events (on fresh model state), ns.
    package var totalNanoseconds: [Double]
    /// Time to set the model up from the header in each measured run, ns.
    package var setupNanoseconds: [Double]
    /// Allocations of each whole measured run (set-up and replay), when counted.
    package var allocations: [UInt64]?
    /// Bytes allocated by each whole measured run, when counted.
    package var bytes: [UInt64]?
    /// Instructions of each measured run under callgrind (set-up, replay and the GPS reads).
    package var instructions: [UInt64]?
    /// Each measured run's attributed share.
    package var attributed: [BenchAttributedRun]
    /// The kinds that occurred, in report order.
    public var kinds: [BenchKindResult]
    /// The worker process that made each measured run, numbered in the order the bench started
    /// them (one build's processes; nil when every run was made in one process, as
    /// ``BenchRunner`` makes them). A process's draw (its memory layout, what ran beside it) moves
    /// every figure it measures alike, so comparisons take a process, not a trace, as the unit of
    /// independent evidence.
    package var processes: [Int]?

    /// Creates a trace's figures.
    package init(
        name: String, events: Int, totalNanoseconds: [Double], setupNanoseconds: [Double], allocations: [UInt64]? = nil,
        bytes: [UInt64]? = nil, instructions: [UInt64]? = nil, attributed: [BenchAttributedRun] = [], kinds: [BenchKindResult],
        processes: [Int]? = nil
    ) {
        self.processes = processes
        self.name = name
        self.events = events
        self.totalNanoseconds = totalNanoseconds
        self.setupNanoseconds = setupNanoseconds
        self.allocations = allocations
        self.bytes = bytes
        self.instructions = instructions
        self.attributed = attributed
        self.kinds = kinds
    }

    /// The median run's replay time, ns.
    public var total: Double { median(totalNanoseconds) ?? 0 }
    /// Events per second of the median run.
    package var eventsPerSecond: Double { total > 0 ? Double(events) * 1e9 / total : 0 }
    /// The figures of one kind, when it occurred.
    public func kind(_ k: BenchKind) -> BenchKindResult? { kinds.first { $0.kind == k } }

    /// What belongs to no kind in each measured run: the run's time (set-up and replay), its
    /// allocations and its instructions less its attributed share (never below zero).
    package var unattributed: [BenchAttributedRun] {
        attributed.indices.map { r in
            let a = attributed[r]
            let time = (totalNanoseconds.indices.contains(r) ? totalNanoseconds[r] : 0)
                + (setupNanoseconds.indices.contains(r) ? setupNanoseconds[r] : 0)
            func rest(_ whole: [UInt64]?, _ part: UInt64?) -> UInt64? {
                guard let whole, whole.indices.contains(r), let part else { return nil }
                return whole[r] > part ? whole[r] - part : 0
            }
            return BenchAttributedRun(
                nanoseconds: Swift.max(0, time - a.nanoseconds), allocations: rest(allocations, a.allocations),
                bytes: rest(bytes, a.bytes), instructions: rest(instructions, a.instructions))
        }
    }

    /// The share of the trace's time that belongs to a kind (the median run's), in 0…1; nil
    /// when not measured.
    package var attributedTimeFraction: Double? {
        let fractions = attributed.indices.compactMap { r -> Double? in
            guard totalNanoseconds.indices.contains(r), setupNanoseconds.indices.contains(r) else { return nil }
            let whole = totalNanoseconds[r] + setupNanoseconds[r]
            return whole > 0 ? Swift.min(1, attributed[r].nanoseconds / whole) : nil
        }
        return median(fractions)
    }

    /// The share of the trace's instructions that belongs to a kind (the median run's), in 0…1;
    /// nil when not measured.
    package var attributedInstructionFraction: Double? {
        guard let instructions else { return nil }
        let fractions = attributed.indices.compactMap { r -> Double? in
            guard instructions.indices.contains(r), instructions[r] > 0, let a = attributed[r].instructions else { return nil }
            return Swift.min(1, Double(a) / Double(instructions[r]))
        }
        return median(fractions)
    }
}

/// A trace that could not be measured: it failed to parse or its header could not be set up.
public struct BenchFailure: Hashable, Sendable, CustomStringConvertible {
    /// The trace's name.
    public var trace: String
    /// Where and what: `file:line:column: message`.
    public var error: InputError

    /// Creates a failure.
    package init(trace: String, error: InputError) {
        self.trace = trace
        self.error = error
    }

    public var description: String { error.description }
}

/// Which counters a bench measured, and why the others are missing.
package struct BenchCounters: Hashable, Sendable {
    /// Allocation counts and bytes (jemalloc, with the `AllocationCounters` trait).
    public var allocations: Bool
    /// Instruction counts (`--instrument callgrind`).
    public var instructions: Bool

    /// Creates the set.
    public init(allocations: Bool, instructions: Bool) {
        self.allocations = allocations
        self.instructions = instructions
    }

    /// A sentence per counter that was not measured, saying how to get it.
    public var unavailable: [String] {
        var out: [String] = []
        if !allocations {
            out.append(
                "allocations: not built in (build with `--traits AllocationCounters`, which needs Debian's libjemalloc-dev)")
        }
        if !instructions { out.append("instructions: not measured (run with `--instrument callgrind`, which needs Debian's valgrind)") }
        return out
    }
}

/// The build that measured a report.
package struct BenchBuild: Hashable, Sendable {
    /// The `mapsketch` version (or the library's, for a report made from code).
    public var version: String
    /// `release` or `debug`: a debug build is many times slower, and its figures say nothing of
    /// a release build's.
    public var configuration: String

    /// Creates a build description.
    public init(version: String, configuration: String) {
        self.version = version
        self.configuration = configuration
    }

    /// Whether a debug build measured: its figures are many times a release build's and say
    /// nothing of it.
    public var isDebug: Bool { configuration == "debug" }

    /// What the text and Markdown reports say when a debug build measured (``isDebug``), nil
    /// otherwise.
    public var warning: String? {
        isDebug ? "a debug build measured: its figures are many times a release build's and say nothing of it (build with -c release)" : nil
    }

    /// This build's configuration: `debug` when compiled without optimisation, else `release`.
    public static var currentConfiguration: String {
        #if DEBUG
        "debug"
        #else
        "release"
        #endif
    }
}

/// Everything a bench measured: the document `--json` and `--save-baseline` write (schema
/// `mapsketch-bench`, version ``schemaVersion``; `docs/bench-report.schema.json`).
public struct BenchReport: Hashable, Sendable {
    /// The schema's name, the document's `schema` member.
    package static let schemaName = "mapsketch-bench"
    /// The schema version this build writes and reads.
    package static let schemaVersion = 2

    /// Warm-up runs per trace (before each measured run, in the same process).
    package var warmup: Int
    /// Measured runs asked for per trace (fewer when a time budget ran out).
    package var runs: Int
    /// The counters measured.
    package var counters: BenchCounters
    /// The clock latencies were read from.
    package var clock: BenchClock
    /// The build that measured.
    package var build: BenchBuild
    /// The shard of the selection measured (`--shard K/N`), if any: a trace of another shard is
    /// not expected here.
    package var shard: TraceSelection.Shard?
    /// The measured traces, sorted by name.
    public var traces: [BenchTraceResult]
    /// The traces that could not be measured.
    public var failures: [BenchFailure]
    /// The traces that failed with the error their header declares (`expect.error`): meant to
    /// fail, not measured, not an error.
    package var expectedFailures: [BenchFailure]
    /// When this report is one side of a paired run of two builds (`--against`): the pair's id,
    /// shared by both reports, whose runs were made alternately and can be compared run by run.
    package var pairID: String?

    /// Creates a report.
    package init(
        warmup: Int, runs: Int, counters: BenchCounters, clock: BenchClock, build: BenchBuild, shard: TraceSelection.Shard? = nil,
        traces: [BenchTraceResult], failures: [BenchFailure] = [], expectedFailures: [BenchFailure] = [], pairID: String? = nil
    ) {
        self.warmup = warmup
        self.runs = runs
        self.counters = counters
        self.clock = clock
        self.build = build
        self.shard = shard
        self.traces = traces
        self.failures = failures
        self.expectedFailures = expectedFailures
        self.pairID = pairID
    }

    /// The trace of this name, if measured.
    public func trace(_ name: String) -> BenchTraceResult? { traces.first { $0.name == name } }

    /// Whether a trace of this name belongs to the report's shard (every trace does without one).
    package func covers(_ name: String) -> Bool { shard.map { $0.contains(name) } ?? true }
}

/// The median of some values (the lower middle one for an even count), nil for none.
func median(_ values: [UInt64]) -> UInt64? {
    guard !values.isEmpty else { return nil }
    let s = values.sorted()
    return s[(s.count - 1) / 2]
}

/// The median of some values (the mean of the two middle ones for an even count).
func median(_ values: [Double]) -> Double? {
    guard !values.isEmpty else { return nil }
    let s = values.sorted()
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}
