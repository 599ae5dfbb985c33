import Foundation
import MapSketchGeometry
import MapSketchReplay
import Testing

@Suite struct GoldenComparisonTests {
    func diffs(_ e: String, _ a: String, _ tol: GoldenTolerance = .standard) throws -> [GoldenDifference] {
        GoldenComparison.differences(expected: try JSONParser.parse(e), actual: try JSONParser.parse(a), tolerance: tol)
    }

    @Test func numbersWithinTheToleranceMatch() throws {
        #expect(try diffs(#"{"x":1,"y":[0.1,2]}"#, #"{"x":1.0000000000001,"y":[0.1,2]}"#).isEmpty)
        #expect(try diffs(#"{"x":1e6}"#, #"{"x":1000000.0005}"#).isEmpty)  // relative part
        let d = try diffs(#"{"x":1}"#, #"{"x":1.001}"#)
        #expect(d.count == 1)
        #expect(d.first?.path == "x")
        #expect(d.first?.reason.hasPrefix("numbers differ by 0.00099") == true)
    }

    @Test func structureMustMatchExactly() throws {
        #expect(try diffs(#"{"a":[1,2]}"#, #"{"a":[1,2,3]}"#).map(\.reason) == ["expected 2 elements, found 3"])
        #expect(try diffs(#"{"a":1,"b":2}"#, #"{"a":1}"#).map(\.reason) == ["missing member"])
        #expect(try diffs(#"{"a":1}"#, #"{"a":1,"c":true}"#).map(\.path) == ["c"])
        #expect(try diffs(#"{"a":1,"b":2}"#, #"{"b":2,"a":1}"#).map(\.reason) == ["members in another order"])
        #expect(try diffs(#"{"a":"x"}"#, #"{"a":"y"}"#).map(\.reason) == ["values differ"])
        #expect(try diffs(#"{"a":null}"#, #"{"a":0}"#).map(\.reason) == ["expected null, found a number"])
        #expect(try diffs(#"{"a":[{"b":[1,{"c":true}]}]}"#, #"{"a":[{"b":[1,{"c":false}]}]}"#).map(\.path) == ["a[0].b[1].c"])
    }

    @Test func theReportShowsExpectedAndActual() throws {
        let r = GoldenComparison.report(file: "t.expected.json", try diffs(#"{"n":3}"#, #"{"n":4}"#))
        #expect(r.contains("t.expected.json: 1 difference"))
        #expect(r.contains("at n: numbers differ by 1"))
        #expect(r.contains("- expected 3"))
        #expect(r.contains("+ actual   4"))
    }

    @Test func textDifferenceNamesTheLine() {
        #expect(GoldenText.firstDifference(expected: "a\nb\nc", actual: "a\nb\nc") == nil)
        #expect(GoldenText.firstDifference(expected: "a\nb\nc", actual: "a\nB\nc")?.hasPrefix("line 2 differs") == true)
    }
}

@Suite struct GoldenRunnerTests {
    func tempDir() throws -> URL {
        let u = FileManager.default.temporaryDirectory.appendingPathComponent("golden-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: u.appendingPathComponent("sub"), withIntermediateDirectories: true)
        return u
    }

    @Test func findsTracesSortedAndShardsThem() throws {
        let root = try tempDir()
        defer { try? FileManager.default.removeItem(at: root) }
        for n in ["b.trace.jsonl", "a.trace.jsonl", "sub/c.trace.jsonl", "note.txt"] {
            try AtomicFile.write("x", to: root.appendingPathComponent(n))
        }
        let cases = try GoldenCorpus.cases(under: root)
        #expect(cases.map(\.name) == ["a", "b", "sub/c"])
        #expect(cases[2].expected.lastPathComponent == "c.expected.json")
        #expect(GoldenCorpus.shard(cases, k: 1, n: 2).map(\.name) == ["a", "sub/c"])
        #expect(GoldenCorpus.shard(cases, k: 2, n: 2).map(\.name) == ["b"])
        #expect(throws: OutputError.self) { try GoldenCorpus.cases(under: root.appendingPathComponent("missing")) }
    }

    @Test func missingGoldenFailsAndIsNeverRecordedSilently() throws {
        let root = try tempDir()
        defer { try? FileManager.default.removeItem(at: root) }
        let c = GoldenCase(name: "t", trace: root.appendingPathComponent("t.trace.jsonl"))
        let status = GoldenRunner().check(c, rendering: GoldenRendering(json: "{\"a\":1}\n"))
        guard case .failed(let r) = status else { Issue.record("expected a failure"); return }
        #expect(r.contains("no golden file t.expected.json"))
        #expect(!FileManager.default.fileExists(atPath: c.expected.path))
    }

    @Test func updateRecordsThenCheckPassesThenMismatchWritesActualAndOverlay() throws {
        let root = try tempDir()
        defer { try? FileManager.default.removeItem(at: root) }
        let c = GoldenCase(name: "t", trace: root.appendingPathComponent("t.trace.jsonl"))
        let good = GoldenRendering(json: "{\"sketch\":{\"geometry\":{\"paths\":[[[0,0],[10,0]]]}}}\n")
        #expect(GoldenRunner(record: .all).check(c, rendering: good) == .recorded)
        #expect(GoldenRunner(record: .all).check(c, rendering: good) == .unchanged)
        #expect(try String(contentsOf: c.expected, encoding: .utf8) == good.json)
        #expect(GoldenRunner().check(c, rendering: good) == .passed)

        let bad = GoldenRendering(json: "{\"sketch\":{\"geometry\":{\"paths\":[[[0,0],[10,5]]]}}}\n")
        guard case .failed(let r) = GoldenRunner().check(c, rendering: bad) else { Issue.record("expected a failure"); return }
        #expect(r.contains("sketch.geometry.paths[0][1][1]"))
        #expect(try String(contentsOf: c.actual, encoding: .utf8) == bad.json)
        let overlay = try String(contentsOf: c.diffSVG, encoding: .utf8)
        #expect(overlay.contains("#008000") && overlay.contains("#d00000"))
        // The golden itself is untouched; a later pass removes the stale actual files.
        #expect(try String(contentsOf: c.expected, encoding: .utf8) == good.json)
        #expect(GoldenRunner().check(c, rendering: good) == .passed)
        #expect(!FileManager.default.fileExists(atPath: c.actual.path))
    }

    @Test func recordModesAreTheNamesOnDiskAndOnlyNeverAndAllRunToday() throws {
        #expect(RecordMode.allCases.map(\.rawValue) == ["never", "missing", "failed", "all"])
        #expect(RecordMode.requested(by: ["MAPSKETCH_RECORD": "1"]) == .all)
        #expect(RecordMode.requested(by: ["MAPSKETCH_RECORD": "0"]) == .never)
        #expect(RecordMode.requested(by: [:]) == .never)
        let root = try tempDir()
        defer { try? FileManager.default.removeItem(at: root) }
        let c = GoldenCase(name: "t", trace: root.appendingPathComponent("t.trace.jsonl"))
        for mode in [RecordMode.missing, .failed] {
            guard case .failed(let r) = GoldenRunner(record: mode).check(c, rendering: GoldenRendering(json: "{}\n")) else {
                Issue.record("expected \(mode) to fail")
                continue
            }
            #expect(r.contains("record mode \"\(mode.rawValue)\" is not available"))
            #expect(!FileManager.default.fileExists(atPath: c.expected.path))
        }
    }

    @Test func junitReportsFailuresWithTheirDiff() {
        let ok = GoldenResult(goldenCase: GoldenCase(name: "a/ok", trace: URL(fileURLWithPath: "/x/a/ok.trace.jsonl")), status: .passed, seconds: 0.0123)
        let bad = GoldenResult(goldenCase: GoldenCase(name: "a/bad", trace: URL(fileURLWithPath: "/x/a/bad.trace.jsonl")), status: .failed("bad: 1 difference\n  at x: <oops>\n"), seconds: 1)
        let xml = JUnitReport.xml(suite: "corpus", results: [ok, bad])
        #expect(xml.contains(#"<testsuite name="corpus" tests="2" failures="1""#))
        #expect(xml.contains(#"<testcase classname="corpus.a" name="ok" time="0.012"/>"#))
        #expect(xml.contains(#"<failure message="bad: 1 difference" type="GoldenMismatch">bad: 1 difference"#))
        #expect(xml.contains("&lt;oops&gt;"))
    }
}
