public import MapSketchReplay
import Foundation
import MapSketchGeometry

/// A figure `--baseline` can compare (`--metric`).
public enum BenchMetric: String, CaseIterable, Hashable, Sendable {
    /// Instructions (callgrind): per kind and per trace.
    case instructions
    /// Allocation count: per kind and per trace (set-up and replay).
    case allocations
    /// Bytes allocated: per kind and per trace.
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
    /// The whole replay's time per trace (wall clock).
    case total

    /// Whether the metric is an exact counter (the same on every run of the same build), which
    /// is compared directly; wall-clock metrics are compared with a significance test over the runs.
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

/// One compared figure: a trace's (`kind` nil) or one kind's.
public struct BenchChange: Hashable, Sendable, CustomStringConvertible {
    /// The trace.
    public var trace: String
    /// The operation kind, or nil for the trace as a whole.
    public var kind: BenchOperation?
    /// The metric.
    public var metric: BenchMetric
    /// The baseline's figure (for wall clock: the median of its runs).
    public var old: Double
    /// This run's figure.
    public var new: Double
    /// For wall clock: the one-sided Mann–Whitney U p-value of "this run is slower".
    public var pValue: Double?
    /// Whether this is a regression.
    public var regressed: Bool

    /// Creates a change.
    public init(trace: String, kind: BenchOperation?, metric: BenchMetric, old: Double, new: Double, pValue: Double? = nil, regressed: Bool) {
        self.trace = trace
        self.kind = kind
        self.metric = metric
        self.old = old
        self.new = new
        self.pValue = pValue
        self.regressed = regressed
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

    /// The kind's name in reports (`total` for the trace as a whole).
    public var kindName: String { kind?.rawValue ?? "total" }

    /// `trace kind metric: old → new (change)`.
    public var description: String {
        "\(trace) \(kindName) \(metric.rawValue): \(BenchFormat.figure(old, metric)) → \(BenchFormat.figure(new, metric)) (\(changeText))"
    }
}

/// This run against a baseline: every compared figure and the regressions among them.
///
/// Exact counters (instructions, allocations, bytes) regress when the new figure exceeds the old
/// by more than the threshold (or appears where the old was 0). Wall-clock metrics regress only
/// when the median of this run's samples exceeds the baseline's by more than the threshold AND a
/// one-sided Mann–Whitney U test over the runs says this run is slower (p < 0.05): a single slow
/// sample on a noisy machine is not a regression. That needs at least 4 runs on both sides.
public struct BenchComparison: Hashable, Sendable {
    /// The significance level of the wall-clock test.
    public static let alpha = 0.05
    /// The fewest runs per side the wall-clock test accepts (with 4 and 4 the smallest p is 1/70).
    public static let minimumRuns = 4

    /// The metrics compared.
    public var metrics: [BenchMetric]
    /// The threshold, as a fraction (0.05 for 5 %).
    public var threshold: Double
    /// Every compared figure, regressions first, then by trace, kind and metric.
    public var changes: [BenchChange]

    /// The regressions.
    public var regressions: [BenchChange] { changes.filter(\.regressed) }

