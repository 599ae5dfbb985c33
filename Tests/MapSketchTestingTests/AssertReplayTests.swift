import Foundation
import MapSketch
import MapSketchGeometry
import MapSketchReplay
import MapSketchTestSupport
import MapSketchTesting
import Testing

/// `assertReplay` as a team's test target uses it (public API only): a failure shows the diff and
/// names the diff picture, `MAPSKETCH_RECORD=missing` records a missing golden, and `CI` stops
/// every recording and says so.
@Suite @MainActor struct AssertReplayTests {
    /// A copy of a corpus trace (and, with `golden`, its golden) in a new folder.
    func copyOfTrace(golden: Bool = true) throws -> URL {
        let dir = try MapsketchProcess.tempDir(prefix: "assert-replay")
        let trace = dir.appendingPathComponent("insert-vertex.trace.jsonl")
        try FileManager.default.copyItem(at: Fixtures.url("Traces/programmatic/insert-vertex.trace.jsonl"), to: trace)
        if golden {
            try FileManager.default.copyItem(
                at: Fixtures.url("Traces/programmatic/insert-vertex.expected.json"),
                to: dir.appendingPathComponent("insert-vertex.expected.json"))
        }
        return trace
    }

    /// The golden beside `trace`.
    func golden(of trace: URL) -> URL {
        trace.deletingLastPathComponent().appendingPathComponent("insert-vertex.expected.json")
    }

    @Test func aMatchingTracePasses() throws {
        let trace = try copyOfTrace()
        #expect(GoldenAssertion.replay(trace, environment: [:]) == .passed)
        assertReplay(trace, environment: [:])
    }

