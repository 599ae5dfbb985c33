import Foundation
@testable import MapSketchBench
import MapSketchGeometry
import MapSketchReplay
import MapSketchTestSupport
import Testing
@testable import MapSketchGolden

/// Comparing two reports: exact counters, wall clock with false-discovery-rate control, paired
/// runs, the clock's resolution, new and removed traces, shards.
@MainActor
@Suite struct BenchComparisonTests {
    typealias F = BenchFixtures

    @Test func exactCountersRegressPastTheThresholdOnly() throws {
        let base = F.report(instructions: 1000, allocations: 10, p50s: [100, 100, 100, 100, 100], totals: [1, 1, 1, 1, 1])
        let same = try BenchComparison.compare(base, baseline: base, baselineFile: "b", metrics: nil, threshold: 0.05)
        #expect(same.metrics == [.instructions, .allocations, .bytes])
        #expect(same.regressions.isEmpty)
        #expect(same.tested == 0, "exact counters take no significance test")
        let slower = F.report(instructions: 1060, allocations: 10, p50s: [100, 100, 100, 100, 100], totals: [1, 1, 1, 1, 1])
        let c = try BenchComparison.compare(slower, baseline: base, baselineFile: "b", metrics: nil, threshold: 0.05)
        #expect(Set(c.regressions.map(\.row)) == ["total", "undo", BenchKind.unattributedName])
        #expect(c.regressions.allSatisfy { $0.metric == .instructions })
        let r = try #require(c.regressions.first { $0.row == "undo" })
        #expect(r.description == "t undo instructions: 1,000 → 1,060 (+6.0%)")
        #expect(c.changes.first?.regressed == true)  // regressions first
        let within = try BenchComparison.compare(slower, baseline: base, baselineFile: "b", metrics: nil, threshold: 0.10)
        #expect(within.regressions.isEmpty)
        let oneMore = F.report(instructions: 1000, allocations: 11, p50s: [100, 100, 100, 100, 100], totals: [1, 1, 1, 1, 1])
        let a = try BenchComparison.compare(oneMore, baseline: base, baselineFile: "b", metrics: [.allocations], threshold: 0)
        #expect(a.regressions.count == 3)
        let fromZero = try BenchComparison.compare(
            oneMore, baseline: F.report(instructions: 1000, allocations: 0, p50s: [100, 100, 100, 100], totals: [1, 1, 1, 1]), baselineFile: "b",
            metrics: [.allocations], threshold: 0.5)
        #expect(fromZero.regressions.first?.changeText == "new")
    }

    @Test func wallClockNeedsASignificantShiftBeyondTheThresholdAndTheResolution() throws {
        // Paired runs (one figure alone: unpaired runs judge a kind across traces, see below).
        // One event: the totals' two clock steps are per event (see the next test).
        let base = F.report(
            instructions: 1, allocations: 1, p50s: [100, 102, 98, 101, 99, 100, 103, 97, 100, 101],
            totals: [1000, 1010, 990, 1005, 995, 1000, 1011, 989, 1004, 996], pairID: "p", events: 1)
        // One slow run is not a shift.
        let oneSlow = F.report(
            instructions: 1, allocations: 1, p50s: [100, 101, 99, 400, 100, 99, 102, 98, 101, 100],
            totals: [1000, 4000, 990, 1000, 1001, 999, 1008, 992, 1003, 997], pairID: "p", events: 1)
        let noisy = try BenchComparison.compare(oneSlow, baseline: base, baselineFile: "b", metrics: [.p50, .total], threshold: 0.05)
        #expect(noisy.regressions.isEmpty, "\(noisy.regressions)")
        #expect(noisy.tested == 3, "undo p50, the total and the unattributed time")
        // Every run 20 % slower: a regression of the kind and of the totals.
        let shifted = F.report(
            instructions: 1, allocations: 1, p50s: [120, 125, 119, 122, 121, 120, 124, 118, 123, 121],
            totals: [1200, 1210, 1190, 1205, 1195, 1200, 1212, 1188, 1206, 1194], pairID: "p", events: 1)
        let c = try BenchComparison.compare(shifted, baseline: base, baselineFile: "b", metrics: [.p50, .total], threshold: 0.05)
        #expect(c.regressions.count == 3, "\(c.regressions)")
        #expect(c.regressions.allSatisfy { ($0.pValue ?? 1) < 0.01 })
        #expect(c.paired)
        // Significant but within the threshold.
        let small = try BenchComparison.compare(shifted, baseline: base, baselineFile: "b", metrics: [.p50], threshold: 0.25)
        #expect(small.regressions.isEmpty)
        // Too few runs for wall clock.
        let two = F.report(instructions: 1, allocations: 1, p50s: [120, 125], totals: [1, 1], pairID: "p")
        #expect(throws: OutputError.self) { try BenchComparison.compare(two, baseline: base, baselineFile: "b", metrics: [.p50], threshold: 0.05) }
        // Beyond the threshold, significant, but less than the clock resolves (10 ns): not a
        // regression the clock can vouch for.
        let tiny = F.report(instructions: 1, allocations: 1, p50s: [30, 31, 29, 30, 30, 30, 31, 29, 30, 30], totals: Array(repeating: 1, count: 10), pairID: "p")
        let tinySlow = F.report(instructions: 1, allocations: 1, p50s: [38, 39, 37, 38, 38, 38, 39, 37, 38, 38], totals: Array(repeating: 1, count: 10), pairID: "p")
        #expect(try BenchComparison.compare(tinySlow, baseline: tiny, baselineFile: "b", metrics: [.p50], threshold: 0.05).regressions.isEmpty)
        let tinyMuchSlower = F.report(instructions: 1, allocations: 1, p50s: [50, 52, 49, 51, 50, 50, 52, 49, 51, 50], totals: Array(repeating: 1, count: 10), pairID: "p")
        #expect(try BenchComparison.compare(tinyMuchSlower, baseline: tiny, baselineFile: "b", metrics: [.p50], threshold: 0.05).regressions.count == 1)
    }

