import Foundation
import MapSketch
import MapSketchGeometry
import MapSketchReplay
import MapSketchTestSupport
import Testing
@testable import MapSketchGolden

@MainActor
@Suite struct GoldenRunnerTests {
    @Test func findsTracesSortedAndShardsThem() throws {
        let dir = try TraceFolder()
        defer { dir.remove() }
        for n in ["b", "a", "sub/c"] { try dir.trace(n, "x") }
        try Data("x".utf8).write(to: dir.url.appendingPathComponent("note.txt"))
        let cases = try GoldenCorpus.cases(under: dir.url)
        #expect(cases.map(\.name) == ["a", "b", "sub/c"])
        #expect(cases[2].expected.lastPathComponent == "c.expected.json")
        // Every case is in exactly one of the shards.
        let shards = (1...3).compactMap { TraceSelection.Shard(k: $0, n: 3) }
        for c in cases { #expect(shards.filter { $0.contains(c.name) }.count == 1, "\(c.name)") }
        #expect(throws: OutputError.self) { try GoldenCorpus.cases(under: dir.url.appendingPathComponent("missing")) }
    }

    @Test func aMissingGoldenFailsAndLeavesThePendingOutputToAccept() throws {
        let dir = try TraceFolder()
        defer { dir.remove() }
        let c = try dir.lineTrace("t", [(0, 0), (10, 0)])
        let result = GoldenRunner().run(c)
        guard case .failed(let f) = result.status else {
            Issue.record("expected a failure, got \(result.status)"); return
        }
        #expect(f.report.contains("no golden file t.expected.json"))
        #expect(f.report.contains("mapsketch accept \(c.displayPath)"))
        #expect(f.report.contains("mapsketch check \(c.displayPath) --record missing"))
        #expect(!dir.exists(c.expected))
        #expect(dir.exists(c.actual), "the output is left pending")
        #expect(f.pictures?.actual.contains("<svg") == true)
    }

    /// Three cases per mode: the golden missing, matching, and differing.
    @Test(arguments: RecordMode.allCases)
    func eachRecordModeWritesWhatItsNameSays(_ mode: RecordMode) throws {
        let dir = try TraceFolder()
        defer { dir.remove() }
        let missing = try dir.lineTrace("missing", [(0, 0), (10, 0)])
        let matching = try dir.lineTrace("matching", [(0, 0), (10, 0)])
        let differing = try dir.lineTrace("differing", [(0, 0), (10, 0)])
        for c in [matching, differing] { #expect(GoldenRunner(record: .all).run(c).status == .recorded(changes: nil)) }
        // The differing golden expects another vertex.
        let old = try String(contentsOf: differing.expected, encoding: .utf8)
        try old.replacingOccurrences(of: "[10, 0]", with: "[10, 5]").write(
            to: differing.expected, atomically: true, encoding: .utf8)
        let changed = try String(contentsOf: differing.expected, encoding: .utf8)
        #expect(changed != old)

        let runner = GoldenRunner(record: mode)
        let a = runner.run(missing).status
        let b = runner.run(matching).status
        let c = runner.run(differing).status
        switch mode {
        case .never:
            #expect(a.isFailure && b == .passed && c.isFailure)
            #expect(!dir.exists(missing.expected))
            #expect(try String(contentsOf: differing.expected, encoding: .utf8) == changed)
        case .missing:
            #expect(a == .recorded(changes: nil) && b == .passed && c.isFailure)
            #expect(try String(contentsOf: differing.expected, encoding: .utf8) == changed)
        case .drifted:
            #expect(a.isFailure && b == .passed && c.isFailure, "only drifted goldens are rewritten")
            #expect(!dir.exists(missing.expected))
            #expect(try String(contentsOf: differing.expected, encoding: .utf8) == changed)
        case .failed:
            #expect(a == .recorded(changes: nil) && b == .passed)
            guard case .recorded(let changes?) = c else { Issue.record("expected a re-recording, got \(c)"); return }
            #expect(changes.contains("at sketch.geometry.paths[0][1]: vertex moved by 5"))
            #expect(try String(contentsOf: differing.expected, encoding: .utf8) == old)
        case .all:
            #expect(a == .recorded(changes: nil) && b == .unchanged)
            #expect(c.isRecorded)
            #expect(try String(contentsOf: differing.expected, encoding: .utf8) == old)
        }
        // A recorded case leaves no pending output behind; a failed one does.
        #expect(dir.exists(differing.actual) == c.isFailure)
        #expect(dir.exists(missing.actual) == a.isFailure)
    }

    @Test func recordAllRewritesAGoldenWhoseBytesDifferWithinTheTolerance() throws {
        let dir = try TraceFolder()
        defer { dir.remove() }
        let c = try dir.lineTrace("t", [(0, 0), (10, 0)])
        _ = GoldenRunner(record: .all).run(c)
        let text = try String(contentsOf: c.expected, encoding: .utf8)
        try text.replacingOccurrences(of: "\"vertices\": 2", with: "\"vertices\": 2.0").write(
            to: c.expected, atomically: true, encoding: .utf8)
        let drift = GoldenDrift(numbers: 0, largest: 0)
        #expect(GoldenRunner().run(c).status == .drifted(drift), "2.0 matches 2 within the tolerance, not byte for byte")
        #expect(drift.description == "the same values written differently")
        #expect(GoldenRunner(record: .failed).run(c).status == .drifted(drift))
        #expect(GoldenRunner(record: .all).run(c).status == .recorded(changes: nil))
        #expect(try String(contentsOf: c.expected, encoding: .utf8) == text)
    }

    @Test func ciTurnsRecordingOffAndMapsketchRecordNamesAMode() throws {
        #expect(RecordMode.allCases.map(\.rawValue) == ["never", "missing", "failed", "drifted", "all"])
        let ci = try RecordMode.resolve(requested: .all, environment: ["CI": "true"])
        #expect(ci.mode == .never)
        #expect(ci.note?.contains("CI is set") == true)
        #expect(try RecordMode.resolve(requested: .missing, environment: ["CI": "1"]).mode == .never)
        #expect(try RecordMode.resolve(environment: ["CI": "true", "MAPSKETCH_RECORD": "all"]).mode == .never)
        for off in ["false", "0", ""] {
            #expect(try RecordMode.resolve(requested: .all, environment: ["CI": off]).mode == .all)
        }
        #expect(try RecordMode.resolve(environment: ["MAPSKETCH_RECORD": "1"]).mode == .all)
        #expect(try RecordMode.resolve(environment: ["MAPSKETCH_RECORD": "failed"]).mode == .failed)
        #expect(try RecordMode.resolve(requested: .never, environment: ["MAPSKETCH_RECORD": "all"]).mode == .never)
        #expect(try RecordMode.resolve(environment: [:]).mode == .never)
        #expect(throws: OutputError.self) { try RecordMode.resolve(environment: ["MAPSKETCH_RECORD": "yes"]) }
        #expect(RecordMode.requested(by: ["MAPSKETCH_RECORD": "yes"]) == .never)
        #expect(RecordMode.requested(by: ["MAPSKETCH_RECORD": "missing", "CI": "true"]) == .never)
    }

    // MARK: Never record an error

    @Test(arguments: RecordMode.allCases)
    func aTraceThatCannotBeReadOrSetUpIsAnInputErrorNeverRecorded(_ mode: RecordMode) throws {
        let dir = try TraceFolder()
        defer { dir.remove() }
        let typo = try dir.trace(
            "typo",
            #"{"t":0,"type":"header","version":1,"sketch":{"geometryType":"polyline"}}"# + "\n"
                + #"{"t":0.1,"type":"touch","phase":"begun","x":1,"y":2}"# + "\n")
        let setup = try dir.trace(
            "setup", #"{"t":0,"type":"header","version":1,"layers":[{"name":"a"},{"name":"a"}]}"# + "\n")
        let empty = try dir.trace("empty", "\n")
        let gone = GoldenCase(name: "gone", trace: dir.url.appendingPathComponent("gone.trace.jsonl"))
        for c in [typo, setup, empty, gone] {
            let r = GoldenRunner(record: mode).run(c)
            guard case .inputError(let e) = r.status else {
                Issue.record("\(c.name): expected an input error, got \(r.status)"); continue
            }
            #expect(e.file == c.displayPath, "located at the path the user gave")
            #expect(!dir.exists(c.expected), "\(c.name): an error is never recorded")
            #expect(!dir.exists(c.actual))
        }
        guard case .inputError(let e) = GoldenRunner(record: mode).run(typo).status else { return }
        #expect(e.line == 2 && e.column == 33)
        #expect(e.message.contains("phase: expected one of"))
    }

    @Test func aDeclaredErrorIsTheGoldenAndIsRecordedAndChecked() throws {
        let dir = try TraceFolder()
        defer { dir.remove() }
        let c = try dir.trace(
            "bad",
            #"{"t":0,"type":"header","version":1,"sketch":{"geometryType":"polyline"},"expect":{"error":"2:33: phase"}}"#
                + "\n"
                + #"{"t":0.1,"type":"touch","phase":"begun","x":1,"y":2}"# + "\n")
        let r = Replayer.rendering(for: c)
        #expect(r.problem == nil)
        let doc = try JSONParser.parse(r.json)
        #expect(doc["error"]?.stringValue?.hasPrefix("bad.trace.jsonl:2:33: phase: expected one of") == true)
        #expect(GoldenRunner(record: .missing).run(c).status == .recorded(changes: nil))
        #expect(GoldenRunner().run(c).status == .passed)
    }

    @Test(arguments: RecordMode.allCases)
    func anUnmetExpectationFailsAndIsNeverRecorded(_ mode: RecordMode) throws {
        let dir = try TraceFolder()
        defer { dir.remove() }
        // Declares an error it does not have: it replays.
        let clean = try dir.lineTrace("clean", [(0, 0), (1, 1)], expect: TraceExpectation(error: "phase"))
        // Declares another error than the one it fails with.
        let other = try dir.trace(
            "other",
            #"{"t":0,"type":"header","version":1,"expect":{"error":"resolution"}}"# + "\n"
                + #"{"t":0.1,"type":"swipe"}"# + "\n")
        // Declares a header error, and its header is fine but cannot be set up differently: a duplicate layer is declared, none happens.
        let setup = try dir.trace(
            "setup",
            #"{"t":0,"type":"header","version":1,"layers":[{"name":"a"}],"expect":{"error":"already in the map"}}"#
                + "\n")
        for (c, text) in [
            (clean, "but it reads and sets up"), (other, "expected an error containing \"resolution\""),
            (setup, "but it reads and sets up"),
        ] {
            guard case .failed(let f) = GoldenRunner(record: mode).run(c).status else {
                Issue.record("\(c.name) should fail"); continue
            }
            #expect(f.report.contains(text), "\(f.report)")
            #expect(!dir.exists(c.expected))
        }
    }

    @Test func theTraceHeaderSetsTheTolerance() throws {
        let dir = try TraceFolder()
        defer { dir.remove() }
        let loose = try dir.lineTrace(
            "loose", [(0, 0), (10, 0)], expect: TraceExpectation(tolerance: GoldenTolerance(absolute: 0.5, relative: 0))
        )
        let strict = try dir.lineTrace("strict", [(0, 0), (10, 0)])
        for c in [loose, strict] {
            _ = GoldenRunner(record: .all).run(c)
            let text = try String(contentsOf: c.expected, encoding: .utf8)
            // Move the second vertex's y by 0.3 in the golden (it is written `0` there).
            let moved = text.replacingOccurrences(of: "[10, 0]", with: "[10, 0.3]")
            #expect(moved != text)
            try moved.write(to: c.expected, atomically: true, encoding: .utf8)
        }
        #expect(
            GoldenRunner().run(loose).status == .drifted(GoldenDrift(numbers: 1, largest: 0.3)),
            "passes within its tolerance, not byte for byte")
        guard case .failed(let f) = GoldenRunner().run(strict).status else {
            Issue.record("the standard tolerance should fail"); return
        }
        #expect(f.report.contains("beyond the tolerance ±(1e-09 + 1e-09·|value|)"))
        #expect(f.differingNumbers == 1)
    }

    // MARK: Refused calls

    @Test func refusedCallsAreWarningsUnlessStrictAndDeclaredOnesAreNeither() throws {
        let dir = try TraceFolder()
        defer { dir.remove() }
        let undeclared = try dir.lineTrace("undeclared", [(0, 0), (10, 0)], calls: [.removeVertex(part: 0, index: 9)])
        let declared = try dir.lineTrace(
            "declared", [(0, 0), (10, 0)], expect: TraceExpectation(refusedCalls: [3]),
            calls: [.removeVertex(part: 0, index: 9)])
        let applied = try dir.lineTrace(
            "applied", [(0, 0), (10, 0)], expect: TraceExpectation(refusedCalls: [3]),
            calls: [.removeVertex(part: 0, index: 1)])
        for c in [undeclared, declared, applied] { _ = GoldenRunner(record: .all).run(c) }

        let loose = GoldenRunner().run(undeclared)
        #expect(loose.status == .passed)
        #expect(
            loose.warnings == [
                "\(undeclared.displayPath):3: removeVertex refused: vertex index 9 out of range in part 0 (2 vertices)"
            ])
        guard case .failed(let f) = GoldenRunner(strict: true).run(undeclared).status else {
            Issue.record("strict should fail"); return
        }
        #expect(f.report.contains("refused calls the trace does not declare (--strict)"))
        #expect(f.report.contains(":3: removeVertex refused"))

        #expect(GoldenRunner().run(declared).warnings.isEmpty)
        #expect(GoldenRunner(strict: true).run(declared).status == .passed)

        #expect(
            GoldenRunner().run(applied).warnings.first?.hasSuffix(
                ":3: expected the model to refuse this call (expect.refusedCalls), but it was applied") == true)
        #expect(GoldenRunner(strict: true).run(applied).status.isFailure)
        // Strict never records a case it fails.
        try FileManager.default.removeItem(at: undeclared.expected)
        #expect(GoldenRunner(record: .all, strict: true).run(undeclared).status.isFailure)
        #expect(!dir.exists(undeclared.expected))
    }

    @Test func theRefusalsOfACorpusTraceAreItsDeclaredOnes() throws {
        let c = GoldenCase(
            name: "bad-indices-are-logged",
            trace: Fixtures.url("Traces/programmatic/bad-indices-are-logged.trace.jsonl"))
        let r = Replayer.rendering(for: c)
        #expect(r.refusals.declared == [2, 3, 4, 5])
        #expect(r.refusals.asDeclared)
    }

    // MARK: Obsolete goldens, accepting, reviewing

    @Test func obsoleteGoldensAreFoundByNameAndFilter() throws {
        let dir = try TraceFolder()
        defer { dir.remove() }
        let kept = try dir.lineTrace("sub/kept", [(0, 0), (1, 0)])
        _ = GoldenRunner(record: .all).run(kept)
        for f in ["sub/old.expected.json", "sub/old.expected.svg", "sub/old.actual.json", "gone.diff.svg"] {
            try Data("{}".utf8).write(to: dir.url.appendingPathComponent(f))
        }
        let all = try TraceSelection(paths: [dir.url.path]).obsoleteGoldens()
        #expect(all.map(\.name) == ["gone", "sub/old"])
        #expect(all[1].files.map(\.lastPathComponent) == ["old.actual.json", "old.expected.json", "old.expected.svg"])
        #expect(
            try TraceSelection(paths: [dir.url.path], filters: ["sub/*"]).obsoleteGoldens().map(\.name) == ["sub/old"])
        #expect(
            try TraceSelection(paths: [kept.trace.path]).obsoleteGoldens().isEmpty,
            "a trace file given alone has no obsolete goldens")
    }

    @Test func acceptMakesThePendingOutputTheGoldenAndRejectRemovesIt() throws {
        let dir = try TraceFolder()
        defer { dir.remove() }
        let c = try dir.lineTrace("t", [(0, 0), (10, 0)])
        #expect(throws: OutputError.self) { try GoldenAcceptance.accept(c) }
        #expect(GoldenRunner().run(c).status.isFailure)
        let pending = try String(contentsOf: c.actual, encoding: .utf8)
        #expect(try GoldenAcceptance.accept(c) == [c.expected])
        #expect(try String(contentsOf: c.expected, encoding: .utf8) == pending)
        #expect(!dir.exists(c.actual) && !dir.exists(c.diffSVG))
        #expect(GoldenRunner().run(c).status == .passed)

        // A pending file that is not an output document is not accepted; the golden stays.
        try Data("oops".utf8).write(to: c.actual)
        #expect(throws: OutputError.self) { try GoldenAcceptance.accept(c) }
        #expect(try String(contentsOf: c.expected, encoding: .utf8) == pending)
        GoldenAcceptance.reject(c)
        #expect(!dir.exists(c.actual))
    }

    @Test func aNameOnTheCommandLineFindsItsTrace() throws {
        let dir = try TraceFolder()
        defer { dir.remove() }
        let c = try dir.lineTrace("sub/t", [(0, 0), (1, 0)])
        let base = dir.url.appendingPathComponent("sub/t").path
        for name in [c.trace.path, base + ".actual.json", base + ".expected.json", base + ".diff.svg", base] {
            #expect(try GoldenCase.named(name).trace.path == c.trace.path, "\(name)")
        }
        #expect(try GoldenCase.named("sub/t", root: dir.url.path).trace.path == c.trace.path)
        #expect(throws: OutputError.self) { try GoldenCase.named("sub/none", root: dir.url.path) }
    }

    @Test func theReviewAcceptsRejectsSkipsAndQuitsOnTheAnswersGiven() throws {
        let dir = try TraceFolder()
        defer { dir.remove() }
        var cases: [GoldenCase] = []
        for n in ["a", "b", "c", "d"] {
            let c = try dir.lineTrace(n, [(0, 0), (10, 0)])
            _ = GoldenRunner().run(c)  // no golden: pending output
            cases.append(c)
        }
        // "b" has a golden and a pending output that differs from it.
        try FileManager.default.copyItem(at: cases[1].actual, to: cases[1].expected)
        try String(contentsOf: cases[1].actual, encoding: .utf8).replacingOccurrences(
            of: "\"vertices\": 2", with: "\"vertices\": 3"
        )
        .write(to: cases[1].actual, atomically: true, encoding: .utf8)
        var answers = ["what?", "a", "r", "s"][...]
        var shown = ""
        var review = GoldenReview(cases: cases, read: { answers.popFirst() }, write: { shown += $0 })
        let summary = review.run()
        #expect(summary.accepted == ["a"])
        #expect(summary.rejected == ["b"])
        #expect(summary.skipped == ["c", "d"], "d is left pending when the input ends")
        #expect(shown.contains("please answer a, r, s or q"))
        #expect(shown.contains("new golden (no a.expected.json yet)"))
        #expect(shown.contains("at sketch.vertices: numbers differ by 1"))
        #expect(dir.exists(cases[0].expected) && !dir.exists(cases[0].actual))
        #expect(!dir.exists(cases[1].actual))
        #expect(dir.exists(cases[2].actual) && dir.exists(cases[3].actual))

        var quit = GoldenReview(cases: cases, read: { "q" }, write: { _ in })
        #expect(quit.run().skipped == ["c", "d"])
        #expect(GoldenReview.Choice(answer: " Accept ") == .accept)
        #expect(GoldenReview.Choice(answer: "") == .skip)
    }

    @Test func junitReportsFailuresInputErrorsAndWarnings() {
        func result(_ name: String, _ status: GoldenStatus, warnings: [String] = []) -> GoldenResult {
            GoldenResult(
                goldenCase: GoldenCase(name: name, trace: URL(fileURLWithPath: "/x/\(name).trace.jsonl")),
                status: status, seconds: 0.0123, warnings: warnings)
        }
        let xml = JUnitReport.xml(
            suite: "corpus",
            results: [
                result("a/ok", .passed, warnings: ["x:3: removeVertex refused: <why>"]),
                result("a/bad", .failed(GoldenFailure(report: "bad: 1 difference\n  at x: <oops>\n"))),
                result(
                    "a/broken",
                    .inputError(InputError(file: "a/broken.trace.jsonl", line: 2, column: 3, message: "expected <x>"))),
            ])
        #expect(xml.contains(#"<testsuite name="corpus" tests="3" failures="1" errors="1""#))
        #expect(xml.contains(#"<failure message="bad: 1 difference" type="GoldenMismatch">bad: 1 difference"#))
        #expect(xml.contains(#"<error message="a/broken.trace.jsonl:2:3: expected &lt;x&gt;" type="InputError">"#))
        #expect(xml.contains("<system-err>x:3: removeVertex refused: &lt;why&gt;</system-err>"))
        #expect(xml.contains("&lt;oops&gt;"))
    }
}

extension GoldenStatus {
    var isFailure: Bool { if case .failed = self { true } else { false } }
    var isRecorded: Bool { if case .recorded = self { true } else { false } }
}