    @Test func aMismatchFailsWithTheDiffAndTheDiffPicture() throws {
        let trace = try copyOfTrace()
        let g = golden(of: trace)
        let text = try String(contentsOf: g, encoding: .utf8)
        try text.replacingOccurrences(of: "[50, 50]", with: "[50, 51]").write(to: g, atomically: true, encoding: .utf8)
        let outcome = GoldenAssertion.replay(trace, environment: [:])
        let message = try #require(outcome.message)
        guard case .failed = outcome else { Issue.record("expected a failure, got \(outcome)"); return }
        #expect(message.contains("does not match its golden insert-vertex.expected.json"))
        #expect(message.contains("at sketch.geometry.paths[0][1]: vertex moved by 1, beyond the tolerance"))
        #expect(message.contains("- expected [50,51]"))
        #expect(message.contains("+ actual   [50,50]"))
        #expect(message.contains("the log around its first difference:"))
        let diff = trace.deletingLastPathComponent().appendingPathComponent("insert-vertex.diff.svg")
        #expect(message.contains("diff: \(diff.standardizedFileURL.path)"))
        #expect(FileManager.default.fileExists(atPath: diff.path))
        #expect(message.contains("MAPSKETCH_RECORD=failed"))
        // Through the assertion: one issue at the call, with the same message.
        withKnownIssue {
            assertReplay(trace, environment: [:])
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("- expected [50,51]") && $0.rawValue.contains("insert-vertex.diff.svg") }
                && issue.sourceLocation?.fileName == "AssertReplayTests.swift"
        }
        // The golden was left alone.
        #expect(try String(contentsOf: g, encoding: .utf8).contains("[50, 51]"))
    }

    @Test func aMismatchShowsTheDiffMapsketchCheckPrints() throws {
        let trace = try copyOfTrace()
        let g = golden(of: trace)
        let text = try String(contentsOf: g, encoding: .utf8)
        try text.replacingOccurrences(of: "[50, 50]", with: "[50, 51]").replacingOccurrences(of: "\"undoDepth\": 4", with: "\"undoDepth\": 5")
            .write(to: g, atomically: true, encoding: .utf8)
        let cli = try MapsketchProcess.run(["check", trace.lastPathComponent], in: trace.deletingLastPathComponent())
        #expect(cli.code == 1)
        // The differences as `mapsketch check` prints them: each `at …` line and its values.
        let differences = cli.out.split(separator: "\n").filter {
            $0.hasPrefix("  at ") || $0.hasPrefix("    - expected") || $0.hasPrefix("    + actual")
        }
        #expect(differences.count >= 5)
        let message = try #require(GoldenAssertion.replay(trace, environment: [:]).message)
        var rest = Substring(message)
        for line in differences {
            let found = rest.range(of: line + "\n")
            #expect(found != nil, "the assertion's message lacks, or reorders, `\(line)`")
            if let found { rest = rest[found.upperBound...] }
        }
        // The same pending files: the output and the picture, where the CLI leaves them.
        let dir = trace.deletingLastPathComponent()
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("insert-vertex.actual.json").path))
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("insert-vertex.diff.svg").path))
    }

    @Test func recordMissingRecordsTheGolden() throws {
        let trace = try copyOfTrace(golden: false)
        let outcome = GoldenAssertion.replay(trace, environment: ["MAPSKETCH_RECORD": "missing"])
        guard case .recorded(let message) = outcome else { Issue.record("expected a recording, got \(outcome)"); return }
        #expect(message.contains("recorded"))
        let recorded = try String(contentsOf: golden(of: trace), encoding: .utf8)
        #expect(recorded == (try Fixtures.string("Traces/programmatic/insert-vertex.expected.json")))
        // Then it passes with no record mode.
        assertReplay(trace, environment: [:])
    }

    @Test func aMissingGoldenFailsWithoutARecordMode() throws {
        let trace = try copyOfTrace(golden: false)
        let outcome = GoldenAssertion.replay(trace, environment: [:])
        let message = try #require(outcome.message)
        #expect(message.contains("no golden file insert-vertex.expected.json"))
        #expect(!FileManager.default.fileExists(atPath: golden(of: trace).path))
        #expect(FileManager.default.fileExists(atPath: trace.deletingLastPathComponent().appendingPathComponent("insert-vertex.actual.json").path))
    }

    @Test(arguments: ["true", "1", "yes"]) func ciNeverRecordsAndSaysSo(_ ci: String) throws {
        let trace = try copyOfTrace(golden: false)
        let outcome = GoldenAssertion.replay(trace, environment: ["MAPSKETCH_RECORD": "missing", "CI": ci])
        guard case .failed(let message) = outcome else { Issue.record("expected a failure, got \(outcome)"); return }
        #expect(message.contains("not recorded: CI is set: recording (missing) is off"))
        #expect(!FileManager.default.fileExists(atPath: golden(of: trace).path))
    }

    @Test func anUnknownRecordModeNamesTheVariableAndTheModes() throws {
        let trace = try copyOfTrace()
        let outcome = GoldenAssertion.replay(trace, environment: ["MAPSKETCH_RECORD": "sometimes"])
        guard case .failed(let message) = outcome else { Issue.record("expected a failure, got \(outcome)"); return }
        #expect(message.hasPrefix("MAPSKETCH_RECORD: expected never, missing, failed, drifted, all or 1, found \"sometimes\""))
    }

    @Test func recordFailedRewritesADifferingGolden() throws {
        let trace = try copyOfTrace()
        let g = golden(of: trace)
        let original = try String(contentsOf: g, encoding: .utf8)
        try original.replacingOccurrences(of: "[50, 50]", with: "[50, 51]").write(to: g, atomically: true, encoding: .utf8)
        let outcome = GoldenAssertion.replay(trace, record: .failed, environment: [:])
        guard case .recorded = outcome else { Issue.record("expected a recording, got \(outcome)"); return }
        #expect(try String(contentsOf: g, encoding: .utf8) == original)
    }

    @Test func anInputErrorFailsNamingTheLine() throws {
        let dir = try MapsketchProcess.tempDir(prefix: "assert-replay")
        let trace = dir.appendingPathComponent("broken.trace.jsonl")
        try "{\"t\":0,\"type\":\"header\"}\n".write(to: trace, atomically: true, encoding: .utf8)
        let outcome = GoldenAssertion.replay(trace, record: .all, environment: [:])
        let message = try #require(outcome.message)
        #expect(message.contains("input error"))
        #expect(message.contains("broken.trace.jsonl:1:"))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("broken.expected.json").path))
    }

    @Test func theExtensionsChangeWhatIsCompared() throws {
        let trace = try copyOfTrace()
        var extensions = ReplayExtensions()
        extensions.validationRule("atMostTwoVertices") { p in p.after.vertexCount > 2 ? "at most 2 vertices" : nil }
        let outcome = GoldenAssertion.replay(trace, extensions: extensions, environment: [:])
        let message = try #require(outcome.message)
        #expect(message.contains("atMostTwoVertices: at most 2 vertices"))
    }

    @Test func aRelativeTracePathIsFromThePackageRoot() {
        let url = GoldenAssertion.traceURL("Traces/demo/demo.trace.jsonl", testFile: #filePath)
        #expect(url.standardizedFileURL.path == Fixtures.url("Traces/demo/demo.trace.jsonl").standardizedFileURL.path)
        #expect(GoldenAssertion.traceURL("/tmp/x.trace.jsonl", testFile: #filePath).path == "/tmp/x.trace.jsonl")
        assertReplay("Traces/programmatic/insert-vertex.trace.jsonl", environment: [:])
    }
}
