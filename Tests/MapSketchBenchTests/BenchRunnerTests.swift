import Foundation
import MapSketch
import MapSketchGeometry
@testable import MapSketchBench
import MapSketchReplay
import MapSketchTestSupport
import Testing
@testable import MapSketchGolden

/// What the bench measures in a process: that measuring changes nothing, every operation by kind,
/// timing samples, warm-up, failures.
@MainActor
@Suite struct BenchRunnerTests {
    @Test func benchedReplayGivesTheSameOutputAsAPlainReplayForEveryCorpusTrace() throws {
        let runner = BenchRunner(options: BenchOptions(warmup: 0, runs: 1))
        var compared = 0
        for c in BenchFixtures.corpus {
            guard let trace = try? Replayer.load(c.trace) else { continue }  // the malformed corpus
            guard let plain = try? Replayer.replay(trace, name: c.name, file: c.name).output() else { continue }
            let text = try String(contentsOf: c.trace, encoding: .utf8)
            let benched = try runner.measureKeepingOutput(trace, name: c.name, file: c.name, text: text).output
            #expect(benched.document == plain.document, "\(c.name): the benched replay's output differs")
            #expect(benched.geometry == plain.geometry, "\(c.name): the benched replay's geometry differs")
            compared += 1
        }
        #expect(compared >= 150)
    }

    @Test func everyEventIsAnOperationOfItsKind() throws {
        for name in ["demo/demo", "gps/real-gpx-gpxpy-korita-zbevnica", "synthetic/undo-churn", "tools/reticle-pick-up-pan-place"] {
            let (_, trace, _) = try BenchFixtures.load(name)
            let r = try BenchFixtures.measure(name)
            var touches = 0
            var fixes = 0
            var calls: [BenchKind: Int] = [:]
            for e in trace.events {
                switch e.event {
                case .touch: touches += 1
                case .gps: fixes += 1
                case .call(let c): calls[BenchRecorder.kind(of: c.name), default: 0] += 1
                }
            }
            #expect((r.kind(.touch)?.count ?? 0) == touches, "\(name): touches")
            #expect((r.kind(.gpsFix)?.count ?? 0) == fixes, "\(name): fixes")
            for (k, n) in calls where k != .select {
                #expect(r.kind(k)?.count == n, "\(name): \(k)")
            }
            #expect(r.kind(.setup)?.count == 1, "\(name): the header's set-up")
            #expect(r.attributed.count == 2)
            // The model's own operations nest inside the events' kinds: less in total than the
            // outermost time, never more than the run's whole time.
            for (run, a) in r.attributed.enumerated() {
                #expect(a.nanoseconds > 0 && a.nanoseconds <= (r.totalNanoseconds[run] + r.setupNanoseconds[run]) * 1.05, "\(name) run \(run)")
            }
        }
    }

