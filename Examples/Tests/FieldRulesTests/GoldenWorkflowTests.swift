import FieldRules
import Foundation
import MapSketchTesting
import Testing

/// What a team sees when a golden does not match, when one is missing and when CI runs: each on
/// a copy of `Traces/survey-line` in a scratch folder, so the package's own goldens stay as they are.
@Suite @MainActor struct GoldenWorkflowTests {
    /// The package's root (this file is Tests/FieldRulesTests/GoldenWorkflowTests.swift).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// A copy of the survey-line trace, with its golden when `golden`, in a new folder.
    func scratchTrace(golden: Bool) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fieldrules-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let traces = Self.root.appendingPathComponent("Traces")
        for file in ["survey-line.trace.jsonl"] + (golden ? ["survey-line.expected.json"] : []) {
            try FileManager.default.copyItem(at: traces.appendingPathComponent(file), to: folder.appendingPathComponent(file))
        }
        return folder.appendingPathComponent("survey-line.trace.jsonl")
    }

    // BEGIN failing-test
    @Test func aChangedGoldenFailsWithTheDiffAndNamesThePicture() throws {
        let trace = try scratchTrace(golden: true)
        let golden = trace.deletingLastPathComponent().appendingPathComponent("survey-line.expected.json")
        // Someone edits the golden: its last vertex moves from (141, 31) to (141, 40).
        let text = try String(contentsOf: golden, encoding: .utf8)
        try text.replacingOccurrences(of: "[141, 31]", with: "[141, 40]").write(to: golden, atomically: true, encoding: .utf8)
        withKnownIssue {
            assertReplay(trace, extensions: FieldRules.extensions, environment: [:])
        } matching: { issue in
            let message = issue.comments.map(\.rawValue).joined()
            return message.contains("survey-line.trace.jsonl does not match its golden survey-line.expected.json")
                && message.contains("- expected [141,40]") && message.contains("+ actual   [141,31]")
                && message.contains("diff: ") && message.contains("survey-line.diff.svg")
        }
    }
    // END failing-test

    // BEGIN record-missing
    @Test func aMissingGoldenIsRecordedWithRecordMissing() throws {
        let trace = try scratchTrace(golden: false)
        let golden = trace.deletingLastPathComponent().appendingPathComponent("survey-line.expected.json")
        // As `MAPSKETCH_RECORD=missing swift test` runs it: the golden is written, with a warning.
        withKnownIssue {
            assertReplay(trace, extensions: FieldRules.extensions, environment: ["MAPSKETCH_RECORD": "missing"])
        } matching: { issue in
            issue.severity == .warning && issue.comments.contains { $0.rawValue.contains("recorded ") }
        }
        #expect(FileManager.default.fileExists(atPath: golden.path))
        // The next run compares with it and passes.
        assertReplay(trace, extensions: FieldRules.extensions, environment: [:])
    }
    // END record-missing

    // BEGIN never-on-ci
    @Test func nothingIsRecordedUnderCI() throws {
        let trace = try scratchTrace(golden: false)
        let golden = trace.deletingLastPathComponent().appendingPathComponent("survey-line.expected.json")
        // `CI=true MAPSKETCH_RECORD=missing swift test`: CI wins, the test fails and says why.
        withKnownIssue {
            assertReplay(trace, extensions: FieldRules.extensions, environment: ["MAPSKETCH_RECORD": "missing", "CI": "true"])
        } matching: { issue in
            issue.severity == .error && issue.comments.contains { $0.rawValue.contains("not recorded: CI is set") }
        }
        #expect(!FileManager.default.fileExists(atPath: golden.path))
    }
    // END never-on-ci
}
