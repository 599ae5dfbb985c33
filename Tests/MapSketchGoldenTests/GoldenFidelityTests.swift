import Foundation
import MapSketch
import MapSketchGeometry
import MapSketchReplay
import MapSketchTestSupport
import Testing
@testable import MapSketchGolden

/// What a golden check says beyond pass and fail: drift within the tolerance, stale pending
/// outputs, vertices aligned in the text diff, SVG goldens asked for by an empty file.
@MainActor
@Suite struct GoldenFidelityTests {
    // MARK: Drift

    @Test func aGoldenMatchedWithinTheToleranceButNotByteForByteHasDrifted() throws {
        let dir = try TraceFolder()
        defer { dir.remove() }
        let c = try dir.lineTrace("t", [(0, 0), (10, 0), (20, 5)])
        _ = GoldenRunner(record: .all).run(c)
        #expect(GoldenRunner().run(c).status == .passed, "byte for byte")
        let text = try String(contentsOf: c.expected, encoding: .utf8)
        // Two last-bit changes, far inside the standard tolerance.
        let drifted = text.replacingOccurrences(of: "[10, 0]", with: "[10.000000000000002, 0]")
            .replacingOccurrences(of: "[20, 5]", with: "[20, 5.000000000000001]")
        #expect(drifted != text)
        try drifted.write(to: c.expected, atomically: true, encoding: .utf8)
        let result = GoldenRunner().run(c)
        guard case .drifted(let drift) = result.status else {
            Issue.record("expected a drift, got \(result.status)"); return
        }
        #expect(drift.numbers == 2)
        #expect(drift.largest == 10.000000000000002 - 10)
        #expect(result.drift == drift && !result.failed)
        #expect(drift.description == "2 numbers differ within the tolerance, the largest by 1.8e-15")
        #expect(!dir.exists(c.actual), "a drift leaves no pending output")
    }

    @Test func recordDriftedRewritesOnlyTheDriftedGoldens() throws {
        let dir = try TraceFolder()
        defer { dir.remove() }
        let drifted = try dir.lineTrace("drifted", [(0, 0), (10, 0)])
        let differing = try dir.lineTrace("differing", [(0, 0), (10, 0)])
        let exact = try dir.lineTrace("exact", [(0, 0), (10, 0)])
        let missing = try dir.lineTrace("missing", [(0, 0), (10, 0)])
        for c in [drifted, differing, exact] { _ = GoldenRunner(record: .all).run(c) }
        let recorded = try String(contentsOf: drifted.expected, encoding: .utf8)
        try recorded.replacingOccurrences(of: "[10, 0]", with: "[10.000000000000002, 0]").write(
            to: drifted.expected, atomically: true, encoding: .utf8)
        let wrong = recorded.replacingOccurrences(of: "[10, 0]", with: "[10, 3]")
        try wrong.write(to: differing.expected, atomically: true, encoding: .utf8)
        let exactBefore = try FileManager.default.attributesOfItem(atPath: exact.expected.path)[.modificationDate] as? Date

        let runner = GoldenRunner(record: .drifted)
        #expect(runner.run(drifted).status == .recorded(changes: nil))
        #expect(try String(contentsOf: drifted.expected, encoding: .utf8) == recorded, "rewritten with today's bytes")
        #expect(runner.run(differing).status.isFailure, "a real difference is not drift: it fails")
        #expect(try String(contentsOf: differing.expected, encoding: .utf8) == wrong)
        #expect(runner.run(exact).status == .passed)
        let exactAfter = try FileManager.default.attributesOfItem(atPath: exact.expected.path)[.modificationDate] as? Date
        #expect(exactBefore == exactAfter, "an exact golden is not touched")
        #expect(runner.run(missing).status.isFailure)
        #expect(!dir.exists(missing.expected), "drifted records no missing golden")
        #expect(RecordMode.drifted.recordsDrift && !RecordMode.drifted.recordsMissing && !RecordMode.drifted.recordsFailures)
        #expect(try RecordMode.resolve(requested: .drifted, environment: ["CI": "true"]).mode == .never)
    }