    @Test func aTraceTotalMustGrowByTwoClockStepsPerEvent() throws {
        // A 261-event trace, 40 paired rounds under a load that hits both builds alike. Its
        // unattributed time (total + set-up − 90 % of the total) grows 8.8 % — 1.5 ns per event,
        // as a build that differs in one function only was seen to move it through code layout —
        // which is significant and beyond the threshold, but less than two 10 ns steps per event.
        let events = 261
        let load = (0..<40).map { 1 + 0.05 * Double(($0 * 7) % 11) / 11 }
        func report(unattributedPerEvent: Double, kindNs: Double) -> BenchReport {
            // totals t with t + 1 − 0.9 t = u: t = 10 (u − 1).
            let totals = load.map { 10 * (Double(events) * unattributedPerEvent * $0 - 1) }
            return F.report(
                instructions: 1, allocations: 1, p50s: load.map { kindNs * $0 }, totals: totals, pairID: "job", events: events)
        }
        let base = report(unattributedPerEvent: 17.2, kindNs: 100)
        let layout = report(unattributedPerEvent: 17.2 * 1.088, kindNs: 100)
        let c = try BenchComparison.compare(layout, baseline: base, baselineFile: "b", metrics: [.p50, .total], threshold: 0.01)
        let rest = try #require(c.changes.first { $0.row == BenchKind.unattributedName })
        #expect(c.paired && (rest.pValue ?? 1) < 0.001 && (rest.ratioLow ?? 0) > 1.05, "a clear shift: \(rest)")
        #expect(!rest.regressed, "1.5 ns per event is within two builds' layouts")
        // The total grew by 10 × that (the fixture's attributed share is 90 %): 15 ns per event,
        // still below 20.
        #expect(c.regressions.isEmpty, "\(c.regressions)")
        // 25 ns more per event in what no kind measures: a regression of the unattributed row.
        let slower = report(unattributedPerEvent: 17.2 + 25, kindNs: 100)
        let s = try BenchComparison.compare(slower, baseline: base, baselineFile: "b", metrics: [.p50, .total], threshold: 0.01)
        #expect(s.regressions.contains { $0.row == BenchKind.unattributedName }, "\(s.changes)")
        #expect(!s.regressions.contains { $0.row == "undo" }, "the kind did not change")
        // A kind's latency is one operation: 30 ns more is a regression.
        let kind = report(unattributedPerEvent: 17.2, kindNs: 130)
        let k = try BenchComparison.compare(kind, baseline: base, baselineFile: "b", metrics: [.p50], threshold: 0.01)
        #expect(k.regressions.map(\.row) == ["undo"])
    }

    @Test func tooFewRunsForAnyWallClockRegressionSaysSo() throws {
        let base = F.report(instructions: 1, allocations: 1, p50s: [100, 101, 99, 100, 102], totals: [1, 1, 1, 1, 1], pairID: "p")
        let slower = F.report(instructions: 1, allocations: 1, p50s: [200, 201, 199, 200, 202], totals: [1, 1, 1, 1, 1], pairID: "p")
        let c = try BenchComparison.compare(slower, baseline: base, baselineFile: "b", metrics: [.p50], threshold: 0.05)
        // One paired figure: 2⁻⁵ ≤ 0.05, enough.
        #expect(c.runsNeeded == nil && c.regressions.count == 1)
        var many = F.noisy(figures: 2_000, runs: 5)
        many.1.pairID = "x"
        many.0.pairID = "x"
        let m = try BenchComparison.compare(many.1, baseline: many.0, baselineFile: "b", metrics: [.p50], threshold: 0.05)
        #expect(m.runsNeeded == 16, "2⁻¹⁶ ≤ 0.05 / 2,000 < 2⁻¹⁵")
        #expect(BenchFormat.comparisonSummary(m, baselineFile: "b").contains("use --runs 16 or more"))
        // Unpaired, a figure's own runs need only reach the false discovery rate (its kind carries
        // the verdict): three runs a side give 1/20, enough at 5 %; at 1 % it takes five (1/252;
        // four give 1/70).
        let three = F.noisy(figures: 20, runs: 3)
        #expect(try BenchComparison.compare(three.1, baseline: three.0, baselineFile: "b", metrics: [.p50], threshold: 0.05).runsNeeded == nil)
        #expect(try BenchComparison.compare(three.1, baseline: three.0, baselineFile: "b", metrics: [.p50], threshold: 0.05, fdr: 0.01).runsNeeded == 5)
    }

