import Foundation

/// Wall clock a kind at a time: across the traces that run it, and (unpaired) over the worker processes.
extension BenchComparison {
    /// One figure's runs on one side as deviations (``processDeviations(_:processes:drift:)``),
    /// each with the worker process that made it.
    typealias Deviations = [(process: Int, value: Double)]

    /// Wall clock a kind at a time: the figures grouped by row and metric, each group's per-trace
    /// log-shifts (`shifts`: unpaired, the machine's drift already divided out; paired, the median
    /// of the run-by-run differences) tested with a one-sided sign test, the false discovery rate
    /// held across the groups, and a discovered group regressed when the one-sided lower
    /// confidence bound of its median shift (the sign test's, at the level `fdr`) is beyond the
    /// threshold. With `processes` (unpaired: ``processDeviations(_:processes:drift:)`` of each
    /// figure), a group must also be slower over the worker processes: Welch's t on each process's
    /// median over the group's figures, the larger of the two p-values taken for the false
    /// discovery rate, and the processes' one-sided lower bound at the level `fdr` beyond the
    /// threshold too.
    ///
    /// With `growth` (each figure's increase per operation, in the figures' unit, the drift divided out), a
    /// group regresses only when the median of its members' growth is at least `minimumGrowth`
    /// too: the clock-step rule a figure obeys (see ``minimumSteps``), for the kind as a whole.
    /// Two builds differing in one function moved `gps.project` (20–28 ns) by 2–7 ns in 42 of 48
    /// traces, 30 + 30 processes agreeing (p = 1e-10): a whole kind moved by where its code lies,
    /// below two steps of a 10 ns clock.
    /// - Returns: each group's shift, whether each figure's group regressed, the median log-shift
    ///   of each figure's other group members (0 when fewer than ``kindPeers``), and the traces a
    ///   group would need when none has enough.
    static func judgeKinds(
        figures: [(row: String, metric: BenchMetric)], shifts: [Double], threshold: Double, fdr: Double,
        processes: [(old: Deviations, new: Deviations)]? = nil, growth: [Double]? = nil, minimumGrowth: Double = 0
    ) -> (kinds: [BenchKindShift], regressedKind: [Bool], kindShift: [Double], tracesNeeded: Int?) {
        struct Key: Hashable {
            var row: String
            var metric: BenchMetric
        }
        var groups: [Key: [Int]] = [:]
        var keys: [Key] = []
        for (j, f) in figures.enumerated() {
            let k = Key(row: f.row, metric: f.metric)
            if groups[k] == nil { keys.append(k) }
            groups[k, default: []].append(j)
        }
        guard !keys.isEmpty else { return ([], [], [], nil) }
        let signPValues = keys.map { k in BenchStatistics.signTestSlower(groups[k, default: []].map { shifts[$0] }) }
        // Unpaired: the kind process by process (Welch's t over the processes of the two sides).
        let overProcesses = processes.map { r in
            keys.map { k in
                let members = groups[k, default: []]
                func side(_ runs: (Int) -> Deviations) -> [Double] {
                    var byProcess: [Int: [Double]] = [:]
                    for j in members { for d in runs(j) { byProcess[d.process, default: []].append(d.value) } }
                    return byProcess.keys.sorted().compactMap { median(byProcess[$0] ?? []) }
                }
                let old = side { r[$0].old }
                let new = side { r[$0].new }
                return (
                    gate: BenchStatistics.welchShift(old: old, new: new, lowerLevel: fdr, upperLevel: 0.5),
                    shown: BenchStatistics.welchShift(old: old, new: new, lowerLevel: 0.025, upperLevel: 0.025).estimate,
                    counts: (old: old.count, new: new.count))
            }
        }
        // A kind must be slower both ways: across its traces and across the processes.
        let pValues = keys.indices.map { g in Swift.max(signPValues[g], overProcesses?[g].gate.pValue ?? 0) }
        let discovered = BenchStatistics.discoveries(pValues, q: fdr)
        var kinds: [BenchKindShift] = []
        var regressedKind = Array(repeating: false, count: figures.count)
        var kindShift = Array(repeating: 0.0, count: figures.count)
        for (g, k) in keys.enumerated() {
            let members = groups[k, default: []]
            let d = members.map { shifts[$0] }.sorted()
            let shown = BenchStatistics.medianShift(d, lowerLevel: 0.025, upperLevel: 0.025)
            let processTest = overProcesses?[g]
            let regressed =
                discovered[g] && BenchStatistics.medianShift(d, lowerLevel: fdr, upperLevel: 0.5).lower > log1p(threshold)
                && (processTest.map { $0.gate.estimate.lower > log1p(threshold) } ?? true)
                && (growth.map { grown in (median(members.map { grown[$0] }) ?? 0) >= minimumGrowth } ?? true)
            for j in members {
                regressedKind[j] = regressed
                // The median of the kind's other traces, when there are enough to tell.
                if members.count > Self.kindPeers {
                    kindShift[j] = median(members.filter { $0 != j }.map { shifts[$0] }) ?? 0
                }
            }
            kinds.append(
                BenchKindShift(
                    row: k.row, metric: k.metric, traces: d.count, slower: d.filter { $0 > 0 }.count, pValue: signPValues[g],
                    ratio: exp(shown.value), ratioLow: exp(shown.lower), ratioHigh: exp(shown.upper),
                    processes: processTest.map { t in
                        BenchKindShift.Processes(
                            old: t.counts.old, new: t.counts.new, pValue: t.gate.pValue, ratio: exp(t.shown.value),
                            ratioLow: exp(t.shown.lower), ratioHigh: exp(t.shown.upper))
                    }, regressed: regressed))
        }
        let bar = fdr / Double(keys.count)
        let most = keys.map { groups[$0, default: []].count }.max() ?? 0
        let tracesNeeded = pow(0.5, Double(most)) > bar ? (1...1_000).first { pow(0.5, Double($0)) <= bar } : nil
        kinds.sort { a, b in a.regressed != b.regressed ? a.regressed : (a.row, a.metric.rawValue) < (b.row, b.metric.rawValue) }
        return (kinds, regressedKind, kindShift, tracesNeeded)
    }

    /// Unpaired wall clock, process by process: each tested figure's runs (logarithms) less the
    /// figure's pooled median over both sides and less the drift of the process that made the run
    /// (the median of that over every figure the process measured, when `drift`). What a worker
    /// process draws — where its heap and stacks lie, what else ran on the machine meanwhile —
    /// moves many of the traces it measures alike, so a kind's traces are not independent
    /// evidence; its processes are.
    static func processDeviations(
        _ logs: [(x: [Double], y: [Double])], processes: [(old: [Int], new: [Int])], drift estimated: Bool
    ) -> [(old: Deviations, new: Deviations)] {
        let centres = logs.map { median($0.x + $0.y) ?? 0 }
        func side(_ runs: [[Double]], _ made: [[Int]]) -> [Deviations] {
            var byProcess: [Int: [Double]] = [:]
            if estimated {
                for j in runs.indices { for (r, v) in runs[j].enumerated() { byProcess[made[j][r], default: []].append(v - centres[j]) } }
            }
            let drift = byProcess.mapValues { median($0) ?? 0 }
            return runs.indices.map { j in runs[j].indices.map { r in (made[j][r], runs[j][r] - centres[j] - (drift[made[j][r]] ?? 0)) } }
        }
        let old = side(logs.map(\.x), processes.map(\.old))
        let new = side(logs.map(\.y), processes.map(\.new))
        return Array(zip(old, new)).map { (old: $0.0, new: $0.1) }
    }
}
