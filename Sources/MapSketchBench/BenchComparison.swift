import Foundation
import MapSketchGeometry
package import MapSketchReplay

/// A new report against an old one: every compared figure, the regressions among them, and the
/// traces and kinds only one side has.
///
/// Exact counters (instructions, allocations, bytes) regress when the new figure exceeds the old
/// by more than the threshold (or appears where the old was 0). A wall-clock figure of paired runs
/// regresses only when three things hold:
/// 1. the runs say the new build is slower — a one-sided rank test, Wilcoxon's signed-rank test
///    run by run (the two reports are the two sides of one `--against` job) — and it stays
///    significant after the false discovery rate across all tested figures is held at ``fdr``
///    (Benjamini–Hochberg);
/// 2. it grew by more than the threshold with confidence, judged one of two ways. When its kind
///    regressed across the traces that run it (``kindShifts``: a sign test over the traces, the
///    false discovery rate held across the kinds, the median beyond the threshold), the one-sided
///    lower confidence bound of its Hodges–Lehmann estimate at the level ``fdr`` must be above the
///    threshold. Otherwise the figure must be overwhelming on its own (p ≤ q / m, the Bonferroni
///    bar) and its bound at the level that holds the false coverage rate of all the discoveries
///    (Benjamini–Yekutieli, R·q/m) above the threshold, measured from where its kind went: the
///    median shift of the kind's other traces (when it has ``kindPeers`` or more), if slower,
///    is taken off first. Where another build's code lies moves an operation wherever it runs:
///    a build changed in `undo` only made 48 traces' `gps.append` 3.5–4.6 % slower (3 runs of 40
///    pairs), each trace's figure spread around that, the slowest 7.6 % with p = 10⁻⁵; a dead
///    function of the same size, 1.7–1.9 %. What moved the whole kind by less than a regression
///    is the kind's verdict. The false discovery rate allows q of the
///    discoveries to be false — with 35 real regressions, about two figures of noise or of another
///    build's code layout would ride along (seen: a touch p50 ×1.43 at p = 0.0006, where a tap's
///    cheap touch-down and dear touch-up put each run's median between the two; a `gps.append`
///    ×1.09 in one trace) — while a weak real slowdown of an operation that runs once per trace
///    (an undo ×1.13) is plain only as part of its kind;
/// 3. it grew by at least two steps of the clock (``minimumSteps`` times its resolution) per
///    operation it adds up: per operation of a kind's latency, per event of a trace's total and
///    unattributed time. Each median is read off a stepped clock, and where a build's code happens
///    to lie in memory moves a fast operation by about a step: two builds that differ in one
///    function only were seen to differ by 10 to 18 ns (one or two steps of a 10 ns clock) in
///    operations that function never runs, and by 1.5 ns per event (+8.8 %) in the unattributed
///    time of a 261-event trace that never calls it. A change of the code that costs every event
///    less than two steps is below what two builds' layouts let the clock vouch for. A kind's
///    verdict obeys the same rule: the median of its traces' growth per operation must reach two
///    steps (a kind of 20–28 ns was seen 2–7 ns slower in 42 of 48 traces, every process
///    agreeing, between two builds that differed in another function only).
///
/// Unpaired runs (a report against a baseline measured at another time) cannot vouch for one
/// figure: a busier machine does not slow every operation alike. Beside a CPU-bound process, the
/// same build's set-up of a few long traces was 40 to 90 % slower, and the median latency of an
/// operation that runs once per trace 30 % slower, while everything else moved by 1 or 2 %. So
/// unpaired wall clock is judged a kind at a time, across the traces that run it
/// (``kindShifts``): after the machine's overall ``drift`` is divided out, a kind regresses when
/// it is slower in more traces than chance allows (a one-sided sign test over the traces, the
/// false discovery rate held across the kinds) and the median of its per-trace ratios is beyond
/// the threshold with confidence (the sign test's one-sided lower bound at the level ``fdr``). A
/// change of the code slows an operation wherever it runs; the machine slows some traces' figures
/// and not others. The traces are not the whole evidence, though: what a worker process draws
/// (where its heap lies, what ran beside it) moves the traces it measures alike. So the kind must
/// also be slower over the processes (``processDeviations(_:processes:drift:)``: each process's
/// median over the kind's runs it made, the process's own drift divided out, the two sides'
/// processes compared with Welch's t; ``BenchTraceResult/processes`` says which process made a
/// run, and a report that does not say counts each round as one): the larger of the two p-values
/// goes into the false discovery rate, and the processes' one-sided lower bound at the level
/// ``fdr`` must be beyond the threshold too. Seen in an A/A run of 5 rounds, one process each,
/// beside a memory-bound process: `gps.filter` slower in 42 of 48 traces, ×1.084 with the traces'
/// bound at 1.051, while over the processes it was ×1.076 with a 95 % interval reaching 0.997 — a
/// few processes, not the code. Within a kind that regressed, the figures that grew beyond the threshold (and
/// by two clock steps per operation, with their own runs' one-sided p-value below the false
/// discovery rate) are the regressions. A kind run by too few traces for the sign test to reach
/// the false discovery rate is not gated on unpaired wall clock (``tracesNeeded`` says so): gate
/// it with paired runs or the exact counters. Every tested figure reports its estimated ratio with
/// a 95 % confidence interval.
///
/// A kind whose median latency is below the clock's resolution on both sides is not tested on
/// wall clock (its counters still are). A trace only the new report has is `new`; one only the
/// old has, and that the new report's shard covers, is `removed`: neither is a regression.
package struct BenchComparison: Hashable, Sendable {
    /// The default false discovery rate.
    public static let defaultFDR = 0.05
    /// The fewest runs per side a wall-clock metric needs.
    public static let minimumRuns = 3
    /// The smallest wall-clock increase that can be a regression, in steps of the clock.
    public static let minimumSteps = 2.0
    /// The fewest other traces of a kind whose median shift a paired figure outside a regressed
    /// kind is measured from.
    public static let kindPeers = 3
    /// The fewest wall-clock figures from which an unpaired comparison estimates the machine's
    /// drift (``drift``); with fewer, figures are judged as measured.
    public static let driftFigures = 20

    /// The metrics compared.
    public var metrics: [BenchMetric]
    /// The threshold, as a fraction (0.05 for 5 %).
    public var threshold: Double
    /// The false discovery rate held across the wall-clock figures tested.
    public var fdr: Double
    /// Whether the wall-clock runs were compared pair by pair (the two sides of one `--against`
    /// job).
    public var paired: Bool
    /// Every compared figure, regressions first, then by trace, row and metric.
    public var changes: [BenchChange]
    /// How many wall-clock figures went through the significance test (the `m` of the false
    /// discovery rate).
    public var tested: Int
    /// Wall-clock figures not tested because the kind is below the clock's resolution.
    public var belowResolution: Int
    /// Traces only the new report has.
    public var newTraces: [String]
    /// Traces only the old report has (within the new report's shard).
    public var removedTraces: [String]
    /// Kinds only the new report has in a trace both have: (trace, kind).
    public var newKinds: [BenchKindChange]
    /// Kinds only the old report has in a trace both have.
    public var removedKinds: [BenchKindChange]
    /// When the runs are too few for any wall-clock figure to pass the false discovery rate (a
    /// rank test's smallest p-value depends on the number of runs only): the runs per side that
    /// would be enough. Nil when they are enough, or nothing was tested on wall clock.
    public var runsNeeded: Int?
    /// Wall clock: each kind's (and each trace row's: `setup`, `total`, `unattributed`) shift
    /// across the traces that run it — the verdict of an unpaired comparison, and the kind-level
    /// evidence of a paired one. Empty for exact counters.
    public var kindShifts: [BenchKindShift]
    /// Unpaired wall clock, when no kind runs in enough traces for the sign test to pass the false
    /// discovery rate: the traces a kind would need. Nil when some kind can be judged, for paired
    /// runs and for exact counters.
    public var tracesNeeded: Int?
    /// Unpaired wall clock: how much slower (above 1) or faster the new runs were than the old as
    /// a whole — the median over every tested figure — taken as the machine's difference between
    /// the two times, not the code's, and divided out of every figure before it is judged. A
    /// change that slows every operation alike cannot be told from a slower machine this way:
    /// paired runs (`--against`) can. Nil for paired runs, exact counters, and fewer than
    /// ``driftFigures`` wall-clock figures.
    public var drift: Double?

    /// The regressions.
    public var regressions: [BenchChange] { changes.filter(\.regressed) }

    /// Compares `current` with `baseline`.
    /// - Parameters:
    ///   - baselineFile: named in errors.
    ///   - metrics: the metrics to gate; nil: the exact counters both reports have.
    ///   - threshold: the allowed increase, as a fraction.
    ///   - fdr: the false discovery rate across the wall-clock figures.
    /// - Throws: ``OutputError`` naming the baseline file when the reports share no trace while
    ///   both have some, when a metric asked for is missing on either side, when no metric is
    ///   common to both, or when a wall-clock metric has fewer than ``minimumRuns`` runs on a side.
    /// - Complexity: O(t · k · m · r + f log f) for t traces, k kinds, m metrics, r runs and f figures.
    public static func compare(
        _ current: BenchReport, baseline: BenchReport, baselineFile: String, metrics: [BenchMetric]?, threshold: Double,
        fdr: Double = defaultFDR
    ) throws(OutputError) -> BenchComparison {
        let fail = { (m: String) in OutputError(path: baselineFile, message: m) }
        let common = current.traces.filter { baseline.trace($0.name) != nil }
        if common.isEmpty, !current.traces.isEmpty, !baseline.traces.isEmpty {
            let had = baseline.traces.prefix(5).map(\.name).joined(separator: ", ") + (baseline.traces.count > 5 ? ", …" : "")
            throw fail(
                "the baseline is for other traces: it has none of the \(current.traces.count) benched here (it has \(baseline.traces.count): \(had)); a trace's name is its path below the folder given")
        }
        let chosen = try choose(metrics, current: current, baseline: baseline, fail: fail)
        let paired = current.pairID != nil && current.pairID == baseline.pairID
        let resolution = Swift.max(current.clock.resolution, baseline.clock.resolution)
        var figures: [Figure] = []
        var newKinds: [BenchKindChange] = []
        var removedKinds: [BenchKindChange] = []
        for t in common {
            guard let b = baseline.trace(t.name) else { continue }
            for m in chosen { figures += Figure.all(t, b, m, resolution: resolution) }
            newKinds += t.kinds.filter { b.kind($0.kind) == nil }.map { BenchKindChange(trace: t.name, kind: $0.kind) }
            removedKinds += b.kinds.filter { t.kind($0.kind) == nil }.map { BenchKindChange(trace: t.name, kind: $0.kind) }
        }
        // Significance, then the false discovery rate across every tested figure, on the
        // logarithms of the runs' figures.
        let tested = figures.indices.filter { figures[$0].test != nil }
        let logs = tested.map { i in (x: figures[i].test?.old.map { log($0) } ?? [], y: figures[i].test?.new.map { log($0) } ?? []) }
        let processes = tested.map { figures[$0].processes }
        // Unpaired runs were made at different times, when the machine may have been faster or
        // slower as a whole: the median shift over every figure is taken as the machine's (with
        // enough figures that a change of the code moves few of them).
        let estimatesDrift = !paired && logs.count >= Self.driftFigures
        let drift = estimatesDrift ? median(logs.map { (median($0.y) ?? 0) - (median($0.x) ?? 0) }) ?? 0 : 0
        var cache = BenchStatistics.RankSumCache()
        let pValues = logs.map { l in
            paired && l.x.count == l.y.count
                ? BenchStatistics.signedRankSlower(zip(l.y, l.x).map { $0 - $1 })
                : BenchStatistics.mannWhitneySlower(old: l.x, new: l.y.map { $0 - drift }, cache: &cache)
        }
        func shift(_ l: (x: [Double], y: [Double]), _ lower: Double, _ upper: Double) -> BenchStatistics.Estimate {
            paired && l.x.count == l.y.count
                ? BenchStatistics.pairedShift(zip(l.y, l.x).map { $0 - $1 }, lowerLevel: lower, upperLevel: upper)
                : BenchStatistics.unpairedShift(old: l.x, new: l.y.map { $0 - drift }, lowerLevel: lower, upperLevel: upper)
        }
        // Beyond the threshold, and by two steps of the clock per operation it adds up.
        func grewEnough(_ i: Int, _ logShift: Double) -> Bool {
            let f = figures[i]
            return logShift > log1p(threshold) && f.new * exp(-drift) - f.old >= Self.minimumSteps * resolution * f.operations
        }
        // Each tested figure's growth per operation (the drift divided out), for the kinds' clock-step rule.
        let growth = tested.map { i in (figures[i].new * exp(-drift) - figures[i].old) / Swift.max(figures[i].operations, 1) }
        let minimumGrowth = Self.minimumSteps * resolution
        var byFigure: [Int: (p: Double, shown: BenchStatistics.Estimate, regressed: Bool)] = [:]
        var kindShifts: [BenchKindShift] = []
        var tracesNeeded: Int?
        if paired {
            let discovered = BenchStatistics.discoveries(pValues, q: fdr)
            // The kinds across the traces, each trace's figure by the median of its run-by-run
            // differences: a change of the code slows an operation wherever it runs.
            let judged = Self.judgeKinds(
                figures: tested.map { (row: figures[$0].row, metric: figures[$0].metric) },
                shifts: logs.map { l in median(zip(l.y, l.x).map { $0 - $1 }) ?? 0 }, threshold: threshold, fdr: fdr,
                growth: growth, minimumGrowth: minimumGrowth)
            kindShifts = judged.kinds
            let bonferroni = fdr / Double(max(tested.count, 1))
            // The level that keeps the false coverage rate of the discoveries at q
            // (Benjamini–Yekutieli: R·q/m for R discovered of m).
            let selectedLevel = Double(discovered.filter { $0 }.count) * fdr / Double(max(tested.count, 1))
            for (j, i) in tested.enumerated() {
                // A discovery of a kind that regressed across the traces must be beyond the
                // threshold at the one-sided level q; any other must be overwhelming on its own
                // (p ≤ q / m) and beyond the threshold at the level that holds the false coverage
                // rate of all the discoveries.
                // A figure alone is measured from where its kind went: what every trace of the
                // kind moved by together, short of a regression of the kind, is the kind's verdict
                // (another build's code layout moves an operation wherever it runs).
                let alone = !judged.regressedKind[j]
                let level: Double? = !alone ? fdr : pValues[j] <= bonferroni ? selectedLevel : nil
                let common = alone ? Swift.max(0, judged.kindShift[j]) : 0
                let regressed = discovered[j] && level.map { grewEnough(i, shift(logs[j], $0, 0.5).lower - common) } == true
                byFigure[i] = (pValues[j], shift(logs[j], 0.025, 0.025), regressed)
            }
        } else {
            let judged = Self.judgeKinds(
                figures: tested.map { (row: figures[$0].row, metric: figures[$0].metric) },
                shifts: logs.map { (median($0.y) ?? 0) - (median($0.x) ?? 0) - drift }, threshold: threshold, fdr: fdr,
                processes: Self.processDeviations(logs, processes: processes, drift: estimatesDrift),
                growth: growth, minimumGrowth: minimumGrowth)
            kindShifts = judged.kinds
            tracesNeeded = judged.tracesNeeded
            for (j, i) in tested.enumerated() {
                let shown = shift(logs[j], 0.025, 0.025)
                let regressed = judged.regressedKind[j] && pValues[j] <= fdr && grewEnough(i, shown.value)
                byFigure[i] = (pValues[j], shown, regressed)
            }
        }
        var changes: [BenchChange] = []
        for (i, f) in figures.enumerated() {
            if f.metric.isExact {
                let regressed = f.old == 0 ? f.new > 0 : f.new > f.old * (1 + threshold)
                changes.append(BenchChange(trace: f.trace, row: f.row, metric: f.metric, old: f.old, new: f.new, regressed: regressed))
            } else if let t = byFigure[i] {
                changes.append(
                    BenchChange(
                        trace: f.trace, row: f.row, metric: f.metric, old: f.old, new: f.new, pValue: t.p, ratio: exp(t.shown.value),
                        ratioLow: exp(t.shown.lower), ratioHigh: exp(t.shown.upper), regressed: t.regressed))
            } else {
                changes.append(BenchChange(trace: f.trace, row: f.row, metric: f.metric, old: f.old, new: f.new, regressed: false))
            }
        }
        var runsNeeded: Int?
        if !tested.isEmpty {
            // Paired, a figure's own test must pass the false discovery rate across every figure;
            // unpaired, a figure's runs must only be able to reach it on their own.
            let bar = paired ? fdr / Double(tested.count) : fdr
            let runs = (old: baseline.runs, new: current.runs)
            if BenchStatistics.smallestPValue(runs: runs, paired: paired) > bar {
                runsNeeded = (1...1_000).first { n in BenchStatistics.smallestPValue(runs: (n, n), paired: paired) <= bar }
            }
        }
        let failed = Set(current.failures.map(\.trace) + current.expectedFailures.map(\.trace))
        let removed = baseline.traces.map(\.name).filter { current.trace($0) == nil && !failed.contains($0) && current.covers($0) }
        return BenchComparison(
            metrics: chosen, threshold: threshold, fdr: fdr, paired: paired, changes: sorted(changes), tested: tested.count,
            belowResolution: figures.filter { !$0.metric.isExact && $0.test == nil }.count,
            newTraces: current.traces.map(\.name).filter { baseline.trace($0) == nil }, removedTraces: removed,
            newKinds: newKinds, removedKinds: removedKinds, runsNeeded: runsNeeded, kindShifts: kindShifts, tracesNeeded: tracesNeeded,
            drift: estimatesDrift ? exp(drift) : nil)
    }

    /// The metrics compared: those asked for (each must be on both sides, wall clock with enough
    /// runs), or the exact counters both reports have.
    private static func choose(
        _ metrics: [BenchMetric]?, current: BenchReport, baseline: BenchReport, fail: (String) -> OutputError
    ) throws(OutputError) -> [BenchMetric] {
        func has(_ r: BenchReport, _ m: BenchMetric) -> Bool {
            switch m {
            case .instructions: r.counters.instructions
            case .allocations, .bytes: r.counters.allocations
            default: true
            }
        }
        func why(_ m: BenchMetric, baseline: Bool) -> String {
            switch m {
            case .instructions: baseline ? "recorded without --instrument callgrind" : "add --instrument callgrind"
            default: baseline ? "recorded by a build without the AllocationCounters trait" : "build with --traits AllocationCounters"
            }
        }
        guard let metrics else {
            let chosen = [BenchMetric.instructions, .allocations, .bytes].filter { has(baseline, $0) && has(current, $0) }
            if chosen.isEmpty {
                throw fail(
                    "nothing to compare: the exact counters gated by default (instructions, allocations) are in neither both the baseline and this run; measure one (--instrument callgrind, or a build with --traits AllocationCounters) or choose a wall-clock metric with --metric p50")
            }
            return chosen
        }
        for m in metrics {
            if !has(baseline, m) { throw fail("--metric \(m.rawValue): the baseline has no \(m.unit) (\(why(m, baseline: true)))") }
            if !has(current, m) { throw fail("--metric \(m.rawValue): this run has no \(m.unit) (\(why(m, baseline: false)))") }
            if !m.isExact, baseline.runs < minimumRuns || current.runs < minimumRuns {
                throw fail(
                    "--metric \(m.rawValue) compares wall clock over runs and needs at least \(minimumRuns) runs on both sides (baseline \(baseline.runs), this run \(current.runs)): use --runs 5")
            }
        }
        return metrics
    }

    private static func sorted(_ changes: [BenchChange]) -> [BenchChange] {
        func rowOrder(_ row: String) -> Int {
            row == "total" ? -1 : row == BenchKind.unattributedName ? Int.max : BenchKind(named: row).order
        }
        return changes.sorted { a, b in
            if a.regressed != b.regressed { return a.regressed }
            if a.trace != b.trace { return a.trace.utf8.lexicographicallyPrecedes(b.trace.utf8) }
            if a.row != b.row { return rowOrder(a.row) != rowOrder(b.row) ? rowOrder(a.row) < rowOrder(b.row) : a.row < b.row }
            return (BenchMetric.allCases.firstIndex(of: a.metric) ?? 0) < (BenchMetric.allCases.firstIndex(of: b.metric) ?? 0)
        }
    }
}