    // MARK: Stale pending outputs

    @Test func aPendingOutputRecordsTheDigestOfItsTraceAndTheProgram() throws {
        let dir = try TraceFolder()
        defer { dir.remove() }
        let c = try dir.lineTrace("t", [(0, 0), (10, 0)])
        #expect(GoldenRunner(producer: "mapsketch 9.9").run(c).status.isFailure)
        let origin = try #require(PendingOrigin.read(c))
        #expect(origin.traceDigest == PendingOrigin.digest(of: try Data(contentsOf: c.trace)))
        #expect(origin.producer == "mapsketch 9.9")
        #expect(PendingOrigin.staleness(of: c) == nil)
        // FNV-1a 64 of the empty input and of "a" (the published test vectors).
        #expect(PendingOrigin.digest(of: []) == "fnv1a64:cbf29ce484222325")
        #expect(PendingOrigin.digest(of: Array("a".utf8)) == "fnv1a64:af63dc4c8601ec8c")
        // A later pass removes the origin with the rest of the pending output.
        _ = try GoldenAcceptance.accept(c)
        #expect(!dir.exists(c.actualOrigin))
    }

    @Test func acceptRefusesAStaleOutputAndTakesAFreshOne() throws {
        let dir = try TraceFolder()
        defer { dir.remove() }
        let c = try dir.lineTrace("t", [(0, 0), (10, 0)])
        _ = GoldenRunner(record: .all).run(c)
        let golden = try String(contentsOf: c.expected, encoding: .utf8)
        // The trace changes: check fails and leaves a pending output.
        try dir.lineTrace("t", [(0, 0), (10, 0), (20, 0)])
        #expect(GoldenRunner().run(c).status.isFailure)
        let pending = try String(contentsOf: c.actual, encoding: .utf8)
        // The trace is edited again before the pending output is accepted: it is stale.
        try dir.lineTrace("t", [(0, 0), (10, 0), (30, 0)])
        let stale = try #require(PendingOrigin.staleness(of: c))
        #expect(stale.hasPrefix("stale: its trace t.trace.jsonl changed since MapSketchReplay wrote it; run `mapsketch check"))
        #expect(stale.hasSuffix("again"))
        do {
            try GoldenAcceptance.accept(c)
            Issue.record("a stale output was accepted")
        } catch {
            #expect("\(error)".contains("stale: its trace t.trace.jsonl changed"))
        }
        #expect(try String(contentsOf: c.expected, encoding: .utf8) == golden, "the golden is untouched")
        #expect(try String(contentsOf: c.actual, encoding: .utf8) == pending, "the pending output is left")

        // The review says so and will not accept it.
        var answers = ["a", "s"][...]
        var shown = ""
        var review = GoldenReview(cases: [c], read: { answers.popFirst() }, write: { shown += $0 })
        let summary = review.run()
        #expect(shown.contains("  stale: its trace t.trace.jsonl changed"))
        #expect(shown.contains("a stale output cannot be accepted: run check again"))
        #expect(summary.accepted.isEmpty && summary.skipped == ["t"])

        // Without its origin a pending output is stale too.
        try FileManager.default.removeItem(at: c.actualOrigin)
        #expect(PendingOrigin.staleness(of: c)?.contains("no record of the trace it was made from") == true)

        // Check again: the fresh output is accepted, and the next check passes.
        #expect(GoldenRunner().run(c).status.isFailure)
        #expect(PendingOrigin.staleness(of: c) == nil)
        #expect(try GoldenAcceptance.accept(c) == [c.expected])
        #expect(GoldenRunner().run(c).status == .passed)
    }

    // MARK: The text diff aligns vertices as the picture does

