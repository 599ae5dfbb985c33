import Foundation
import MapSketch
#if canImport(FoundationXML)
import FoundationXML
#endif
import MapSketchGeometry
@testable import MapSketchBench
import MapSketchReplay
import MapSketchTestSupport
import Testing

/// `mapsketch bench` as a library: what it measures, that measuring changes nothing, its report
/// and the comparison with a baseline.
@MainActor
@Suite struct BenchTests {
    nonisolated static let corpus: [GoldenCase] = (try? GoldenCorpus.cases(under: Fixtures.url("Traces"))) ?? []

    static func load(_ name: String) throws -> (GoldenCase, Trace) {
        let c = try #require(corpus.first { $0.name == name }, "no corpus trace \(name)")
        return (c, try Replayer.load(c.trace))
    }

    static func measure(_ name: String, runs: Int = 2, warmup: Int = 0) throws -> BenchTraceResult {
        let (c, trace) = try load(name)
        return try BenchRunner(options: BenchOptions(warmup: warmup, runs: runs)).measure(trace, name: name, file: name, source: c.trace)
    }

    @Test func benchedReplayGivesTheSameOutputAsAPlainReplayForEveryCorpusTrace() throws {
        let runner = BenchRunner(options: BenchOptions(warmup: 0, runs: 1))
        var compared = 0
        for c in Self.corpus {
            guard let trace = try? Replayer.load(c.trace) else { continue }  // the malformed corpus
            guard let plain = try? Replayer.replay(trace, name: c.name, file: c.name).output() else { continue }
            let benched = try runner.measureKeepingOutput(trace, name: c.name, file: c.name, source: c.trace).output
            #expect(benched.document == plain.document, "\(c.name): the benched replay's output differs")
            #expect(benched.geometry == plain.geometry, "\(c.name): the benched replay's geometry differs")
            compared += 1
        }
        #expect(compared >= 150)
    }

    @Test func touchesAreSplitIntoTheModelsOperations() throws {
        let r = try Self.measure("demo/demo")
        let touches = try Self.load("demo/demo").1.events.filter { if case .touch = $0.event { true } else { false } }.count
        #expect(r.kind(.gesture)?.count == touches)
        #expect((r.kind(.sketchHitTest)?.count ?? 0) > 0)
        #expect((r.kind(.vertexInsertInteractive)?.count ?? 0) > 0)
        #expect((r.kind(.vertexMoveInteractive)?.count ?? 0) > 0)
        #expect(r.kind(.undo)?.count == 1)
        #expect(r.kind(.redo)?.count == 1)
        #expect(r.totalNanoseconds.count == 2 && r.setupNanoseconds.count == 2)
        for k in r.kinds {
            #expect(k.runs.count == 2)
            #expect(k.p50 <= k.p90 && k.p90 <= k.p99 && k.p99 <= k.max, "\(k.kind)")
            #expect(k.throughput > 0)
        }
    }