    @Test func unpairedAKindInTooFewTracesIsNotGatedAndTheSummarySaysSo() throws {
        // Four traces of one kind, each 3× slower: a sign test over four traces gives at best
        // 2⁻⁴ > 0.05, so the machine cannot be ruled out; five would do.
        func reports(_ n: Int) -> (BenchReport, BenchReport) {
            var old = F.report(instructions: 1, allocations: 1, p50s: [1], totals: [1])
            var new = old
            old.runs = 8
            new.runs = 8
            old.traces = (0..<n).map { F.report(instructions: 1, allocations: 1, p50s: Array(repeating: 100, count: 8), totals: Array(repeating: 1, count: 8), name: "t\($0)").traces[0] }
            new.traces = (0..<n).map { F.report(instructions: 1, allocations: 1, p50s: (0..<8).map { 300 + Double($0) }, totals: Array(repeating: 1, count: 8), name: "t\($0)").traces[0] }
            return (old, new)
        }
        let (o4, n4) = reports(4)
        let four = try BenchComparison.compare(n4, baseline: o4, baselineFile: "b", metrics: [.p50], threshold: 0.05)
        #expect(four.regressions.isEmpty && four.tracesNeeded == 5)
        #expect(four.kindShifts.map(\.traces) == [4] && four.kindShifts.first?.slower == 4)
        #expect(BenchFormat.comparisonSummary(four, baselineFile: "b").contains("it needs 5 or more"))
        let (o5, n5) = reports(5)
        let five = try BenchComparison.compare(n5, baseline: o5, baselineFile: "b", metrics: [.p50], threshold: 0.05)
        #expect(five.regressions.count == 5 && five.tracesNeeded == nil)
        #expect(BenchFormat.comparisonSummary(five, baselineFile: "b").contains("REGRESSED KIND undo p50: slower in 5 of 5 traces, ×3."))
    }

    @Test func aKindBelowTheClocksResolutionIsGatedOnItsCountersOnly() throws {
        let base = F.report(instructions: 100, allocations: 1, p50s: [4, 5, 4, 5, 4], totals: [1, 1, 1, 1, 1])
        let slower = F.report(instructions: 100, allocations: 1, p50s: [8, 9, 8, 9, 9], totals: [1, 1, 1, 1, 1])
        let c = try BenchComparison.compare(slower, baseline: base, baselineFile: "b", metrics: [.p50, .instructions], threshold: 0.05)
        #expect(c.regressions.isEmpty)
        #expect(c.belowResolution == 1)
        let p50 = try #require(c.changes.first { $0.metric == .p50 })
        #expect(p50.pValue == nil, "not tested")
        let more = F.report(instructions: 200, allocations: 1, p50s: [8, 9, 8, 9, 9], totals: [1, 1, 1, 1, 1])
        #expect(try BenchComparison.compare(more, baseline: base, baselineFile: "b", metrics: [.p50, .instructions], threshold: 0.05).regressions.count == 3)
        #expect(try #require(F.report(instructions: 1, allocations: 1, p50s: [4, 5, 4], totals: [1, 1, 1]).traces[0].kinds.first).isBelowResolution(of: F.clock))
    }

    /// Many traces of one kind each whose runs are noise around the same figure, both sides
    /// drawn from one distribution.
    static func noisyReport(_ rng: inout SeededRandom, traces: Int, runs: Int, slow: Set<Int> = [], pairID: String? = nil) -> BenchReport {
        // Noise with a long tail: now and then a run is hit by something slow.
        var report = F.report(instructions: 1, allocations: 1, p50s: [1], totals: [1], pairID: pairID)
        report.runs = runs
        report.traces = (0..<traces).map { i in
            let level = 200 + Double(i % 37) * 40
            let factor = slow.contains(i) ? 3.0 : 1.0
            let p50s = (0..<runs).map { _ in
                level * factor * exp(0.04 * BenchStatisticsTests.gaussian(&rng) + (rng.next() % 25 == 0 ? 0.8 : 0))
            }
            let totals = (0..<runs).map { _ in level * 100 * factor * exp(0.02 * BenchStatisticsTests.gaussian(&rng)) }
            return F.report(instructions: 1, allocations: 1, p50s: p50s, totals: totals, name: String(format: "trace-%04d", i)).traces[0]
        }
        return report
    }

    @Test func withoutFalseDiscoveryControlNoiseAloneWouldRegressAndWithItNothingDoes() throws {
        var rng = SeededRandom(seed: 2024)
        let a = Self.noisyReport(&rng, traces: 600, runs: 20)
        let b = Self.noisyReport(&rng, traces: 600, runs: 20)
        let c = try BenchComparison.compare(b, baseline: a, baselineFile: "a", metrics: [.p50, .total], threshold: 0.05)
        #expect(c.tested == 1_800)
        #expect(c.regressions.isEmpty, "\(c.regressions.prefix(3))")
        // The same figures tested one by one at p < 0.05: noise alone crosses it dozens of times.
        let naive = c.changes.filter { ($0.pValue ?? 1) < 0.05 }.count
        #expect(naive > 20, "\(naive)")
    }

    @Test func aRealSlowdownIsFoundAmongManyFiguresAndNothingElse() throws {
        var rng = SeededRandom(seed: 7)
        let slow: Set<Int> = [5, 77, 300]
        let a = Self.noisyReport(&rng, traces: 600, runs: 20, pairID: "p")
        let b = Self.noisyReport(&rng, traces: 600, runs: 20, slow: slow, pairID: "p")
        let c = try BenchComparison.compare(b, baseline: a, baselineFile: "a", metrics: [.p50, .total], threshold: 0.05)
        #expect(c.paired)
        let flagged = Set(c.regressions.map(\.trace))
        #expect(flagged == Set(slow.map { String(format: "trace-%04d", $0) }), "\(flagged.sorted())")
        // Unpaired, three traces slower out of 600 cannot be told from a machine that slowed
        // three traces: nothing is flagged.
        var unpairedBase = a
        unpairedBase.pairID = nil
        let u = try BenchComparison.compare(b, baseline: unpairedBase, baselineFile: "a", metrics: [.p50, .total], threshold: 0.05)
        #expect(!u.paired && u.regressions.isEmpty, "\(u.regressions.prefix(3))")
    }