    /// Compares `current` with `baseline`.
    /// - Parameters:
    ///   - metrics: the metrics to gate; nil: the exact counters both reports have.
    ///   - threshold: the allowed increase, as a fraction.
    /// - Throws: ``OutputError`` naming the baseline file when the baseline holds none (or not all) of this run's
    ///   traces, when a metric asked for is missing on either side, when no metric is common to
    ///   both, or when a wall-clock metric has fewer than ``minimumRuns`` runs on a side.
    /// - Complexity: O(t · k · m · r²) for t traces, k kinds, m metrics and r runs.
    public static func compare(
        _ current: BenchReport, baseline: BenchReport, baselineFile: String, metrics: [BenchMetric]?, threshold: Double
    ) throws(OutputError) -> BenchComparison {
        let fail = { (m: String) in OutputError(path: baselineFile, message: m) }
        let missing = current.traces.map(\.name).filter { baseline.trace($0) == nil }
        if !current.traces.isEmpty, missing.count == current.traces.count {
            let had = baseline.traces.prefix(5).map(\.name).joined(separator: ", ") + (baseline.traces.count > 5 ? ", …" : "")
            throw fail(
                "the baseline is for other traces: it has none of the \(current.traces.count) benched here (it has \(baseline.traces.count): \(had.isEmpty ? "none" : had))")
        }
        if !missing.isEmpty {
            throw fail(
                "the baseline has no figures for \(missing.count) trace(s) benched here: \(missing.prefix(5).joined(separator: ", "))\(missing.count > 5 ? ", …" : ""); record it again with --save-baseline, or narrow the selection with --filter")
        }
        func has(_ r: BenchReport, _ m: BenchMetric) -> Bool {
            switch m {
            case .instructions: r.counters.instructions
            case .allocations, .bytes: r.counters.allocations
            default: true
            }
        }
        let chosen: [BenchMetric]
        if let metrics {
            for m in metrics {
                if !has(baseline, m) { throw fail("--metric \(m.rawValue): the baseline has no \(m.unit) (\(why(m, baseline: true)))") }
                if !has(current, m) { throw fail("--metric \(m.rawValue): this run has no \(m.unit) (\(why(m, baseline: false)))") }
                if !m.isExact, baseline.runs < minimumRuns || current.runs < minimumRuns {
                    throw fail(
                        "--metric \(m.rawValue) compares wall clock over runs and needs at least \(minimumRuns) runs on both sides (baseline \(baseline.runs), this run \(current.runs)): use --runs 5")
                }
            }
            chosen = metrics
        } else {
            chosen = [BenchMetric.instructions, .allocations, .bytes].filter { has(baseline, $0) && has(current, $0) }
            if chosen.isEmpty {
                throw fail(
                    "nothing to compare: the exact counters gated by default (instructions, allocations) are in neither both the baseline and this run; measure one (--instrument callgrind, or a build with --traits AllocationCounters) or choose a wall-clock metric with --metric p50")
            }
        }
        var changes: [BenchChange] = []
        for t in current.traces {
            guard let b = baseline.trace(t.name) else { continue }
            for m in chosen { changes += compare(t, b, m, threshold: threshold) }
        }
        changes.sort { a, b in
            if a.regressed != b.regressed { return a.regressed }
            if a.trace != b.trace { return a.trace.utf8.lexicographicallyPrecedes(b.trace.utf8) }
            let ka = a.kind.map { $0.ordinal + 1 } ?? 0
            let kb = b.kind.map { $0.ordinal + 1 } ?? 0
            if ka != kb { return ka < kb }
            return (BenchMetric.allCases.firstIndex(of: a.metric) ?? 0) < (BenchMetric.allCases.firstIndex(of: b.metric) ?? 0)
        }
        return BenchComparison(metrics: chosen, threshold: threshold, changes: changes)
    }

    private static func why(_ m: BenchMetric, baseline: Bool) -> String {
        switch m {
        case .instructions: baseline ? "recorded without --instrument callgrind" : "add --instrument callgrind"
        default: baseline ? "recorded by a build without the AllocationCounters trait" : "build with --traits AllocationCounters"
        }
    }

    private static func compare(_ t: BenchTraceResult, _ b: BenchTraceResult, _ m: BenchMetric, threshold: Double) -> [BenchChange] {
        var out: [BenchChange] = []
        switch m {
        case .instructions, .allocations, .bytes:
            let pick: (BenchTraceResult) -> [UInt64]? = { r in m == .instructions ? r.instructions : m == .allocations ? r.allocations : r.bytes }
            if let new = pick(t).flatMap({ exact($0, m) }), let old = pick(b).flatMap({ exact($0, m) }) {
                out.append(exactChange(t.name, nil, m, old: old, new: new, threshold: threshold))
            }
            for k in t.kinds {
                guard let bk = b.kind(k.kind) else { continue }
                let get: (BenchKindResult) -> UInt64? = { r in m == .instructions ? r.instructions : m == .allocations ? r.allocations : r.bytes }
                if let new = get(k), let old = get(bk) { out.append(exactChange(t.name, k.kind, m, old: Double(old), new: Double(new), threshold: threshold)) }
            }
        case .total:
            out.append(wallChange(t.name, nil, m, old: b.totalNanoseconds.map { Double($0) }, new: t.totalNanoseconds.map { Double($0) }, threshold: threshold))
        case .p50, .p90, .p99, .max, .mean:
            for k in t.kinds {
                guard let bk = b.kind(k.kind) else { continue }
                let get: (BenchKindResult.Run) -> Double = { r in
                    switch m {
                    case .p50: Double(r.p50)
                    case .p90: Double(r.p90)
                    case .p99: Double(r.p99)
                    case .max: Double(r.max)
                    default: r.mean
                    }
                }
                out.append(wallChange(t.name, k.kind, m, old: bk.runs.map(get), new: k.runs.map(get), threshold: threshold))
            }
        }
        return out
    }

