import Foundation
import MapSketchReplay

// What a comparison reports: the figures it can gate, each compared figure, and a kind's
// change across traces.

/// A figure a comparison can gate (`--metric`).
package enum BenchMetric: String, CaseIterable, Hashable, Sendable {
    /// Instructions (callgrind): per kind, per trace and unattributed.
    case instructions
    /// Allocation count: per kind, per trace (set-up and replay) and unattributed.
    case allocations
    /// Bytes allocated: per kind, per trace and unattributed.
    case bytes
    /// Median latency per kind (wall clock).
    case p50
    /// 90th percentile latency per kind (wall clock).
    case p90
    /// 99th percentile latency per kind (wall clock).
    case p99
    /// Maximum latency per kind (wall clock).
    case max
    /// Mean latency per kind (wall clock).
    case mean
    /// The whole replay's time per trace, and its unattributed time (wall clock).
    case total

    /// Whether the metric is an exact counter (the same on every run of the same build and
    /// trace), which is compared directly; wall-clock metrics are compared with a significance
    /// test over the runs.
    public var isExact: Bool { self == .instructions || self == .allocations || self == .bytes }

    /// The unit reports print.
    public var unit: String {
        switch self {
        case .instructions: "instructions"
        case .allocations: "allocations"
        case .bytes: "bytes"
        case .p50, .p90, .p99, .max, .mean, .total: "ns"
        }
    }
}

/// One compared figure: a trace's (`kind` nil), a kind's, or a trace's unattributed row.
package struct BenchChange: Hashable, Sendable, CustomStringConvertible {
    /// The trace.
    public var trace: String
    /// The row: a kind's name, `total` for the trace as a whole, or `unattributed`.
    public var row: String
    /// The metric.
    public var metric: BenchMetric
    /// The old figure (for wall clock: the median of its runs).
    public var old: Double
    /// The new figure.
    public var new: Double
    /// For wall clock: the one-sided p-value of "the new build is slower" (nil: not tested, as
    /// for a figure below the clock's resolution).
    public var pValue: Double?
    /// For wall clock: the estimated ratio new / old (Hodges–Lehmann, from the runs; unpaired,
    /// relative to the comparison's ``BenchComparison/drift``) and its 95 % confidence interval.
    public var ratio: Double?, ratioLow: Double?, ratioHigh: Double?
    /// Whether this is a regression.
    public var regressed: Bool

    /// Creates a change.
    public init(
        trace: String, row: String, metric: BenchMetric, old: Double, new: Double, pValue: Double? = nil, ratio: Double? = nil,
        ratioLow: Double? = nil, ratioHigh: Double? = nil, regressed: Bool
    ) {
        self.trace = trace
        self.row = row
        self.metric = metric
        self.old = old
        self.new = new
        self.pValue = pValue
        self.ratio = ratio
        self.ratioLow = ratioLow
        self.ratioHigh = ratioHigh
        self.regressed = regressed
    }

    /// The ratio and its interval as text: `×1.15 [1.12, 1.18]`, or nil when not estimated.
    public var ratioText: String? {
        guard let ratio else { return nil }
        func r(_ x: Double?) -> String { x.map(BenchFormat.ratio) ?? "?" }
        return "×\(r(ratio)) [\(r(ratioLow)), \(r(ratioHigh))]"
    }

    /// The relative change, (new − old) / old (+∞ when old is 0 and new is not).
    public var change: Double { old == 0 ? (new == 0 ? 0 : .infinity) : (new - old) / old }

    /// The change as text: `+12.3%`, `-0.4%`, `0%`, `new` (from 0).
    public var changeText: String {
        if old == 0 { return new == 0 ? "0%" : "new" }
        let pct = change * 100
        let r = (pct * 10).rounded() / 10
        return (r > 0 ? "+" : "") + BenchFormat.decimal(r, places: 1) + "%"
    }

    /// `trace row metric: old → new (change)`.
    public var description: String {
        "\(trace) \(row) \(metric.rawValue): \(BenchFormat.figure(old, metric)) → \(BenchFormat.figure(new, metric)) (\(changeText))"
    }
}

/// Wall clock: one kind's (or trace row's) change across the traces that run it.
package struct BenchKindShift: Hashable, Sendable, CustomStringConvertible {
    /// The row: a kind's name, `setup`, `total` or `unattributed`.
    public var row: String
    /// The metric.
    public var metric: BenchMetric
    /// The traces whose figure was tested.
    public var traces: Int
    /// How many of them were slower (unpaired, relative to the machine's drift).
    public var slower: Int
    /// The one-sided sign test's p-value of "slower in more traces than chance allows".
    public var pValue: Double
    /// The median of the per-trace ratios new / old (unpaired, relative to the drift) and its
    /// 95 % confidence interval.
    public var ratio: Double, ratioLow: Double, ratioHigh: Double
    /// Unpaired: the kind process by process (nil for paired runs).
    public var processes: Processes?
    /// Whether the kind regressed.
    public var regressed: Bool

    /// A kind's shift over the worker processes of an unpaired comparison: each process's figure
    /// is the median over the kind's runs it made (each from its trace's pooled median, the
    /// process's drift divided out), and the two sides' processes are compared with Welch's t.
    /// What a process drew moves the traces it measured alike, so the processes are the
    /// independent evidence.
    package struct Processes: Hashable, Sendable {
        /// How many processes of each side measured the kind.
        public var old: Int, new: Int
        /// Welch's one-sided p-value of "slower".
        public var pValue: Double
        /// The ratio of the processes' geometric means, new / old, and its 95 % confidence
        /// interval.
        public var ratio: Double, ratioLow: Double, ratioHigh: Double
    }

    /// `undo p50: slower in 35 of 35 traces, ×1.151 [1.12, 1.19]; over 30 + 30 processes ×1.16 [1.14, 1.19]`.
    public var description: String {
        var s = "\(row) \(metric.rawValue): slower in \(slower) of \(traces) trace\(traces == 1 ? "" : "s"), \(intervalText)"
        if let p = processes {
            s += "; over \(p.old) + \(p.new) processes \(Self.interval(p.ratio, p.ratioLow, p.ratioHigh))"
        }
        return s
    }

    /// `×1.151 [1.147, 1.214]`.
    public var intervalText: String { Self.interval(ratio, ratioLow, ratioHigh) }

    static func interval(_ ratio: Double, _ low: Double, _ high: Double) -> String {
        "×\(BenchFormat.ratio(ratio)) [\(BenchFormat.ratio(low)), \(BenchFormat.ratio(high))]"
    }
}

/// A kind one side of a comparison has in a trace and the other does not.
package struct BenchKindChange: Hashable, Sendable {
    /// The trace.
    public var trace: String
    /// The kind.
    public var kind: BenchKind
}