    @Test func unpairedRunsJudgeAKindAcrossTheTracesThatRunIt() throws {
        // 300 traces, a third of them selecting (the rest undoing). The new side's select is 30 %
        // slower in every trace that runs it; a load hit twelve other traces' undo 1.4 to 1.9×.
        var rng = SeededRandom(seed: 11)
        func side(slowSelect: Bool, loaded: Bool) -> BenchReport {
            var r = F.report(instructions: 1, allocations: 1, p50s: [1], totals: [1])
            r.runs = 20
            r.traces = (0..<300).map { i in
                let kind: BenchKind = i % 3 == 0 ? .select : .undo
                let level = 400 + Double(i % 29) * 30
                var factor = 1.0
                if slowSelect && kind == .select { factor = 1.3 }
                if loaded && kind == .undo && i % 17 == 1 { factor = 1.4 + 0.05 * Double(i % 11) }
                let p50s = (0..<20).map { _ in level * factor * exp(0.03 * BenchStatisticsTests.gaussian(&rng)) }
                let totals = (0..<20).map { _ in level * 100 * exp(0.02 * BenchStatisticsTests.gaussian(&rng)) }
                return F.report(instructions: 1, allocations: 1, p50s: p50s, totals: totals, name: String(format: "trace-%04d", i), kind: kind).traces[0]
            }
            return r
        }
        let old = side(slowSelect: false, loaded: false)
        // The same code on a loaded machine: the loaded figures' own tests are overwhelming, and
        // still nothing regresses.
        let aa = try BenchComparison.compare(side(slowSelect: false, loaded: true), baseline: old, baselineFile: "b", metrics: [.p50, .total], threshold: 0.05)
        #expect(aa.regressions.isEmpty, "\(aa.regressions.prefix(3))")
        #expect(aa.changes.filter { ($0.pValue ?? 1) < 1e-6 && $0.row == "undo" }.count >= 12, "the load is plain in each figure")
        #expect(aa.kindShifts.allSatisfy { !$0.regressed })
        // Slower select code: every select figure, and nothing else.
        let ab = try BenchComparison.compare(side(slowSelect: true, loaded: true), baseline: old, baselineFile: "b", metrics: [.p50, .total], threshold: 0.05)
        #expect(Set(ab.regressions.map(\.row)) == ["select"])
        #expect(ab.regressions.count == 100, "\(ab.regressions.count)")
        let k = try #require(ab.kindShifts.first)
        #expect(k.regressed && k.row == "select" && k.slower == 100 && k.traces == 100 && abs(k.ratio - 1.3) < 0.03)
        #expect(ab.kindShifts.filter(\.regressed).count == 1)
        let json = ab.json
        #expect(json["kinds"]?.arrayValue?.first?["row"]?.stringValue == "select")
        #expect(json["kinds"]?.arrayValue?.first?["regressed"]?.boolValue == true)
    }

    @Test func unpairedAKindIsJudgedOverTheProcessesNotOnlyTheTraces() throws {
        // Five rounds a side, each a worker process; 60 traces select and 120 undo. In the new
        // report three of the five processes drew a layout (or a neighbour) that made select 8 %
        // slower in every trace they measured: each trace's median moved by 8 %, in all 60 traces,
        // which a sign test over the traces takes for the code (seen in an A/A run beside a
        // memory-bound process: gps.filter ×1.084 in 42 of 48 traces, bound 1.051). Over the
        // rounds it is two processes against three. A slower select in every process is the code.
        var rng = SeededRandom(seed: 5)
        func side(slow rounds: Set<Int>) -> BenchReport {
            var r = F.report(instructions: 1, allocations: 1, p50s: [1], totals: [1])
            r.runs = 5
            r.traces = (0..<180).map { i in
                let kind: BenchKind = i % 3 == 0 ? .select : .undo
                let level = 500 + Double(i % 23) * 40
                let p50s = (0..<5).map { round in
                    level * (kind == .select && rounds.contains(round) ? 1.08 : 1) * exp(0.004 * BenchStatisticsTests.gaussian(&rng))
                }
                let totals = (0..<5).map { _ in level * 100 * exp(0.004 * BenchStatisticsTests.gaussian(&rng)) }
                return F.report(instructions: 1, allocations: 1, p50s: p50s, totals: totals, name: String(format: "trace-%04d", i), kind: kind).traces[0]
            }
            return r
        }
        let old = side(slow: [])
        let drew = try BenchComparison.compare(side(slow: [0, 1, 2]), baseline: old, baselineFile: "b", metrics: [.p50], threshold: 0.05)
        let select = try #require(drew.kindShifts.first { $0.row == "select" })
        #expect(select.slower == 60 && select.ratioLow > 1.05, "across the traces it looks like the code: \(select)")
        let processes = try #require(select.processes)
        #expect(processes.ratioLow < 1.05 && processes.old == 5 && processes.new == 5, "\(select)")
        #expect(!select.regressed && drew.regressions.isEmpty, "\(drew.regressions.prefix(3))")
        let code = try BenchComparison.compare(side(slow: [0, 1, 2, 3, 4]), baseline: old, baselineFile: "b", metrics: [.p50], threshold: 0.05)
        let slower = try #require(code.kindShifts.first { $0.row == "select" })
        #expect(slower.regressed && (slower.processes?.ratioLow ?? 0) > 1.05, "\(slower)")
        #expect(code.regressions.count == 60 && Set(code.regressions.map(\.row)) == ["select"])
        // A third of the figures moved: each round's drift (its median over every figure) takes a
        // little of it.
        #expect(slower.description.contains("; over 5 + 5 processes ×1.07"), "\(slower.description)")
        #expect(code.json["kinds"]?.arrayValue?.first?["processes"]?["ratio"]?.doubleValue.map { abs($0 - 1.075) < 0.01 } == true)
        let md = BenchFormat.markdown(side(slow: [0, 1, 2, 3, 4]), comparison: code, baselineFile: "b")
        #expect(md.contains("| kind | metric | slower in | median ratio [95 % CI] | over the processes [95 % CI] |"), "\(md.prefix(800))")
        #expect(md.contains("| select | p50 | 60 of 60 | ×1.0"), "\(md.prefix(800))")
    }