    @Test(arguments: [
        ("synthetic/undo-churn", BenchOperation.undo), ("tools/rotate-part-about-transform-anchor", .transformProgrammatic),
        ("tools/reticle-pick-up-pan-place", .reticle),
    ])
    func programmaticCallsAreCountedByKind(_ name: String, _ kind: BenchOperation) throws {
        let (_, trace) = try Self.load(name)
        var expected: [BenchOperation: Int] = [:]
        for e in trace.events { if case .call(let c) = e.event, let k = BenchOperation(.call(c.name)) { expected[k, default: 0] += 1 } }
        let r = try Self.measure(name)
        #expect(expected[kind, default: 0] > 0)
        for (k, n) in expected { #expect(r.kind(k)?.count == n, "\(k)") }
    }

    @Test func gpsFixesAreTimedPerStage() throws {
        let (_, trace) = try Self.load("gps/real-gpx-gpxpy-korita-zbevnica")
        let fixes = trace.events.filter { if case .gps = $0.event { true } else { false } }.count
        let r = try Self.measure("gps/real-gpx-gpxpy-korita-zbevnica")
        #expect(r.kind(.gpsRead)?.count == fixes)
        #expect(r.kind(.gpsFilter)?.count == fixes)
        let appended = try #require(r.kind(.gpsAppend)?.count)
        #expect(appended > 0 && appended <= fixes)
        #expect(r.kind(.gpsProject)?.count == appended)
    }

    @Test func gpsReadsAreTimedApartFromTheReplayButFiledUnderEachRun() throws {
        let name = "gps/real-gpx-gpxpy-korita-zbevnica"
        let fixes = try Self.load(name).1.events.filter { if case .gps = $0.event { true } else { false } }.count
        for warmup in [0, 2] {
            let r = try Self.measure(name, runs: 3, warmup: warmup)
            let read = try #require(r.kind(.gpsRead))
            #expect(read.runs.count == 3)
            #expect(read.runs.allSatisfy { $0.count == fixes && $0.timed == fixes }, "every read of every measured run, no warm-up pass")
            #expect(read.runs.allSatisfy { $0.p50 > 0 && $0.p50 <= $0.max })
            #expect(r.kind(.gpsFilter)?.runs.allSatisfy { $0.count == fixes } == true)
        }
    }

    @Test func timingASampleKeepsCountsAndAllocationsExact() throws {
        let name = "synthetic/generated-drags-seed13"
        let (c, trace) = try Self.load(name)
        func run(_ timing: BenchTiming) throws -> BenchTraceResult {
            try BenchRunner(options: BenchOptions(warmup: 1, runs: 2, timing: timing)).measure(trace, name: name, file: name, source: c.trace)
        }
        let every = try run(.everyOperation)
        let fourth = try run(.every(4))
        let automatic = try run(.automatic)
        let gestures = try #require(every.kind(.gesture)?.count)
        #expect(gestures > 1_000)
        for r in [every, fourth, automatic] {
            let g = try #require(r.kind(.gesture))
            #expect(g.count == gestures)
            #expect(g.runs.allSatisfy { $0.count == gestures })
            #expect(g.runs.map(\.allocations) == every.kind(.gesture)?.runs.map(\.allocations), "allocations cover every operation, timed or not")
            #expect(g.p50 <= g.p90 && g.p90 <= g.p99 && g.p99 <= g.max && g.p50 > 0)
            #expect(r.allocations == every.allocations)
        }
        #expect(every.kind(.gesture)?.runs.allSatisfy { $0.timed == gestures } == true)
        // Every 4th: the 1st, 5th, 9th, … operation of each run.
        #expect(fourth.kind(.gesture)?.runs.allSatisfy { $0.timed == (gestures + 3) / 4 } == true)
        #expect(fourth.kind(.gesture)?.timed == 2 * ((gestures + 3) / 4))
        // Automatic: strides from the warm-up run, never fewer than 200 timed per run here.
        for run in try #require(automatic.kind(.gesture)).runs {
            let timed = try #require(run.timed)
            #expect(timed >= BenchRecorder.minimumTimedPerRun && timed <= gestures)
        }
    }