    @Test func aRemovedOrInsertedVertexIsOneDifferenceInTheText() throws {
        func doc(_ xs: [Int]) -> JSONValue {
            ["sketch": ["geometry": ["paths": [.array(xs.map { [.number(Double($0) * 10.5), .number(Double($0 % 3))] })]]]]
        }
        let all = Array(0..<20)
        var less = all
        less.remove(at: 7)
        let removed = GoldenComparison.compare(expected: doc(all), actual: doc(less))
        #expect(removed.total == 1)
        #expect(removed.differences.map(\.path) == ["sketch.geometry.paths[0][7]"])
        #expect(removed.differences.first?.reason == "vertex removed")
        #expect(removed.differences.first?.expected == "[73.5,1]")
        let added = GoldenComparison.compare(expected: doc(less), actual: doc(all))
        #expect(added.differences.map(\.reason) == ["vertex added"])
        #expect(added.differences.first?.actual == "[73.5,1]")
        // A moved vertex is one difference that shows both positions.
        let moved: JSONValue = ["sketch": ["geometry": ["paths": [.array(all.map { [.number(Double($0) * 10.5 + ($0 == 4 ? 1 : 0)), .number(Double($0 % 3))] })]]]]
        let m = GoldenComparison.compare(expected: doc(all), actual: moved)
        #expect(m.total == 1 && m.differingNumbers == 1)
        #expect(m.differences.first?.reason.hasPrefix("vertex moved by 1, beyond the tolerance") == true)
        // The picture counts the same changes.
        let svg = GoldenOverlay.svg(name: "t", expected: doc(all), actual: doc(less), differingNumbers: 0)
        #expect(svg.contains("vertices: 0 moved, 0 added, 1 removed"))
    }

    @Test func aGPSFixRemovedFromATraceIsOneVertexRemovedInTheCheckReport() throws {
        let dir = try TraceFolder()
        defer { dir.remove() }
        let source = Fixtures.url("Traces/gps/real-gpx-gpxgo-visnjan")
        var lines = try String(contentsOf: URL(fileURLWithPath: source.path + ".trace.jsonl"), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[200].contains("\"type\":\"gps\""))
        lines.remove(at: 200)
        let c = try dir.trace("visnjan", lines.joined(separator: "\n"))
        try FileManager.default.copyItem(at: URL(fileURLWithPath: source.path + ".expected.json"), to: c.expected)
        guard case .failed(let f) = GoldenRunner().run(c).status else {
            Issue.record("removing a fix should fail the check"); return
        }
        let geometryLines = f.report.split(separator: "\n").filter { $0.contains("at sketch.geometry.") }
        #expect(geometryLines.count == 1, "\(f.report)")
        #expect(geometryLines.first?.contains("vertex removed") == true)
        #expect(!f.report.contains("vertex moved"))
        #expect(f.pictures?.overlay.contains("0 moved, 0 added, 1 removed") == true)
    }

    // MARK: SVG goldens are asked for by an empty file

    @Test func anEmptySVGGoldenAsksForOneAndMissingRecordsIt() throws {
        let dir = try TraceFolder()
        defer { dir.remove() }
        let c = try dir.lineTrace("t", [(0, 0), (10, 0)])
        _ = GoldenRunner(record: .all).run(c)
        let json = try String(contentsOf: c.expected, encoding: .utf8)
        try Data().write(to: c.expectedSVG)
        guard case .failed(let f) = GoldenRunner().run(c).status else {
            Issue.record("an empty SVG golden is not a pass"); return
        }
        #expect(f.report.contains("t.expected.svg is empty: an SVG golden is asked for and not recorded yet"))
        #expect(f.report.contains("--record missing"))
        #expect(dir.exists(c.actualSVG), "the SVG is left pending to accept")
        #expect(GoldenRunner(record: .missing).run(c).status == .recorded(changes: nil))
        #expect(try String(contentsOf: c.expectedSVG, encoding: .utf8).hasPrefix("<svg"))
        #expect(try String(contentsOf: c.expected, encoding: .utf8) == json)
        #expect(GoldenRunner().run(c).status == .passed)
        #expect(!dir.exists(c.actualSVG))
    }
}