    @Test func unpairedTheUnitOfEvidenceIsTheProcessThatMadeTheRun() throws {
        // Five rounds a side, each round's 180 traces (36 undo, 144 select) shared out among four
        // worker processes (a new share each round). What a process draws moves a kind in every trace it measures: each
        // process's undo and select are off by a draw of 4 %, each run by 4 % more of its own. The
        // new build's undo is 12 % slower. One of the new side's processes ran everything 25 %
        // slower (a load that came and went).
        var rng = SeededRandom(seed: 11)
        func side(undo: Double, slowProcess: Int?) -> BenchReport {
            var r = F.report(instructions: 1, allocations: 1, p50s: [1], totals: [1])
            r.runs = 5
            let processOf = (0..<5).map { round in
                var order = Array(0..<180)
                order.shuffle(using: &rng)
                var of = [Int](repeating: 0, count: 180)
                for (i, t) in order.enumerated() { of[t] = round * 4 + i / 45 }
                return of
            }
            let drawn = (0..<20).map { _ in (undo: 0.04 * BenchStatisticsTests.gaussian(&rng), select: 0.04 * BenchStatisticsTests.gaussian(&rng)) }
            r.traces = (0..<180).map { i in
                let kind: BenchKind = i % 5 == 0 ? .undo : .select
                let level = 800 + Double(i % 23) * 40
                let p50s = (0..<5).map { round in
                    let p = processOf[round][i]
                    let code = kind == .undo ? undo : 1
                    let load = p == slowProcess ? 1.25 : 1
                    return level * code * load * exp((kind == .undo ? drawn[p].undo : drawn[p].select) + 0.04 * BenchStatisticsTests.gaussian(&rng))
                }
                let totals = (0..<5).map { round in level * 100 * (processOf[round][i] == slowProcess ? 1.25 : 1) }
                var t = F.report(instructions: 1, allocations: 1, p50s: p50s, totals: totals, name: String(format: "trace-%04d", i), kind: kind)
                    .traces[0]
                t.processes = (0..<5).map { processOf[$0][i] }
                return t
            }
            return r
        }
        let old = side(undo: 1, slowProcess: nil)
        // The same code, one process loaded: nothing.
        let aa = try BenchComparison.compare(side(undo: 1, slowProcess: 6), baseline: old, baselineFile: "b", metrics: [.p50], threshold: 0.01)
        #expect(aa.regressions.isEmpty && aa.kindShifts.allSatisfy { !$0.regressed }, "\(aa.kindShifts)")
        let aaUndo = try #require(aa.kindShifts.first { $0.row == "undo" }?.processes)
        #expect(aaUndo.old == 20 && aaUndo.new == 20 && abs(log(aaUndo.ratio)) < 0.03, "the loaded process's drift is its own: \(aaUndo)")
        // The slower undo: found over 20 + 20 processes, with a p-value the kinds' false discovery
        // rate leaves far behind.
        var new = side(undo: 1.12, slowProcess: nil)
        let ab = try BenchComparison.compare(new, baseline: old, baselineFile: "b", metrics: [.p50], threshold: 0.01)
        let undo = try #require(ab.kindShifts.first { $0.row == "undo" })
        let byProcess = try #require(undo.processes)
        #expect(undo.regressed && byProcess.old == 20 && byProcess.new == 20 && byProcess.pValue < 1e-4, "\(undo) p \(byProcess.pValue)")
        #expect(byProcess.ratioLow > 1.03, "\(undo)")
        #expect(ab.kindShifts.filter(\.regressed).map(\.row) == ["undo"])
        // Reports that do not say which process made a run take each round as one: five a side,
        // and the same evidence is far weaker.
        var before = old
        for t in before.traces.indices { before.traces[t].processes = nil }
        for t in new.traces.indices { new.traces[t].processes = nil }
        let rounds = try BenchComparison.compare(new, baseline: before, baselineFile: "b", metrics: [.p50], threshold: 0.01)
        let byRound = try #require(rounds.kindShifts.first { $0.row == "undo" }?.processes)
        #expect(byRound.old == 5 && byRound.new == 5 && byRound.pValue > 100 * byProcess.pValue, "\(byRound) vs \(byProcess)")
    }

    /// A kind moved as a whole by less than two steps of the clock per operation is not a
    /// regression, however many traces and processes agree: where two builds' code lies moves a
    /// fast operation by a few nanoseconds everywhere it runs. The same kind slower by more is one.
    @Test func aKindMovedByLessThanTwoClockStepsIsNotARegression() throws {
        var rng = SeededRandom(seed: 12)
        // 40 traces of a 25 ns operation and 120 of a 900 ns one (so the machine's drift is
        // estimated from figures that did not move), 5 rounds of 6 processes a side.
        func side(extra: Double, paired: Bool = false) -> BenchReport {
            var r = F.report(instructions: 1, allocations: 1, p50s: [1], totals: [1])
            r.runs = 5
            r.traces = (0..<160).map { i in
                let fast = i % 4 == 0
                let base = fast ? 25.0 : 900
                let p50s = (0..<5).map { _ in (base + (fast ? extra : 0)) * exp(0.01 * BenchStatisticsTests.gaussian(&rng)) }
                var t = F.report(
                    instructions: 1, allocations: 1, p50s: p50s, totals: (0..<5).map { _ in 9_000 * exp(0.01 * BenchStatisticsTests.gaussian(&rng)) },
                    name: String(format: "trace-%03d", i),
                    kind: fast ? .undo : .select
                ).traces[0]
                t.processes = (0..<5).map { round in round * 6 + i % 6 }
                return t
            }
            return r
        }
        let old = side(extra: 0)
        // +4 ns (16 %), in every trace and process: below two 10 ns steps.
        let layout = try BenchComparison.compare(side(extra: 4), baseline: old, baselineFile: "b", metrics: [.p50], threshold: 0.05)
        let moved = try #require(layout.kindShifts.first { $0.row == "undo" })
        #expect(moved.ratio > 1.1 && moved.slower >= 35, "the kind did move: \(moved)")
        #expect(!moved.regressed && layout.regressions.isEmpty, "\(moved)")
        // +30 ns: two steps and more.
        let slower = try BenchComparison.compare(side(extra: 30), baseline: old, baselineFile: "b", metrics: [.p50], threshold: 0.05)
        #expect(slower.kindShifts.filter(\.regressed).map(\.row) == ["undo"], "\(slower.kindShifts)")
    }