    @Test func automaticTimingTimesEverySlowOrRareOperation() throws {
        // A few dozen operations per run: too few to sample, each is timed.
        let r = try BenchRunner(options: BenchOptions(warmup: 1, runs: 2, timing: .automatic))
            .measure(try Self.load("demo/demo").1, name: "demo", file: "demo", source: try Self.load("demo/demo").0.trace)
        for k in r.kinds { #expect(k.runs.allSatisfy { $0.timed == $0.count }, "\(k.kind)") }
    }

    @Test(arguments: [
        ("programmatic/renderer-class-breaks", BenchOperation.rendererClassBreaks),
        ("programmatic/renderer-unique-value", .rendererUniqueValue), ("demo/demo", .rendererSimple),
    ])
    func rendererLookupsAreTimedPerRendererType(_ name: String, _ kind: BenchOperation) throws {
        let r = try Self.measure(name)
        #expect((r.kind(kind)?.count ?? 0) > 0, "\(r.kinds.map(\.kind))")
    }

    @Test func aCalloutTapIsAMapHitTest() throws {
        let name = try #require(Self.corpus.map(\.name).first { $0.contains("callout") })
        let r = try Self.measure(name)
        #expect((r.kind(.mapHitTest)?.count ?? 0) > 0)
    }

    @Test func totalsOnlyTimesWholeReplaysWithoutAProbe() throws {
        let (c, trace) = try Self.load("demo/demo")
        let runner = BenchRunner(options: BenchOptions(warmup: 0, runs: 2, measureOperations: false))
        let (r, output) = try runner.measureKeepingOutput(trace, name: "demo", file: "demo", source: c.trace)
        #expect(r.kinds.isEmpty)
        #expect(r.totalNanoseconds.count == 2 && r.totalNanoseconds.allSatisfy { $0 > 0 })
        #expect(output.document == (try Replayer.replay(trace, name: "demo", file: "demo").output().document))
    }

    @Test func warmUpRunsAreNotMeasuredAndATimeBudgetStopsAfterAtLeastOneRun() throws {
        let (c, trace) = try Self.load("demo/demo")
        let warm = try BenchRunner(options: BenchOptions(warmup: 3, runs: 2)).measure(trace, name: "demo", file: "demo", source: c.trace)
        #expect(warm.totalNanoseconds.count == 2)
        #expect(warm.kinds.allSatisfy { $0.runs.count == 2 }, "only the measured runs are kept")
        #expect(warm.kind(.undo)?.count == 1, "a kind's count is per run, not summed over the warm-up")
        let budget = try BenchRunner(options: BenchOptions(warmup: 0, runs: 50, timeBudget: 1e-9)).measure(trace, name: "demo", file: "demo", source: c.trace)
        #expect(budget.totalNanoseconds.count == 1)
        #expect(budget.kinds.allSatisfy { $0.runs.count == 1 })
    }

    @Test func withoutTheTraitAllocationsAreUnavailableAndSaySo() {
        let runner = BenchRunner(options: BenchOptions())
        let report = BenchReport(warmup: 0, runs: 1, counters: runner.counters, traces: [])
        if !runner.counters.allocations {
            #expect(report.counters.unavailable.contains { $0.contains("AllocationCounters") && $0.contains("libjemalloc-dev") })
        }
        #expect(report.counters.unavailable.contains { $0.contains("--instrument callgrind") && $0.contains("valgrind") })
    }

    @Test func theMalformedCorpusIsExpectedToFailAndIsNotMeasured() {
        let bad = Self.corpus.filter { $0.name.hasPrefix("malformed/") }
        let good = Self.corpus.filter { $0.name == "demo/demo" }
        #expect(bad.count >= 10)
        let report = BenchRunner(options: BenchOptions(warmup: 0, runs: 1)).run(bad + good)
        #expect(report.traces.map(\.name) == ["demo/demo"])
        #expect(report.failures == [])
        #expect(report.expectedFailures.map(\.trace) == bad.map(\.name))
        for f in report.expectedFailures {
            #expect(f.error.line >= 1 && f.error.column >= 1)
            #expect(f.description.hasPrefix(f.error.file + ":\(f.error.line):\(f.error.column): "))
        }
        #expect(BenchFormat.table(report).contains("1 trace benched (0 warm-up, 1 measured run each), \(bad.count) expected failures not measured (expect.error)"))
    }

    @Test func aTraceThatFailsWithoutDeclaringItIsReportedWithItsLocationAndNotMeasured() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bench-bad-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let header = #"{"t":0,"type":"header","format":"mapsketch-trace","version":1,"sketch":{"geometryType":"polyline"}}"#
        // Line 2: a phase that does not exist.
        try (header + "\n" + #"{"t":0.1,"type":"touch","id":0,"phase":"sideways","x":1,"y":2}"# + "\n")
            .write(to: dir.appendingPathComponent("bad.trace.jsonl"), atomically: true, encoding: .utf8)
        // Declares an error but reads and sets up: not the trace it says it is.
        let liar = #"{"t":0,"type":"header","format":"mapsketch-trace","version":1,"expect":{"error":"expected a color"},"sketch":{"geometryType":"polyline"}}"#
        try (liar + "\n").write(to: dir.appendingPathComponent("liar.trace.jsonl"), atomically: true, encoding: .utf8)
        // Declares a different error from the one it fails with.
        try (liar + "\n" + #"{"t":0.1,"type":"touch","id":0,"phase":"sideways","x":1,"y":2}"# + "\n")
            .write(to: dir.appendingPathComponent("wrong.trace.jsonl"), atomically: true, encoding: .utf8)
        let cases = try TraceSelection(paths: [dir.path]).cases()
        let report = BenchRunner(options: BenchOptions(warmup: 0, runs: 1)).run(cases)
        #expect(report.traces.isEmpty)
        #expect(report.expectedFailures.isEmpty)
        #expect(report.failures.map(\.trace) == ["bad", "liar", "wrong"])
        let bad = try #require(report.failures.first)
        #expect(bad.error.file.hasSuffix("bad.trace.jsonl"))
        #expect(bad.error.line == 2 && bad.error.column > 1)
        #expect(bad.error.message.contains("found \"sideways\""))
        #expect(report.failures[1].error.message.contains("expected the trace to fail with an error containing \"expected a color\""))
        #expect(report.failures[2].error.line == 2)
        #expect(BenchFormat.table(report).contains("FAILED bad: "))
    }

    // MARK: Report

    static func sampleReport() throws -> BenchReport {
        var r = BenchRunner(options: BenchOptions(warmup: 0, runs: 3)).run(Self.corpus.filter { ["demo/demo", "gps/real-gpx-gpxpy-korita-zbevnica", "malformed/bad-touch-phase"].contains($0.name) })
        #expect(r.expectedFailures.map(\.trace) == ["malformed/bad-touch-phase"])
        // A trace that failed without declaring it, so every member is exercised.
        r.failures.append(
            BenchFailure(trace: "broken", error: InputError(file: "broken.trace.jsonl", line: 2, column: 36, message: "phase: expected began, moved, ended or cancelled")))
        // Counters as a build with them would fill them, so every member is exercised.
        r.counters = BenchCounters(allocations: true, instructions: true)
        for t in r.traces.indices {
            r.traces[t].allocations = [10, 10, 10]
            r.traces[t].bytes = [100, 100, 100]
            r.traces[t].instructions = [1000, 1001, 1002]
            for k in r.traces[t].kinds.indices {
                for i in r.traces[t].kinds[k].runs.indices {
                    r.traces[t].kinds[k].runs[i].allocations = 2
                    r.traces[t].kinds[k].runs[i].bytes = 64
                    r.traces[t].kinds[k].runs[i].instructions = 500
                }
            }
        }
        return r
    }

    @Test func theJSONReportValidatesAgainstItsSchemaAndReadsBack() throws {
        let report = try Self.sampleReport()
        #expect(report.failures.count == 1 && report.expectedFailures.count == 1)
        let schema = try JSONParser.parse(Fixtures.string("docs/bench-report.schema.json"))
        let value = try JSONParser.parse(report.jsonText)
        #expect(JSONSchemaValidator(schema: schema).violations(of: value) == [])
        let plain = BenchRunner(options: BenchOptions(warmup: 0, runs: 1)).run(Self.corpus.filter { $0.name == "demo/demo" })
        #expect(JSONSchemaValidator(schema: schema).violations(of: try JSONParser.parse(plain.jsonText)) == [])
        let back = try BenchReport.decode(report.jsonText, file: "r.json")
        #expect(try BenchReport.decode(back.jsonText, file: "r.json") == back)
        #expect(back.traces.map(\.name) == report.traces.map(\.name))
        #expect(back.traces.map(\.totalNanoseconds) == report.traces.map(\.totalNanoseconds))
        #expect(back.traces.map { $0.kinds.map(\.p50) } == report.traces.map { $0.kinds.map(\.p50) })
        #expect(back.traces.map { $0.kinds.map(\.instructions) } == report.traces.map { $0.kinds.map(\.instructions) })
        #expect(back.traces.map { $0.kinds.map(\.timed) } == report.traces.map { $0.kinds.map(\.timed) })
        #expect(plain.traces.allSatisfy { $0.kinds.allSatisfy { $0.timed != nil } }, "a measured report says how many operations were timed")
        #expect(back.failures == report.failures)
        #expect(back.expectedFailures == report.expectedFailures)
        // A report without expected failures may leave the member out.
        var without = try #require(value.objectValue)
        without["expectedFailures"] = nil
        #expect(JSONSchemaValidator(schema: schema).violations(of: .object(without)) == [])
        #expect(try BenchReport.decode(JSONWriter.string(.object(without)), file: "r.json").expectedFailures == [])
        // The validator does catch a bad document.
        var broken = try #require(value.objectValue)
        broken["schemaVersion"] = 2
        #expect(!JSONSchemaValidator(schema: schema).violations(of: .object(broken)).isEmpty)
    }

    @Test func aBaselineOfAnotherSchemaVersionOrKindIsAClearError() throws {
        let text = try Self.sampleReport().jsonText
        let v2 = text.replacingOccurrences(of: "\"schemaVersion\": 1", with: "\"schemaVersion\": 2")
        #expect(v2 != text)
        #expect(throws: InputError.self) { try BenchReport.decode(v2, file: "old.json") }
        do {
            _ = try BenchReport.decode(v2, file: "old.json")
        } catch {
            #expect(error.description.hasPrefix("old.json:3:"))
            #expect(error.message.contains("expected schema version 1, found 2"))
        }
        do {
            _ = try BenchReport.decode("{\"trace\":\"x\"}", file: "golden.json")
            Issue.record("a golden file read as a baseline")
        } catch {
            #expect(error.message.contains("not a `mapsketch bench` report"))
        }
        do {
            _ = try BenchReport.decode(text.replacingOccurrences(of: "\"p50Ns\": ", with: "\"p50Ns\": \"x\", \"y\": "), file: "b.json")
            Issue.record("a mistyped member was accepted")
        } catch {
            #expect(error.message.contains("p50Ns: expected an integer"))
            #expect(error.line > 1)
        }
    }

    // MARK: Comparison

    static func report(instructions: UInt64, allocations: UInt64, p50s: [UInt64], totals: [UInt64], name: String = "t") -> BenchReport {
        let runs = p50s.map { BenchKindResult.Run(count: 10, p50: $0, p90: $0, p99: $0, max: $0, mean: Double($0), allocations: allocations, bytes: allocations * 16, instructions: instructions) }
        let kind = BenchKindResult(kind: .undo, count: 10, p50: p50s.sorted()[p50s.count / 2], p90: 0, p99: 0, max: 0, mean: 0, runs: runs)
        let trace = BenchTraceResult(
            name: name, events: 10, totalNanoseconds: totals, setupNanoseconds: totals.map { _ in 1 },
            allocations: totals.map { _ in allocations * 10 }, bytes: totals.map { _ in allocations * 160 },
            instructions: totals.map { _ in instructions * 10 }, kinds: [kind])
        return BenchReport(warmup: 1, runs: p50s.count, counters: BenchCounters(allocations: true, instructions: true), traces: [trace])
    }

    @Test func exactCountersRegressPastTheThresholdOnly() throws {
        let base = Self.report(instructions: 1000, allocations: 10, p50s: [100, 100, 100, 100, 100], totals: [1, 1, 1, 1, 1])
        let same = try BenchComparison.compare(base, baseline: base, baselineFile: "b", metrics: nil, threshold: 0.05)
        #expect(same.metrics == [.instructions, .allocations, .bytes])
        #expect(same.regressions.isEmpty)
        let slower = Self.report(instructions: 1060, allocations: 10, p50s: [100, 100, 100, 100, 100], totals: [1, 1, 1, 1, 1])
        let c = try BenchComparison.compare(slower, baseline: base, baselineFile: "b", metrics: nil, threshold: 0.05)
        #expect(c.regressions.map(\.metric) == [.instructions, .instructions])
        let r = try #require(c.regressions.first { $0.kind == .undo })
        #expect(r.description == "t undo instructions: 1,000 → 1,060 (+6.0%)")
        #expect(c.changes.first?.regressed == true)  // regressions first
        let within = try BenchComparison.compare(slower, baseline: base, baselineFile: "b", metrics: nil, threshold: 0.10)
        #expect(within.regressions.isEmpty)
        let oneMore = Self.report(instructions: 1000, allocations: 11, p50s: [100, 100, 100, 100, 100], totals: [1, 1, 1, 1, 1])
        let a = try BenchComparison.compare(oneMore, baseline: base, baselineFile: "b", metrics: [.allocations], threshold: 0)
        #expect(a.regressions.count == 2)
        let fromZero = try BenchComparison.compare(
            oneMore, baseline: Self.report(instructions: 1000, allocations: 0, p50s: [100, 100, 100, 100], totals: [1, 1, 1, 1]), baselineFile: "b",
            metrics: [.allocations], threshold: 0.5)
        #expect(fromZero.regressions.first?.changeText == "new")
    }

    @Test func wallClockGatingNeedsAConsistentShiftNotOneSlowSample() throws {
        let base = Self.report(instructions: 1, allocations: 1, p50s: [100, 102, 98, 101, 99], totals: [1000, 1010, 990, 1005, 995])
        let oneSlow = Self.report(instructions: 1, allocations: 1, p50s: [100, 101, 99, 400, 100], totals: [1000, 4000, 990, 1000, 1001])
        let noisy = try BenchComparison.compare(oneSlow, baseline: base, baselineFile: "b", metrics: [.p50, .total], threshold: 0.05)
        #expect(noisy.regressions.isEmpty, "\(noisy.regressions)")
        let shifted = Self.report(instructions: 1, allocations: 1, p50s: [120, 125, 119, 122, 121], totals: [1200, 1210, 1190, 1205, 1195])
        let c = try BenchComparison.compare(shifted, baseline: base, baselineFile: "b", metrics: [.p50, .total], threshold: 0.05)
        #expect(c.regressions.count == 2)
        #expect(c.regressions.allSatisfy { ($0.pValue ?? 1) < 0.05 })
        let small = try BenchComparison.compare(shifted, baseline: base, baselineFile: "b", metrics: [.p50], threshold: 0.25)
        #expect(small.regressions.isEmpty)  // significant but within the threshold
        let three = Self.report(instructions: 1, allocations: 1, p50s: [120, 125, 119], totals: [1, 1, 1])
        #expect(throws: OutputError.self) { try BenchComparison.compare(three, baseline: base, baselineFile: "b", metrics: [.p50], threshold: 0.05) }
    }

    @Test func mannWhitneyMatchesTheExactDistribution() {
        // All five above all five: U = 25, P = 1 / C(10, 5) = 1/252.
        #expect(abs(MannWhitney.pGreater([6, 7, 8, 9, 10], [1, 2, 3, 4, 5]) - 1.0 / 252) < 1e-12)
        #expect(MannWhitney.pGreater([1, 2, 3, 4, 5], [6, 7, 8, 9, 10]) == 1)
        // Interleaved: the test does not reject.
        #expect(MannWhitney.pGreater([1, 3, 5, 7, 9], [2, 4, 6, 8, 10]) > 0.5)
        // The distribution sums to C(n+m, n) and is symmetric.
        let d = MannWhitney.distribution(4, 3)
        #expect(d.reduce(0, +) == 35)
        #expect(d == d.reversed())
        // Large samples use the normal approximation, which agrees in the tail.
        let x = (0..<40).map { Double($0) + 5 }
        let y = (0..<40).map { Double($0) }
        let p = MannWhitney.pGreater(x, y)
        #expect(p > 0.01 && p < 0.05, "\(p)")
    }

    @Test func aBaselineForOtherTracesIsAClearError() throws {
        let base = Self.report(instructions: 1, allocations: 1, p50s: [1, 1, 1, 1], totals: [1, 1, 1, 1], name: "other")
        let cur = Self.report(instructions: 1, allocations: 1, p50s: [1, 1, 1, 1], totals: [1, 1, 1, 1], name: "mine")
        do {
            _ = try BenchComparison.compare(cur, baseline: base, baselineFile: "base.json", metrics: nil, threshold: 0.05)
            Issue.record("compared with a baseline for other traces")
        } catch {
            #expect(error.description.hasPrefix("base.json: the baseline is for other traces"))
            #expect(error.message.contains("other"))
        }
        var two = cur
        two.traces.append(Self.report(instructions: 1, allocations: 1, p50s: [1, 1, 1, 1], totals: [1, 1, 1, 1], name: "other").traces[0])
        do {
            _ = try BenchComparison.compare(two, baseline: base, baselineFile: "base.json", metrics: nil, threshold: 0.05)
            Issue.record("compared with a baseline missing a trace")
        } catch {
            #expect(error.message.contains("no figures for 1 trace(s) benched here: mine"))
        }
        var noCounters = cur
        noCounters.counters = BenchCounters(allocations: false, instructions: false)
        noCounters.traces[0].name = "other"
        #expect(throws: OutputError.self) { try BenchComparison.compare(noCounters, baseline: base, baselineFile: "b", metrics: nil, threshold: 0.05) }
        #expect(throws: OutputError.self) { try BenchComparison.compare(noCounters, baseline: base, baselineFile: "b", metrics: [.instructions], threshold: 0.05) }
    }

    // MARK: Formats

    static func slowedComparison() throws -> (BenchReport, BenchComparison) {
        let base = Self.report(instructions: 1000, allocations: 10, p50s: [100, 100, 100, 100, 100], totals: [1, 1, 1, 1, 1])
        let slower = Self.report(instructions: 2000, allocations: 10, p50s: [100, 100, 100, 100, 100], totals: [1, 1, 1, 1, 1])
        return (slower, try BenchComparison.compare(slower, baseline: base, baselineFile: "b", metrics: nil, threshold: 0.05))
    }

    @Test func bmfHasABenchmarkPerTraceAndKindWithMeasures() throws {
        let report = try Self.sampleReport()
        let v = try JSONParser.parse(BenchFormat.bmf(report))
        let o = try #require(v.objectValue)
        for t in report.traces {
            #expect(o[t.name]?["latency"]?["value"]?.doubleValue == Double(t.total))
            #expect(o[t.name]?["throughput"]?["value"]?.doubleValue != nil)
            for k in t.kinds {
                let b = try #require(o["\(t.name)/\(k.kind.rawValue)"])
                #expect(b["latency"]?["value"]?.doubleValue == Double(k.p50))
                let lo = try #require(b["latency"]?["lower_value"]?.doubleValue)
                let hi = try #require(b["latency"]?["upper_value"]?.doubleValue)
                #expect(lo <= hi)
                #expect(b["instructions"]?["value"]?.doubleValue == 500)
                #expect(b["allocations"]?["value"]?.doubleValue == 2)
            }
        }
        #expect(o.count == report.traces.count + report.traces.reduce(0) { $0 + $1.kinds.count })
    }

    @Test func githubActionBenchmarkIsAnArrayOfNameUnitValue() throws {
        let report = try Self.sampleReport()
        let a = try #require(try JSONParser.parse(BenchFormat.githubActionBenchmark(report)).arrayValue)
        #expect(!a.isEmpty)
        for e in a {
            #expect(e["name"]?.stringValue?.isEmpty == false)
            #expect(["ns", "instructions", "allocations"].contains(e["unit"]?.stringValue ?? ""))
            #expect(e["value"]?.doubleValue != nil)
        }
        let names = a.compactMap { $0["name"]?.stringValue }
        #expect(Set(names).count == names.count)
        #expect(names.contains("demo/demo total"))
        #expect(names.contains("demo/demo gesture p50"))
    }

    @Test func markdownPutsRegressionsFirst() throws {
        let (report, c) = try Self.slowedComparison()
        let md = BenchFormat.markdown(report, comparison: c, baselineFile: "main.json")
        #expect(md.contains("**2 regressions**"))
        let rows = md.split(separator: "\n").filter { $0.hasPrefix("| ") && !$0.hasPrefix("| |") }
        #expect(rows.first?.hasPrefix("| ❌ | t | total | instructions | 10,000 | 20,000 | +100.0% |") == true, "\(rows)")
        #expect(rows.dropFirst().first?.hasPrefix("| ❌ | t | undo | instructions | 1,000 | 2,000 | +100.0% |") == true)
        #expect(md.contains("<details>"))  // the unchanged figures are folded
        let plain = BenchFormat.markdown(try Self.sampleReport(), comparison: nil)
        #expect(plain.contains("| demo/demo | gesture |"))
        #expect(plain.contains("Not measured"))
    }

    @Test func junitHasAFailurePerRegression() throws {
        let (report, c) = try Self.slowedComparison()
        let xml = BenchFormat.junit(report, comparison: c)
        let doc = try XMLDocument(data: Data(xml.utf8))
        let cases = try doc.nodes(forXPath: "//testcase")
        let failures = try doc.nodes(forXPath: "//testcase/failure")
        #expect(cases.count == c.changes.count)
        #expect(failures.count == c.regressions.count)
        #expect(try doc.nodes(forXPath: "/testsuites/@failures").first?.stringValue == "\(c.regressions.count)")
        let msg = try #require(try doc.nodes(forXPath: "//failure/@message").first?.stringValue)
        #expect(msg == "t total instructions: 10,000 → 20,000 (+100.0%)")
        let junit = try XMLDocument(data: Data(BenchFormat.junit(try Self.sampleReport(), comparison: nil).utf8))
        #expect(try junit.nodes(forXPath: "//testcase/error").count == 1)
        #expect(try junit.nodes(forXPath: "//testcase[@name='malformed/bad-touch-phase']/skipped").count == 1)
        #expect(try junit.nodes(forXPath: "/testsuites/@skipped").first?.stringValue == "1")
    }

    @Test func theTableHasARowPerKind() throws {
        let report = try Self.sampleReport()
        let table = BenchFormat.table(report)
        for t in report.traces {
            #expect(table.contains("\(t.name): \(BenchFormat.grouped(t.events)) events"))
            for k in t.kinds { #expect(table.contains("  " + k.kind.rawValue + " ")) }
        }
        #expect(table.contains("instr/op") && table.contains("allocs/op"))
        #expect(table.contains("FAILED broken: broken.trace.jsonl:2:36: "))
        #expect(table.contains("1 expected failure not measured (expect.error)"))
    }

    @Test func durationsAndCountsReadWell() {
        #expect(BenchFormat.duration(850) == "850 ns")
        #expect(BenchFormat.duration(12_345) == "12.3 µs")
        #expect(BenchFormat.duration(9_999) == "10.0 µs")
        #expect(BenchFormat.duration(4_560_000) == "4.56 ms")
        #expect(BenchFormat.duration(1_230_000_000) == "1.23 s")
        #expect(BenchFormat.grouped(1_234_567) == "1,234,567")
        #expect(BenchFormat.decimal(-0.04, places: 1) == "0.0")
    }

    // MARK: Callgrind

    @Test func callgrindProfilesGiveTheTotalAndEachKindsInclusiveCost() {
        let profile = """
            # callgrind format
            version: 1
            creator: callgrind-3.19.0
            positions: line
            events: Ir
            summary: 5000
            fn=mapsketch_bench_region
            0 10
            cfn=mapsketch_bench_kind_9
            calls=1 0
            0 300
            cfn=$s22mapsketch_bench_kind_0102$s15MapSketchReplay11BenchRegionO9operation
            calls=2 0
            0 200
            fn=mapsketch_bench_kind_9
            0 5
            cfn=$s9MapSketch11SketchLayerC4undoSbyF
            calls=1 0
            0 295
            fn=$s22mapsketch_bench_kind_0102$s15MapSketchReplay11BenchRegionO9operation
            0 200
            fn=$s23mapsketch_bench_kind_1187$sXYZ
            0 7
            totals: 5000
            """
        let run = Callgrind.parse(profile)
        #expect(run.total == 5000)
        #expect(run.kinds[.undo] == 300)  // own 5 + the call's 295
        #expect(run.kinds[.gesture] == 200)
        #expect(run.kinds[.rendererSimple] == 7)  // ordinal 11, from the length-prefixed mangled name
        #expect(Callgrind.kind(inFunction: "$s22mapsketch_bench_kind_185$s") == .mapHitTest)
        #expect(Callgrind.kind(inFunction: "mapsketch_bench_kind_12") == .rendererClassBreaks)
        #expect(Callgrind.kind(inFunction: "$s9MapSketch4undo") == nil)
    }

    @Test func callgrindIsRunWithCollectionOnlyInTheRegion() {
        let args = Callgrind.arguments(outFile: "/tmp/x", executable: "/bin/mapsketch", childArguments: ["bench"])
        #expect(args.contains("--collect-atstart=no"))
        #expect(args.contains("--toggle-collect=mapsketch_bench_region"))
        #expect(args.contains("--dump-after=mapsketch_bench_region"))
        #expect(Array(args.suffix(2)) == ["/bin/mapsketch", "bench"])
        #expect(Callgrind.locateValgrind(path: "/nonexistent") == nil)
        #expect(Callgrind.missingMessage.contains("apt-get install valgrind"))
    }
}