    @Test func touchesAreSplitIntoTheModelsOperations() throws {
        let r = try BenchFixtures.measure("demo/demo")
        let touches = try BenchFixtures.load("demo/demo").1.events.filter { if case .touch = $0.event { true } else { false } }.count
        #expect(r.kind(.touch)?.count == touches)
        #expect(r.kind(.gesture)?.count == touches)
        #expect((r.kind(.gestureDispatch)?.count ?? 0) > 0)
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
        ("interaction/drag-past-slop-pans", BenchKind.viewportPan), ("interaction/pinch-rotates-when-allowed", .viewportPinch),
        ("programmatic/viewport-calls", .viewportProgrammatic), ("programmatic/graphics-add-remove", .graphicsAdd),
        ("programmatic/graphics-add-remove", .graphicsRemove), ("programmatic/clear-then-undo", .clear),
        ("tools/freehand-stroke-becomes-a-path", .toolStroke), ("tools/freehand-stroke-becomes-a-path", .toolSwitch), ("tools/handle-rotate-drag", .transformInteractive), ("tools/validation-no-self-intersection", .validation),
    ])
    func eachModelOperationHasAKind(_ name: String, _ kind: BenchKind) throws {
        guard BenchFixtures.corpus.contains(where: { $0.name == name }) else {
            Issue.record("no corpus trace \(name)")
            return
        }
        let r = try BenchFixtures.measure(name)
        #expect((r.kind(kind)?.count ?? 0) > 0, "\(name): \(r.kinds.map(\.kind))")
    }

    @Test func gpsFixesAreTimedPerStage() throws {
        let (_, trace, _) = try BenchFixtures.load("gps/real-gpx-gpxpy-korita-zbevnica")
        let fixes = trace.events.filter { if case .gps = $0.event { true } else { false } }.count
        let r = try BenchFixtures.measure("gps/real-gpx-gpxpy-korita-zbevnica")
        #expect(r.kind(.gpsFix)?.count == fixes)
        #expect(r.kind(.gpsRead)?.count == fixes)
        #expect(r.kind(.gpsFilter)?.count == fixes)
        let appended = try #require(r.kind(.gpsAppend)?.count)
        #expect(appended > 0 && appended <= fixes)
        #expect(r.kind(.gpsProject)?.count == appended)
    }

    @Test func gpsReadsAreTimedApartFromTheReplayButFiledUnderEachRun() throws {
        let name = "gps/real-gpx-gpxpy-korita-zbevnica"
        let fixes = try BenchFixtures.load(name).1.events.filter { if case .gps = $0.event { true } else { false } }.count
        for warmup in [0, 2] {
            let r = try BenchFixtures.measure(name, runs: 3, warmup: warmup)
            let read = try #require(r.kind(.gpsRead))
            #expect(read.runs.count == 3)
            #expect(read.runs.allSatisfy { $0.count == fixes && $0.timed == fixes }, "every read of every measured run, no warm-up pass")
            #expect(read.runs.allSatisfy { $0.p50 > 0 && $0.p50 <= $0.max })
            #expect(r.kind(.gpsFilter)?.runs.allSatisfy { $0.count == fixes } == true)
        }
    }

    @Test func timingASampleKeepsCountsExact() throws {
        let name = "synthetic/generated-drags-seed13"
        let every = try BenchFixtures.measure(name, runs: 2, warmup: 1, timing: .everyOperation)
        let fourth = try BenchFixtures.measure(name, runs: 2, warmup: 1, timing: .every(4))
        let automatic = try BenchFixtures.measure(name, runs: 2, warmup: 1, timing: .automatic)
        let gestures = try #require(every.kind(.gesture)?.count)
        #expect(gestures > 1_000)
        for r in [every, fourth, automatic] {
            let g = try #require(r.kind(.gesture))
            #expect(g.count == gestures)
            #expect(g.runs.allSatisfy { $0.count == gestures })
            #expect(g.p50 <= g.p90 && g.p90 <= g.p99 && g.p99 <= g.max && g.p50 > 0)
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
        let r = try BenchFixtures.measure("demo/demo", runs: 2, warmup: 1)
        for k in r.kinds { #expect(k.runs.allSatisfy { $0.timed == $0.count }, "\(k.kind)") }
    }

    @Test(arguments: [
        ("programmatic/renderer-class-breaks", BenchKind.rendererClassBreaks),
        ("programmatic/renderer-unique-value", .rendererUniqueValue), ("demo/demo", .rendererSimple),
    ])
    func rendererLookupsAreTimedPerRendererType(_ name: String, _ kind: BenchKind) throws {
        let r = try BenchFixtures.measure(name)
        #expect((r.kind(kind)?.count ?? 0) > 0, "\(r.kinds.map(\.kind))")
    }

    @Test func aCalloutTapIsACalloutWithAMapHitTestInside() throws {
        let name = try #require(BenchFixtures.corpus.map(\.name).first { $0.contains("callout-on-tap") })
        let r = try BenchFixtures.measure(name)
        #expect((r.kind(.mapHitTest)?.count ?? 0) > 0)
        #expect((r.kind(.callout)?.count ?? 0) == r.kind(.mapHitTest)?.count)
    }

    @Test func totalsOnlyTimesWholeReplaysWithoutAProbe() throws {
        let (_, trace, text) = try BenchFixtures.load("demo/demo")
        let runner = BenchRunner(options: BenchOptions(warmup: 0, runs: 2, measureOperations: false))
        let (r, output) = try runner.measureKeepingOutput(trace, name: "demo", file: "demo", text: text)
        #expect(r.kinds.map(\.kind) == [.setup], "only the set-up, which the runner itself times")
        #expect(r.totalNanoseconds.count == 2 && r.totalNanoseconds.allSatisfy { $0 > 0 })
        #expect(output.document == (try Replayer.replay(trace, name: "demo", file: "demo").output().document))
    }

    @Test func warmUpRunsAreNotMeasuredAndATimeBudgetStopsAfterAtLeastOneRun() throws {
        let warm = try BenchFixtures.measure("demo/demo", runs: 2, warmup: 3)
        #expect(warm.totalNanoseconds.count == 2)
        #expect(warm.kinds.allSatisfy { $0.runs.count == 2 }, "only the measured runs are kept")
        #expect(warm.kind(.undo)?.count == 1, "a kind's count is per run, not summed over the warm-up")
        let (_, trace, text) = try BenchFixtures.load("demo/demo")
        let budget = try BenchRunner(options: BenchOptions(warmup: 0, runs: 50, timeBudget: 1e-9)).measure(trace, name: "demo", file: "demo", text: text)
        #expect(budget.totalNanoseconds.count == 1)
        #expect(budget.kinds.allSatisfy { $0.runs.count == 1 })
    }

    @Test func theClockSaysWhatItReadsAndHowFinely() {
        let runner = BenchRunner(options: BenchOptions())
        #expect(["cycle counter", "monotonic clock"].contains(runner.clock.source))
        #expect(runner.clock.resolution > 0 && runner.clock.resolution < 1_000, "\(runner.clock.resolution) ns")
    }

    @Test func withoutTheTraitAllocationsAreUnavailableAndSaySo() {
        let runner = BenchRunner(options: BenchOptions())
        let report = BenchReport(warmup: 0, runs: 1, counters: runner.counters, clock: runner.clock, build: BenchFixtures.build, traces: [])
        if !runner.counters.allocations {
            #expect(report.counters.unavailable.contains { $0.contains("AllocationCounters") && $0.contains("libjemalloc-dev") })
        }
        #expect(report.counters.unavailable.contains { $0.contains("--instrument callgrind") && $0.contains("valgrind") })
    }

    @Test func theMalformedCorpusIsExpectedToFailAndIsNotMeasured() {
        let bad = BenchFixtures.corpus.filter { $0.name.hasPrefix("malformed/") }
        let good = BenchFixtures.corpus.filter { $0.name == "demo/demo" }
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

    @Test func theBuiltInKindsAreInTheirSlotsAndNamedOnce() {
        for (i, k) in BenchKind.builtIn.enumerated() {
            #expect(k.slot == i, "\(k.name)")
            #expect(BenchKind(named: k.name) == k)
            #expect(!k.summary.isEmpty)
        }
        #expect(Set(BenchKind.builtIn.map(\.name)).count == BenchKind.builtIn.count)
        #expect(!BenchKind.builtIn.map(\.name).contains(BenchKind.unattributedName))
        // Every operation the model and the engine report has a kind.
        #expect(Set(ProbedOperation.allCases.map { BenchRecorder.slot($0) }).count == ProbedOperation.allCases.count)
        #expect(Set(TraceCallName.allCases.map { BenchRecorder.kind(of: $0) }).isSubset(of: Set(BenchKind.builtIn)))
        // A kind of another build sorts after the built-in ones.
        #expect(BenchKind(named: "user.rule") > BenchKind.gpsAppend)
        #expect(BenchKind(named: "user.rule").slot == nil)
    }
}