    @Test func pairedAFigureOfMiddlingEvidenceNeedsItsKindSlowerAcrossTraces() throws {
        // 40 paired runs. Thirty traces undo 20 % slower in every pair; one more trace's undo and
        // one select trace (select unchanged everywhere else) each lean slower with the same
        // middling evidence: 21 pairs at +0.2, 19 at −0.05 in the logarithm (p ≈ 0.0016, between
        // q / m and the Benjamini–Hochberg cutoff). The undo is of a kind slower across traces;
        // the select is noise that the false discovery rate would let ride along.
        let middling = (0..<40).map { $0 < 21 ? 0.2 : -0.05 }
        func side(new: Bool) -> BenchReport {
            var r = F.report(instructions: 1, allocations: 1, p50s: [1], totals: [1], pairID: "p")
            r.runs = 40
            r.traces = (0..<62).map { i in
                let kind: BenchKind = i < 31 ? .undo : .select
                var d = [Double](repeating: 0, count: 40)
                if new && i < 30 { d = Array(repeating: log(1.2), count: 40) }
                if new && (i == 30 || i == 31) { d = middling }
                if new && i > 31 { d = (0..<40).map { r in Double(r % 2 == 0 ? 1 : -1) * 0.01 * Double(r % 5) } }
                let p50s = d.enumerated().map { 1_000 * (1 + 0.001 * Double($0.offset)) * exp($0.element) }
                let totals = (0..<40).map { 100_000 * (1 + 0.001 * Double($0)) }
                return F.report(instructions: 1, allocations: 1, p50s: p50s, totals: totals, name: String(format: "t%02d", i), kind: kind, pairID: "p").traces[0]
            }
            return r
        }
        let c = try BenchComparison.compare(side(new: true), baseline: side(new: false), baselineFile: "b", metrics: [.p50], threshold: 0.05)
        let weak = try #require(c.changes.first { $0.trace == "t30" })
        let noise = try #require(c.changes.first { $0.trace == "t31" })
        #expect((weak.pValue ?? 1) > 0.05 / Double(c.tested) && (weak.pValue ?? 1) < 0.005, "\(weak.pValue ?? 1)")
        #expect(weak.pValue == noise.pValue)
        #expect(weak.regressed, "its kind is slower across the traces")
        #expect(!noise.regressed, "select is not slower across the traces")
        #expect(Set(c.regressions.map(\.trace)) == Set((0...30).map { String(format: "t%02d", $0) }))
        #expect(c.kindShifts.first { $0.row == "undo" }?.slower == 31)
        #expect(BenchFormat.comparisonSummary(c, baselineFile: "b").contains("REGRESSED KIND undo p50: slower in 31 of 31 traces"))
    }

    @Test func pairedAFigureAloneIsMeasuredFromWhereItsKindWent() throws {
        // What a build whose code changed in undo only did to 48 GPS traces' append (seen): the
        // whole kind 4 % slower, short of the 5 % threshold, where that build's code now lies;
        // one trace's figure, at the top of the kind's spread, 8 % slower with overwhelming
        // evidence. Beside them a kind of its own: select 4 % slower in 47 traces, and one trace
        // whose select is 30 % slower (a path only its data takes). And `snap.query`, run by two
        // traces only, one of them 25 % slower: too few others to say where the kind went.
        func side(new: Bool) -> BenchReport {
            var r = F.report(instructions: 1, allocations: 1, p50s: [1], totals: [1], pairID: "p")
            r.runs = 40
            r.traces = (0..<98).map { i in
                let kind: BenchKind = i < 48 ? .gpsAppend : i < 96 ? .select : .snapQuery
                var factor = 1.0
                if new && i < 96 { factor = 1.04 }
                if new && i == 0 { factor = 1.08 }
                if new && i == 48 { factor = 1.3 }
                if new && i == 96 { factor = 1.25 }
                let level: Double = 300 + Double(i % 7) * 5
                let p50s: [Double] = (0..<40).map { (r: Int) -> Double in
                    let wobble = 1 + 0.002 * Double((r * 7 + i) % 5)
                    return level * factor * wobble
                }
                let totals: [Double] = (0..<40).map { (r: Int) -> Double in 100_000 * (1 + 0.001 * Double((r * 3 + i) % 4)) }
                return F.report(instructions: 1, allocations: 1, p50s: p50s, totals: totals, name: String(format: "t%02d", i), kind: kind, pairID: "p").traces[0]
            }
            return r
        }
        let c = try BenchComparison.compare(side(new: true), baseline: side(new: false), baselineFile: "b", metrics: [.p50], threshold: 0.05)
        let top = try #require(c.changes.first { $0.trace == "t00" })
        // On its own the figure would pass: evidence beyond q / m, its bound beyond the threshold.
        #expect((top.pValue ?? 1) <= 0.05 / Double(c.tested) && (top.ratioLow ?? 0) > 1.05, "\(top)")
        #expect(!top.regressed, "the kind's common 4 % is the kind's verdict; 8 % is within 5 % of it")
        #expect(c.kindShifts.allSatisfy { !$0.regressed })
        #expect(Set(c.regressions.map(\.trace)) == ["t48", "t96"], "\(c.regressions.map(\.trace))")
    }