    /// A trace's exact figure over its runs: the median run's instructions, the largest run's
    /// allocations (runs agree unless something is wrong, and then the worst one counts).
    private static func exact(_ values: [UInt64], _ m: BenchMetric) -> Double? {
        guard !values.isEmpty else { return nil }
        return m == .instructions ? median(values).map { Double($0) } : values.max().map { Double($0) }
    }

    private static func exactChange(_ trace: String, _ kind: BenchOperation?, _ m: BenchMetric, old: Double, new: Double, threshold: Double) -> BenchChange {
        let regressed = old == 0 ? new > 0 : new > old * (1 + threshold)
        return BenchChange(trace: trace, kind: kind, metric: m, old: old, new: new, regressed: regressed)
    }

    private static func wallChange(_ trace: String, _ kind: BenchOperation?, _ m: BenchMetric, old: [Double], new: [Double], threshold: Double) -> BenchChange {
        let o = median(old) ?? 0
        let n = median(new) ?? 0
        let p = MannWhitney.pGreater(new, old)
        let regressed = n > o * (1 + threshold) && p < alpha
        return BenchChange(trace: trace, kind: kind, metric: m, old: o, new: n, pValue: p, regressed: regressed)
    }
}

/// The Mann–Whitney U test (Wilcoxon rank-sum), one-sided: is the first sample stochastically
/// greater than the second? Exact distribution for small samples, normal approximation with
/// continuity correction above 30 per side. Ties count one half.
///
/// Source: H. B. Mann and D. R. Whitney, "On a test of whether one of two random variables is
/// stochastically larger than the other", Annals of Mathematical Statistics 18 (1947).
enum MannWhitney {
    /// U for `x` over `y`: the number of pairs with x > y, ties counting ½ (as twice U, an integer).
    static func twiceU(_ x: [Double], _ y: [Double]) -> Int {
        var u = 0
        for a in x { for b in y { u += a > b ? 2 : (a == b ? 1 : 0) } }
        return u
    }

    /// P(U ≥ observed) under the null hypothesis that both samples come from one distribution.
    /// - Complexity: O(n² m²) for the exact distribution (n, m ≤ 30), O(n m) otherwise.
    static func pGreater(_ x: [Double], _ y: [Double]) -> Double {
        let n = x.count
        let m = y.count
        guard n > 0, m > 0 else { return 1 }
        let u2 = twiceU(x, y)
        if n <= 30 && m <= 30 {
            // counts[u] = arrangements of n x's among m y's giving U = u (no ties).
            let dist = distribution(n, m)
            let total = dist.reduce(0, +)
            // U is a half-integer with ties: P(U ≥ u) for the smallest integer u ≥ observed.
            let from = (u2 + 1) / 2
            guard from < dist.count else { return 0 }
            return dist[from...].reduce(0, +) / total
        }
        let mean = Double(n * m) / 2
        let sd = (Double(n * m * (n + m + 1)) / 12).squareRoot()
        let z = (Double(u2) / 2 - mean - 0.5) / sd
        return 0.5 * erfc(z / 2.0.squareRoot())
    }

    /// The number of orderings of n and m items for each U = 0…n·m, as Doubles.
    static func distribution(_ n: Int, _ m: Int) -> [Double] {
        // f[i][j][u]: rolling over i with a table per j.
        var f = Array(repeating: Array(repeating: [Double](), count: m + 1), count: n + 1)
        for i in 0...n {
            for j in 0...m {
                if i == 0 || j == 0 {
                    f[i][j] = Array(repeating: 0, count: i * j + 1)
                    f[i][j][0] = 1
                    continue
                }
                var row = Array(repeating: 0.0, count: i * j + 1)
                // The largest item is an x (it beats all j y's) or a y.
                for (u, c) in f[i - 1][j].enumerated() { row[u + j] += c }
                for (u, c) in f[i][j - 1].enumerated() { row[u] += c }
                f[i][j] = row
            }
        }
        return f[n][m]
    }
}