/// One figure to compare, with the runs of both sides when it is wall clock.
private struct Figure {
    var trace: String
    var row: String
    var metric: BenchMetric
    var old: Double
    var new: Double
    /// The runs to test (nil: exact, or not tested).
    var test: (old: [Double], new: [Double])?
    /// The worker process of each of those runs (``BenchTraceResult/processes``; where a report
    /// does not say, each run its own).
    var processes: (old: [Int], new: [Int]) = ([], [])
    /// How many operations the wall-clock figure adds up: 1 for a kind's latency, the trace's
    /// events for its total and unattributed time.
    var operations: Double = 1

    func pValue(paired: Bool, cache: inout BenchStatistics.RankSumCache) -> Double {
        guard let test else { return 1 }
        if paired, test.old.count == test.new.count {
            return BenchStatistics.signedRankSlower(zip(test.new, test.old).map { log($0) - log($1) })
        }
        return BenchStatistics.mannWhitneySlower(old: test.old, new: test.new, cache: &cache)
    }

    /// Every figure of `metric` for a trace both reports have.
    static func all(_ t: BenchTraceResult, _ b: BenchTraceResult, _ m: BenchMetric, resolution: Double) -> [Figure] {
        var out: [Figure] = []
        switch m {
        case .instructions, .allocations, .bytes:
            func whole(_ r: BenchTraceResult) -> Double? {
                let v = m == .instructions ? r.instructions : m == .allocations ? r.allocations : r.bytes
                guard let v, !v.isEmpty else { return nil }
                return Double(m == .instructions ? median(v) ?? 0 : v.max() ?? 0)
            }
            func rest(_ r: BenchTraceResult) -> Double? {
                let u = r.unattributed.compactMap { m == .instructions ? $0.instructions : m == .allocations ? $0.allocations : $0.bytes }
                return u.isEmpty ? nil : Double(m == .instructions ? median(u) ?? 0 : u.max() ?? 0)
            }
            if let new = whole(t), let old = whole(b) { out.append(Figure(trace: t.name, row: "total", metric: m, old: old, new: new)) }
            for k in t.kinds {
                guard let bk = b.kind(k.kind) else { continue }
                let get: (BenchKindResult) -> UInt64? = { r in m == .instructions ? r.instructions : m == .allocations ? r.allocations : r.bytes }
                if let new = get(k), let old = get(bk) {
                    out.append(Figure(trace: t.name, row: k.kind.name, metric: m, old: Double(old), new: Double(new)))
                }
            }
            if let new = rest(t), let old = rest(b) {
                out.append(Figure(trace: t.name, row: BenchKind.unattributedName, metric: m, old: old, new: new))
            }
        case .total:
            let events = Double(Swift.max(1, Swift.min(t.events, b.events)))
            out.append(wall(t, b, "total", m, old: b.totalNanoseconds, new: t.totalNanoseconds, resolved: true, operations: events))
            let oldRest = b.unattributed.map(\.nanoseconds)
            let newRest = t.unattributed.map(\.nanoseconds)
            if !oldRest.isEmpty, !newRest.isEmpty {
                out.append(wall(t, b, BenchKind.unattributedName, m, old: oldRest, new: newRest, resolved: true, operations: events))
            }
        case .p50, .p90, .p99, .max, .mean:
            for k in t.kinds {
                guard let bk = b.kind(k.kind) else { continue }
                let get: (BenchKindResult.Run) -> Double = { r in
                    switch m {
                    case .p50: r.p50
                    case .p90: r.p90
                    case .p99: r.p99
                    case .max: r.max
                    default: r.mean
                    }
                }
                let resolved = k.p50 >= resolution || bk.p50 >= resolution
                out.append(wall(t, b, k.kind.name, m, old: bk.runs.map(get), new: k.runs.map(get), resolved: resolved))
            }
        }
        return out
    }

    /// A wall-clock figure: the medians, and the runs to test when the clock resolves it and
    /// every run has a positive figure (a logarithm).
    private static func wall(
        _ t: BenchTraceResult, _ b: BenchTraceResult, _ row: String, _ m: BenchMetric, old: [Double], new: [Double], resolved: Bool,
        operations: Double = 1
    ) -> Figure {
        let testable = resolved && !old.isEmpty && !new.isEmpty && (old + new).allSatisfy { $0 > 0 }
        func processes(_ r: BenchTraceResult, _ runs: Int) -> [Int] {
            r.processes.flatMap { $0.count == runs ? $0 : nil } ?? Array(0..<runs)
        }
        return Figure(
            trace: t.name, row: row, metric: m, old: median(old) ?? 0, new: median(new) ?? 0, test: testable ? (old, new) : nil,
            processes: (processes(b, old.count), processes(t, new.count)), operations: operations)
    }
}
