// BEGIN bench-report
import FieldRules
import MapSketchBench
import MapSketchGolden
import MapSketchReplay
import Testing

/// The team's rule in the measured loop: `BenchRunner` replays the trace with the rule installed
/// and reports it as its own kind, `user.shortSegment`, beside the built-in kinds.
@Suite @MainActor struct BenchTests {
    @Test func theRuleIsMeasuredAsItsOwnKind() throws {
        let cases = try TraceSelection(paths: [GoldenWorkflowTests.root.appendingPathComponent("Traces").path]).cases()
        let runner = BenchRunner(options: BenchOptions(warmup: 1, runs: 3), extensions: FieldRules.extensions)
        let report = runner.run(cases)
        let trace = try #require(report.trace("survey-line"))
        let rule = try #require(trace.kinds.first { $0.kind.name == "user.shortSegment" })
        // One call per edit the sketch validates: the part added, four inserts and one move.
        #expect(rule.count == 6)
        #expect(rule.p50 > 0)
        print(BenchFormat.table(report))
    }
}
// END bench-report