    @Test func pairedRunsCancelALoadThatHitsBothBuilds() throws {
        // A load that comes and goes: run r of both builds is slowed alike. Paired, a 25 %
        // slowdown is plain whatever the load did; unpaired, the load's spread blurs it.
        let load: [Double] = [1.0, 1.6, 0.9, 2.2, 1.1, 1.4, 1.3, 0.95, 1.8, 1.05, 1.2, 2.0]
        let oldRuns = load.map { 100 * $0 }
        let newRuns = load.map { 125 * $0 }
        let base = F.report(instructions: 1, allocations: 1, p50s: oldRuns, totals: oldRuns, pairID: "job")
        let cur = F.report(instructions: 1, allocations: 1, p50s: newRuns.enumerated().map { $1 * (1 + 0.01 * Double($0 % 2)) }, totals: newRuns, pairID: "job")
        let paired = try BenchComparison.compare(cur, baseline: base, baselineFile: "b", metrics: [.p50], threshold: 0.05)
        #expect(paired.paired && paired.regressions.count == 1)
        var unpaired = base
        unpaired.pairID = nil
        let u = try BenchComparison.compare(cur, baseline: unpaired, baselineFile: "b", metrics: [.p50], threshold: 0.05)
        #expect(!u.paired)
        // Unpaired, the load's spread weakens the evidence a hundredfold.
        let pp = try #require(paired.changes.first?.pValue)
        let up = try #require(u.changes.first?.pValue)
        #expect(pp * 100 < up, "paired \(pp), unpaired \(up)")
    }

    @Test func newAndRemovedTracesAndKindsAreReportedNotErrors() throws {
        var base = F.report(instructions: 100, allocations: 1, p50s: [100, 100, 100], totals: [1, 1, 1], name: "kept")
        base.traces.append(F.report(instructions: 100, allocations: 1, p50s: [100, 100, 100], totals: [1, 1, 1], name: "gone").traces[0])
        var cur = F.report(instructions: 100, allocations: 1, p50s: [100, 100, 100], totals: [1, 1, 1], name: "kept")
        cur.traces.append(F.report(instructions: 100, allocations: 1, p50s: [100, 100, 100], totals: [1, 1, 1], name: "fresh").traces[0])
        cur.traces[0].kinds.append(F.report(instructions: 5, allocations: 1, p50s: [1, 1, 1], totals: [1, 1, 1], kind: .redo).traces[0].kinds[0])
        base.traces[0].kinds.append(F.report(instructions: 5, allocations: 1, p50s: [1, 1, 1], totals: [1, 1, 1], kind: .clear).traces[0].kinds[0])
        let c = try BenchComparison.compare(cur, baseline: base, baselineFile: "b", metrics: nil, threshold: 0.05)
        #expect(c.regressions.isEmpty)
        #expect(c.newTraces == ["fresh"])
        #expect(c.removedTraces == ["gone"])
        #expect(c.newKinds == [BenchKindChange(trace: "kept", kind: .redo)])
        #expect(c.removedKinds == [BenchKindChange(trace: "kept", kind: .clear)])
        #expect(c.changes.allSatisfy { $0.trace == "kept" })
        // Every output says so.
        let summary = BenchFormat.comparisonSummary(c, baselineFile: "b")
        #expect(summary.contains("new trace fresh") && summary.contains("removed trace gone"))
        let md = BenchFormat.markdown(cur, comparison: c, baselineFile: "b")
        #expect(md.contains("| 🆕 | fresh | new") && md.contains("| 🗑️ | gone | removed"))
        let json = try JSONParser.parse(BenchFormat.jsonText(cur, comparison: c))
        #expect(json["comparison"]?["newTraces"]?[0]?.stringValue == "fresh")
        #expect(json["comparison"]?["removedTraces"]?[0]?.stringValue == "gone")
        let junit = BenchFormat.junit(cur, comparison: c)
        #expect(junit.contains(#"<testcase classname="mapsketch-bench" name="fresh">"#) && junit.contains("<skipped message=\"new trace"))
        #expect(junit.contains("<skipped message=\"removed trace") && junit.contains(#"failures="0""#))
    }

    @Test func aShardComparesItsOwnTracesAndCallsNoOtherRemoved() throws {
        var base = F.report(instructions: 100, allocations: 1, p50s: [100, 100, 100], totals: [1, 1, 1], name: "t-0")
        base.traces = (0..<40).map { F.report(instructions: 100, allocations: 1, p50s: [100, 100, 100], totals: [1, 1, 1], name: "t-\($0)").traces[0] }
        let shard = try #require(TraceSelection.Shard(k: 2, n: 3))
        var cur = base
        cur.shard = shard
        cur.traces = base.traces.filter { shard.contains($0.name) }
        #expect(!cur.traces.isEmpty && cur.traces.count < 40)
        let c = try BenchComparison.compare(cur, baseline: base, baselineFile: "b", metrics: nil, threshold: 0.05)
        #expect(c.removedTraces.isEmpty)
        // A trace of this shard that is gone is removed.
        let dropped = cur.traces.removeFirst().name
        let d = try BenchComparison.compare(cur, baseline: base, baselineFile: "b", metrics: nil, threshold: 0.05)
        #expect(d.removedTraces == [dropped])
    }

