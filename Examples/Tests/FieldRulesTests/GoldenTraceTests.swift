// BEGIN golden-test
import FieldRules
import MapSketchTesting
import Testing

/// The team's traces, replayed with its rule installed and compared with their goldens as
/// `fieldcheck check Traces` compares them.
@Suite @MainActor struct GoldenTraceTests {
    @Test func surveyLine() {
        // Traces/survey-line.trace.jsonl beside Traces/survey-line.expected.json, from the
        // package's root. A mismatch fails here with the differences and the diff picture's path.
        assertReplay("Traces/survey-line.trace.jsonl", extensions: FieldRules.extensions)
    }
}
// END golden-test
