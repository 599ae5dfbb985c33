import Foundation
import MapSketchTestSupport
import Testing

/// The golden workflow from the command line: input errors, record modes and CI, obsolete
/// goldens, accepting, the HTML report and --strict.
extension CLITests {
    @Test func aTraceWithATypoIsAnInputErrorListedFirstAndNeverRecorded() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let plot = dir.appendingPathComponent("plot.trace.jsonl")
        let good = try String(contentsOf: dir.appendingPathComponent("t.trace.jsonl"), encoding: .utf8)
        try good.replacingOccurrences(of: "\"phase\":\"began\"", with: "\"phase\":\"begun\"").write(to: plot, atomically: true, encoding: .utf8)
        _ = try run(["check", dir.path, "--update"])
        // A golden exists for the good trace only: --update never records the error.
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("plot.expected.json").path))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("plot.actual.json").path))
        // Change the good trace's golden so it fails too: the input error still comes first.
        let golden = dir.appendingPathComponent("t.expected.json")
        try String(contentsOf: golden, encoding: .utf8).replacingOccurrences(of: "\"vertices\": 3", with: "\"vertices\": 4").write(to: golden, atomically: true, encoding: .utf8)
        let both = try run(["check", dir.path])
        let recap = try #require(both.out.range(of: "input errors"))
        let failed = try #require(both.out.range(of: "failed:\n  t"))
        #expect(recap.lowerBound < failed.lowerBound, "the recap lists input errors first")
        #expect(both.out.contains(", 1 failed, 1 input error,"))
        for args in [["check", dir.path], ["check", plot.path], ["check", dir.path, "--record", "all"]] {
            let r = try run(args)
            #expect(r.code == 2, "\(args): an input error exits 2")
            #expect(r.err.contains("input error: \(plot.path):2:33: phase: expected one of"), "\(r.err)")
            #expect(!r.out.contains("FAIL plot"), "not listed as a difference")
            #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("plot.expected.json").path))
        }
    }

    @Test func recordModesAndCIFromTheCommandLine() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let golden = dir.appendingPathComponent("t.expected.json")
        let ci = try run(["check", dir.path, "--update"], env: ["CI": "true"])
        #expect(ci.code == 1, "CI=true: nothing recorded, the missing golden fails")
        #expect(ci.err.contains("CI is set: recording (all) is off"))
        #expect(!FileManager.default.fileExists(atPath: golden.path))
        let missing = try run(["check", dir.path, "--record", "missing"])
        #expect(missing.code == 0, "\(missing.out)\(missing.err)")
        #expect(missing.out.contains("recorded t"))
        #expect(missing.out.contains("0 passed, 1 recorded, 0 failed"))
        let text = try String(contentsOf: golden, encoding: .utf8)
        try text.replacingOccurrences(of: "\"vertices\": 3", with: "\"vertices\": 4").write(to: golden, atomically: true, encoding: .utf8)
        #expect(try run(["check", dir.path, "--record", "missing"]).code == 1, "missing leaves a differing golden alone")
        #expect(try run(["check", dir.path], env: ["MAPSKETCH_RECORD": "failed", "CI": "1"]).code == 1)
        let failed = try run(["check", dir.path], env: ["MAPSKETCH_RECORD": "failed"])
        #expect(failed.code == 0)
        #expect(failed.out.contains("at sketch.vertices: numbers differ by 1"), "the recording says what changed")
        #expect(try String(contentsOf: golden, encoding: .utf8) == text)
        #expect(try run(["check", dir.path, "--update", "--record", "missing"]).code == 2)
        #expect(try run(["check", dir.path], env: ["MAPSKETCH_RECORD": "sometimes"]).err.contains("MAPSKETCH_RECORD: expected never, missing, failed, drifted, all or 1"))
    }

    @Test func obsoleteGoldensAreReportedAndPruned() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try run(["check", dir.path, "--update"])
        try Data("{}".utf8).write(to: dir.appendingPathComponent("old.expected.json"))
        let r = try run(["check", dir.path])
        #expect(r.code == 0)
        #expect(r.out.contains("obsolete goldens (no trace); remove them with --prune:\n  old: old.expected.json"))
        let ci = try run(["check", dir.path, "--prune"], env: ["CI": "true"])
        #expect(ci.out.contains("not pruned: CI is set"))
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("old.expected.json").path))
        let pruned = try run(["check", dir.path, "--prune"])
        #expect(pruned.out.contains("pruned obsolete goldens (no trace):"))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("old.expected.json").path))
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("t.expected.json").path))
    }

    @Test func acceptWithoutATerminalTakesNamesOrAll() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let trace = dir.appendingPathComponent("t.trace.jsonl").path
        #expect(try run(["check", dir.path]).code == 1)
        let listed = try run(["accept", "--root", dir.path])
        #expect(listed.code == 2)
        #expect(listed.err.contains("pending outputs under \(dir.path):\n  \(trace)"))
        #expect(listed.err.contains("the one-by-one review needs a terminal"))
        let unknown = try run(["accept", dir.appendingPathComponent("nope").path, trace])
        #expect(unknown.code == 2)
        #expect(unknown.err.contains("nothing accepted"))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("t.expected.json").path), "nothing accepted when a name is wrong")
        let accepted = try run(["accept", "t", "--root", dir.path])
        #expect(accepted.code == 0, "\(accepted.err)")
        #expect(accepted.out.contains("accepted \(trace)"))
        #expect(try run(["check", dir.path]).code == 0)
        #expect(try run(["accept", trace]).code == 2, "no pending output any more")
        #expect(try run(["accept", "--all", "--root", dir.path]).out.contains("no pending output"))
    }

    @Test func htmlReportAndStrictFromTheCommandLine() throws {
        let dir = try folder(with: "Traces/programmatic/bad-indices-are-logged.trace.jsonl")
        defer { try? FileManager.default.removeItem(at: dir) }
        let trace = dir.appendingPathComponent("t.trace.jsonl")
        // Without its declaration, the trace's refused calls are warnings, or failures under --strict.
        let text = try String(contentsOf: trace, encoding: .utf8).replacingOccurrences(of: #","expect":{"refusedCalls":[2,3,4,5]}"#, with: "")
        try text.write(to: trace, atomically: true, encoding: .utf8)
        _ = try run(["check", dir.path, "--update"])
        let loose = try run(["check", dir.path])
        #expect(loose.code == 0)
        #expect(loose.err.contains("warning: \(trace.path):2: removeVertex refused: vertex index 9 out of range"))
        let strict = try run(["check", dir.path, "--strict"])
        #expect(strict.code == 1)
        #expect(strict.out.contains("refused calls the trace does not declare (--strict)"))
        let html = dir.appendingPathComponent("report.html")
        let golden = dir.appendingPathComponent("t.expected.json")
        try String(contentsOf: golden, encoding: .utf8).replacingOccurrences(of: "[100, 0]", with: "[100, 0.017]").write(to: golden, atomically: true, encoding: .utf8)
        #expect(try run(["check", dir.path, "--html", html.path]).code == 1)
        let page = try String(contentsOf: html, encoding: .utf8)
        #expect(page.contains("<h2>t <span class=\"tag\">failed</span></h2>"))
        #expect(page.components(separatedBy: "<img ").count - 1 == 3)
        let diff = try String(contentsOf: dir.appendingPathComponent("t.diff.svg"), encoding: .utf8)
        #expect(diff.contains(">moved 0.017 map units</text>") || diff.contains(">moved 1.7 cm</text>"))
    }
}
