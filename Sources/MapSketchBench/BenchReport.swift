import MapSketchReplay
public import MapSketchGeometry

/// The figures of one operation kind over a trace's measured runs. Times are nanoseconds.
public struct BenchKindResult: Hashable, Sendable {
    /// One measured run's figures.
    public struct Run: Hashable, Sendable {
        /// Operations in the run.
        public var count: Int
        /// Latency percentiles and maximum in the run.
        public var p50: UInt64, p90: UInt64, p99: UInt64, max: UInt64
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
            count: Int, p50: UInt64, p90: UInt64, p99: UInt64, max: UInt64, mean: Double, allocations: UInt64? = nil,
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
    public var kind: BenchOperation
    /// Operations per run.
    public var count: Int
    /// Latency percentiles and maximum over every timed operation of every run (HDR histogram,
    /// 3 significant digits; which operations are timed: ``BenchTiming``).
    public var p50: UInt64, p90: UInt64, p99: UInt64, max: UInt64
    /// Mean latency over every timed operation.
    public var mean: Double
    /// Each measured run.
    public var runs: [Run]

    /// Creates a kind's figures.
    public init(kind: BenchOperation, count: Int, p50: UInt64, p90: UInt64, p99: UInt64, max: UInt64, mean: Double, runs: [Run]) {
        self.kind = kind
        self.count = count
        self.p50 = p50
        self.p90 = p90
        self.p99 = p99
        self.max = max
        self.mean = mean
        self.runs = runs
    }

    /// Timed operations over all runs (nil when the runs do not say: all were timed).
    public var timed: Int? {
        let t = runs.compactMap(\.timed)
        return t.count == runs.count && !t.isEmpty ? t.reduce(0, +) : nil
    }

    /// Operations per second of operation time (1 / mean latency).
    public var throughput: Double { mean > 0 ? 1e9 / mean : 0 }
    /// Allocations per run, when counted (the largest run's: runs are expected to agree).
    public var allocations: UInt64? { runs.compactMap(\.allocations).max() }
    /// Bytes allocated per run, when counted.
    public var bytes: UInt64? { runs.compactMap(\.bytes).max() }
    /// Instructions per run (the median run's), under callgrind.
    public var instructions: UInt64? { median(runs.compactMap(\.instructions)) }
}

/// The figures of one trace: its totals per run and its operation kinds.
public struct BenchTraceResult: Hashable, Sendable {
    /// The trace's name (its path below the folder given, without `.trace.jsonl`).
    public var name: String
    /// Events in the trace.
    public var events: Int
    /// Wall-clock time of each measured run's replay (every event, on fresh model state), ns.
    public var totalNanoseconds: [UInt64]
    /// Time to set the model up from the header in each measured run, ns.
    public var setupNanoseconds: [UInt64]
    /// Allocations of each whole measured run (set-up and replay), when counted.
    public var allocations: [UInt64]?
    /// Bytes allocated by each whole measured run, when counted.
    public var bytes: [UInt64]?
    /// Instructions of each measured run under callgrind (set-up, replay and the GPS reads).
    public var instructions: [UInt64]?
    /// The kinds that occurred, in ``BenchOperation`` order.
    public var kinds: [BenchKindResult]

    /// Creates a trace's figures.
    public init(
        name: String, events: Int, totalNanoseconds: [UInt64], setupNanoseconds: [UInt64], allocations: [UInt64]? = nil,
        bytes: [UInt64]? = nil, instructions: [UInt64]? = nil, kinds: [BenchKindResult]
    ) {
        self.name = name
        self.events = events
        self.totalNanoseconds = totalNanoseconds
        self.setupNanoseconds = setupNanoseconds
        self.allocations = allocations
        self.bytes = bytes
        self.instructions = instructions
        self.kinds = kinds
    }

    /// The median run's replay time, ns.
    public var total: UInt64 { median(totalNanoseconds) ?? 0 }
    /// Events per second of the median run.
    public var eventsPerSecond: Double { total > 0 ? Double(events) * 1e9 / Double(total) : 0 }
    /// The figures of one kind, when it occurred.
    public func kind(_ k: BenchOperation) -> BenchKindResult? { kinds.first { $0.kind == k } }
}

/// A trace that could not be measured: it failed to parse or its header could not be set up.
public struct BenchFailure: Hashable, Sendable, CustomStringConvertible {
    /// The trace's name.
    public var trace: String
    /// Where and what: `file:line:column: message`.
    public var error: InputError

    /// Creates a failure.
    public init(trace: String, error: InputError) {
        self.trace = trace
        self.error = error
    }

    public var description: String { error.description }
}

/// Which counters a bench measured, and why the others are missing.
public struct BenchCounters: Hashable, Sendable {
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

/// Everything a bench measured: the document `--json` and `--save-baseline` write (schema
/// `mapsketch-bench`, version ``schemaVersion``; `Benchmarks/bench-report.schema.json`).
public struct BenchReport: Hashable, Sendable {
    /// The schema's name, the document's `schema` member.
    public static let schemaName = "mapsketch-bench"
    /// The schema version this build writes and reads.
    public static let schemaVersion = 1

    /// Warm-up runs per trace.
    public var warmup: Int
    /// Measured runs asked for per trace (fewer when a time budget ran out).
    public var runs: Int
    /// The counters measured.
    public var counters: BenchCounters
    /// The measured traces, sorted by name.
    public var traces: [BenchTraceResult]
    /// The traces that could not be measured.
    public var failures: [BenchFailure]
    /// The traces that failed with the error their header declares (`expect.error`): meant to
    /// fail, not measured, not an error.
    public var expectedFailures: [BenchFailure]

    /// Creates a report.
    public init(
        warmup: Int, runs: Int, counters: BenchCounters, traces: [BenchTraceResult], failures: [BenchFailure] = [],
        expectedFailures: [BenchFailure] = []
    ) {
        self.warmup = warmup
        self.runs = runs
        self.counters = counters
        self.traces = traces
        self.failures = failures
        self.expectedFailures = expectedFailures
    }

    /// The trace of this name, if measured.
    public func trace(_ name: String) -> BenchTraceResult? { traces.first { $0.name == name } }
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