    @Test func aBaselineForOtherTracesOrWithoutTheCountersIsAClearError() throws {
        let base = F.report(instructions: 1, allocations: 1, p50s: [1, 1, 1, 1], totals: [1, 1, 1, 1], name: "other")
        let cur = F.report(instructions: 1, allocations: 1, p50s: [1, 1, 1, 1], totals: [1, 1, 1, 1], name: "mine")
        do {
            _ = try BenchComparison.compare(cur, baseline: base, baselineFile: "base.json", metrics: nil, threshold: 0.05)
            Issue.record("compared with a baseline for other traces")
        } catch {
            #expect(error.description.hasPrefix("base.json: the baseline is for other traces"))
            #expect(error.message.contains("other"))
        }
        var noCounters = cur
        noCounters.counters = BenchCounters(allocations: false, instructions: false)
        noCounters.traces[0].name = "other"
        #expect(throws: OutputError.self) { try BenchComparison.compare(noCounters, baseline: base, baselineFile: "b", metrics: nil, threshold: 0.05) }
        #expect(throws: OutputError.self) { try BenchComparison.compare(noCounters, baseline: base, baselineFile: "b", metrics: [.instructions], threshold: 0.05) }
    }

    @Test func unpairedRunsAreJudgedRelativeToTheMachinesDrift() throws {
        // Forty traces measured again on a machine 8 % slower as a whole; the twenty that select
        // also select 40 % slower for real: only those are regressions, and the summary names the
        // drift.
        var rng = SeededRandom(seed: 5)
        func runs(_ level: Double) -> [Double] { (0..<12).map { _ in level * exp(0.01 * BenchStatisticsTests.gaussian(&rng)) } }
        func kind(_ i: Int) -> BenchKind { i % 2 == 0 ? .undo : .select }
        var old = F.report(instructions: 1, allocations: 1, p50s: [1], totals: [1])
        var new = old
        old.runs = 12
        new.runs = 12
        old.traces = (0..<40).map { i in F.report(instructions: 1, allocations: 1, p50s: runs(500), totals: runs(5_000), name: "t\(i)", kind: kind(i)).traces[0] }
        new.traces = (0..<40).map { i in
            F.report(
                instructions: 1, allocations: 1, p50s: runs(kind(i) == .select ? 500 * 1.08 * 1.4 : 500 * 1.08), totals: runs(5_000 * 1.08), name: "t\(i)",
                kind: kind(i)
            ).traces[0]
        }
        let c = try BenchComparison.compare(new, baseline: old, baselineFile: "b", metrics: [.p50, .total], threshold: 0.05)
        #expect(Set(c.regressions.map(\.trace)) == Set((0..<20).map { "t\(2 * $0 + 1)" }), "\(c.regressions)")
        #expect(c.regressions.allSatisfy { $0.row == "select" })
        let drift = try #require(c.drift)
        #expect(abs(drift - 1.08) < 0.01, "\(drift)")
        let summary = BenchFormat.comparisonSummary(c, baselineFile: "b")
        #expect(summary.contains("8.0% slower as a whole") || summary.contains("8.1% slower as a whole"), "\(summary)")
        #expect(summary.contains("REGRESSED KIND select p50: slower in 20 of 20 traces"))
        // The regression's ratio is relative to the drift: about 1.4, with its interval.
        let r = try #require(c.regressions.first)
        #expect(abs((r.ratio ?? 0) - 1.4) < 0.03 && (r.ratioLow ?? 0) < (r.ratio ?? 0) && (r.ratioHigh ?? 0) > (r.ratio ?? 0))
        #expect(r.ratioText?.hasPrefix("×1.") == true)
        // Paired runs are not corrected: a machine cannot be slower for one side of a pair.
        old.pairID = "p"
        new.pairID = "p"
        let p = try BenchComparison.compare(new, baseline: old, baselineFile: "b", metrics: [.p50, .total], threshold: 0.05)
        #expect(p.drift == nil && p.regressions.count >= 40, "every p50 of the slower side, and more")
    }

    @Test func aSignificantChangeMustBeBeyondTheThresholdWithConfidence() throws {
        // Twenty pairs, consistently slower, but by 3 to 7 %: significant, centred on the 5 %
        // threshold, and not beyond it with confidence.
        var rng = SeededRandom(seed: 9)
        let old = (0..<20).map { _ in 1_000 * exp(0.005 * BenchStatisticsTests.gaussian(&rng)) }
        let new = old.map { $0 * (1.03 + 0.04 * Double(rng.next() % 1_000) / 1_000) }
        let a = F.report(instructions: 1, allocations: 1, p50s: old, totals: old, pairID: "p")
        let b = F.report(instructions: 1, allocations: 1, p50s: new, totals: new, pairID: "p")
        let c = try BenchComparison.compare(b, baseline: a, baselineFile: "b", metrics: [.p50], threshold: 0.05)
        let f = try #require(c.changes.first)
        #expect((f.pValue ?? 1) < 1e-5)
        #expect(!f.regressed, "\(f) \(f.ratioText ?? "")")
        // Beyond it with room to spare: a regression.
        let clear = F.report(instructions: 1, allocations: 1, p50s: old.map { $0 * 1.2 }, totals: new, pairID: "p")
        #expect(try BenchComparison.compare(clear, baseline: a, baselineFile: "b", metrics: [.p50], threshold: 0.05).regressions.count == 1)
    }
}
