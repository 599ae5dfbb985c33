import Foundation
import MapSketchGeometry
import MapSketchTestSupport
import Testing

/// The command line says what it does: a picture of nothing, a step out of range, an option
/// ignored, an accept without names, a library's advice, a damaged track, drift and stale
/// pending outputs.
extension CLITests {
    @Test func renderWarnsOfAnEmptyPictureAndFitFramesTheSketch() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let trace = dir.appendingPathComponent("walk.trace.jsonl").path
        #expect(try run(["generate", "walk", "--seed", "7", "-o", trace]).code == 0)
        let svg = dir.appendingPathComponent("walk.svg").path
        let plain = try run(["render", trace, "--svg", svg])
        #expect(plain.code == 0, "\(plain.err)")
        #expect(plain.err.contains("warning: \(svg) shows none of the sketch and the graphics"), "\(plain.err)")
        #expect(plain.err.contains("--fit frames them"))
        let fitted = try run(["render", trace, "--svg", svg, "--fit"])
        #expect(fitted.code == 0 && fitted.err.isEmpty, "\(fitted.err)")
        #expect(fitted.out.contains("framed on the sketch and graphics"))
        // Every vertex of the framed sketch is on the 390 × 844 screen.
        let text = try String(contentsOfFile: svg, encoding: .utf8)
        let path = try #require(text.range(of: #"<path d="M[^"]*""#, options: .regularExpression)).self
        let numbers = text[path].dropFirst(9).dropLast().split(whereSeparator: { $0 == " " || $0 == "M" || $0 == "L" })
            .compactMap { Double($0) }
        #expect(numbers.count >= 4)
        for (i, v) in numbers.enumerated() { #expect(v >= 0 && v <= (i.isMultiple(of: 2) ? 390 : 844), "\(numbers)") }
        // A trace whose sketch is on screen gets no warning.
        let tap = try run(["render", Fixtures.url("Traces/interaction/polyline-taps-append.trace.jsonl").path, "--svg", svg])
        #expect(tap.code == 0 && tap.err.isEmpty, "\(tap.err)")
    }

    @Test func renderSaysWhichStepsAreValid() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let trace = Fixtures.url("Traces/interaction/polyline-taps-append.trace.jsonl").path
        let svg = dir.appendingPathComponent("s.svg").path
        let past = try run(["render", trace, "--svg", svg, "--step", "99"])
        #expect(past.code == 2)
        #expect(past.err.contains("--step must be from 0 to 6 ("), "\(past.err)")
        #expect(past.err.contains("has 6 events), found 99"))
        #expect(!FileManager.default.fileExists(atPath: svg), "nothing drawn for a step past the end")
        let negative = try run(["render", trace, "--svg", svg, "--step", "-1"])
        #expect(negative.code == 2)
        #expect(negative.err.contains("--step must be 0 or more (at most the trace's event count), found -1"), "\(negative.err)")
        #expect(!negative.err.contains("Missing value"))
        #expect(try run(["render", trace, "--svg", svg, "--step", "6"]).out.contains("after 6 of 6 events"))
    }

    @Test func speedImpliesRealtime() throws {
        // The demo lasts 5.36 s: at twice its pace the replay takes at least 2.68 s; without
        // pacing it takes a fraction of that.
        let demo = Fixtures.url("Traces/demo/demo.trace.jsonl").path
        let start = Date()
        let r = try run(["replay", demo, "--speed", "2"])
        let elapsed = Date().timeIntervalSince(start)
        #expect(r.code == 0, "\(r.err)")
        #expect(elapsed >= 2.6, "--speed 2 keeps half the trace's pace, took \(elapsed) s")
        let help = try run(["help", "replay"]).out
        #expect(help.contains("implies --realtime"))
        #expect(try run(["replay", demo, "--speed", "0"]).code == 2)
    }

    @Test func acceptWithoutNamesOrATerminalSaysWhatToGive() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        // In a folder without Traces: not "Traces: not found".
        let r = try run(["accept"], in: dir)
        #expect(r.code == 2)
        #expect(r.err.contains("give trace names or --all"), "\(r.err)")
        let all = try run(["accept", "--all"], in: dir)
        #expect(all.code == 2)
        #expect(all.err.contains("--root names the folder of traces to look in"), "\(all.err)")
    }

    @Test func aFeatureCollectionIsRefusedInTheCommandLinesWords() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("fc.geojson")
        let text = #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{}}]}"#
        try text.write(to: input, atomically: true, encoding: .utf8)
        let r = try run(["geometry", "convert", input.path])
        #expect(r.code == 2)
        #expect(r.err.contains("fc.geojson:1:1: expected one geometry or Feature, found a FeatureCollection of 1 feature: give one geometry per line (GeoJSON Lines)"), "\(r.err)")
        #expect(!r.err.contains("GeoJSON.decodeDocument"), "no library API in a command-line message")
        // The library keeps its advice for library callers.
        #expect(throws: JSONError.self) { try GeoJSON.decode(text) }
        do { _ = try GeoJSON.decode(text) } catch { #expect("\(error)".contains("decode it with GeoJSON.decodeDocument")) }
    }

    @Test func keepPartialKeepsTheFixesBeforeTheDamage() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let whole = try Data(contentsOf: Fixtures.url("Traces/real/gpx/gpxpy/korita-zbevnica.gpx"))
        let cut = dir.appendingPathComponent("cut.gpx")
        try whole.prefix(3020).write(to: cut)
        let refused = try run(["gps", cut.path, "--format", "wkt"])
        #expect(refused.code == 2, "off by default")
        #expect(refused.out.isEmpty)
        #expect(refused.err.contains("cut.gpx:111:1: element <trkpt> is never closed"), "\(refused.err)")
        #expect(refused.err.contains("26 fixes were read before it: --keep-partial keeps them"))
        let kept = try run(["gps", cut.path, "--format", "wkt", "--keep-partial"])
        #expect(kept.code == 0, "\(kept.err)")
        #expect(kept.err.contains("warning: \(cut.path):111:1: element <trkpt> is never closed"), "\(kept.err)")
        #expect(kept.err.contains("reading stopped there (--keep-partial): kept the 26 fixes read before it"))
        #expect(kept.err.contains("result: polyline, 1 part, 26 vertices"))
        #expect(kept.out.hasPrefix("LINESTRING Z ("))
        // An intact track is read whole either way.
        let intact = try run(["gps", Fixtures.url("Traces/real/gpx/gpxgo/file.gpx").path, "--keep-partial"])
        #expect(intact.code == 0 && !intact.err.contains("warning: "))
    }

    @Test func anEmptySVGGoldenIsDocumentedAndRecordedByMissing() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let help = try run(["help", "check"]).out
        #expect(help.contains("create an empty NAME.expected.svg"), "\(help)")
        #expect(try run(["check", dir.path, "--record", "missing"]).code == 0)
        try Data().write(to: dir.appendingPathComponent("t.expected.svg"))
        let asked = try run(["check", dir.path])
        #expect(asked.code == 1)
        #expect(asked.out.contains("t.expected.svg is empty: an SVG golden is asked for and not recorded yet"))
        let recorded = try run(["check", dir.path, "--record", "missing"])
        #expect(recorded.code == 0, "\(recorded.out)")
        #expect(try String(contentsOf: dir.appendingPathComponent("t.expected.svg"), encoding: .utf8).hasPrefix("<svg"))
        #expect(try run(["check", dir.path]).code == 0)
    }

    // MARK: Drift and stale pending outputs

    @Test func checkCountsListsAndRerecordsDriftedGoldens() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try run(["check", dir.path, "--record", "missing"]).code == 0)
        let golden = dir.appendingPathComponent("t.expected.json")
        let recorded = try String(contentsOf: golden, encoding: .utf8)
        let drifted = recorded.replacingOccurrences(of: "[100, 0]", with: "[100.00000000000001, 0]")
        #expect(drifted != recorded)
        try drifted.write(to: golden, atomically: true, encoding: .utf8)
        let junit = dir.appendingPathComponent("j.xml")
        let html = dir.appendingPathComponent("r.html")
        let plain = try run(["check", dir.path, "--junit", junit.path, "--html", html.path])
        #expect(plain.code == 0)
        #expect(plain.out.contains(": 1 passed (1 within tolerance), 0 failed"), "\(plain.out)")
        #expect(!plain.out.contains("not byte for byte"), "listed only with --verbose")
        let xml = try String(contentsOf: junit, encoding: .utf8)
        #expect(xml.contains(#"<property name="drifted" value="1"/>"#))
        #expect(xml.contains("<system-out>passed within the tolerance, not byte for byte: 1 number differs within the tolerance, by 1.4e-14</system-out>"), "\(xml)")
        #expect(try String(contentsOf: html, encoding: .utf8).contains("<li>t: 1 number differs within the tolerance, by 1.4e-14</li>"))
        let verbose = try run(["check", dir.path, "--verbose"])
        #expect(verbose.out.contains("passed within the tolerance, not byte for byte (rewrite these goldens with `--record drifted`):\n  t: 1 number differs"), "\(verbose.out)")
        // Never on CI; otherwise only the drifted golden is rewritten.
        let ci = try run(["check", dir.path, "--record", "drifted"], env: ["CI": "true"])
        #expect(ci.err.contains("CI is set: recording (drifted) is off"))
        #expect(try String(contentsOf: golden, encoding: .utf8) == drifted)
        let rerecorded = try run(["check", dir.path, "--record", "drifted"])
        #expect(rerecorded.code == 0)
        #expect(rerecorded.out.contains("recorded t\n"))
        #expect(try String(contentsOf: golden, encoding: .utf8) == recorded)
        #expect(try run(["check", dir.path]).out.contains(": 1 passed, 0 failed"))
    }

    @Test func acceptRefusesAPendingOutputWhoseTraceChanged() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let trace = dir.appendingPathComponent("t.trace.jsonl")
        #expect(try run(["check", dir.path, "--record", "missing"]).code == 0)
        // Edit the trace: check fails and leaves a pending output, with its origin.
        let original = try String(contentsOf: trace, encoding: .utf8)
        var lines = original.split(separator: "\n", omittingEmptySubsequences: false)
        lines.removeLast(lines.last == "" ? 3 : 2)
        try (lines.joined(separator: "\n") + "\n").write(to: trace, atomically: true, encoding: .utf8)
        #expect(try run(["check", dir.path]).code == 1)
        let origin = try String(contentsOf: dir.appendingPathComponent("t.actual.origin.json"), encoding: .utf8)
        #expect(origin.contains("\"traceDigest\": \"fnv1a64:") && origin.contains("\"producer\": \"mapsketch "))
        // Edit it again, then accept the old pending output: refused, nothing written.
        try original.write(to: trace, atomically: true, encoding: .utf8)
        let golden = try String(contentsOf: dir.appendingPathComponent("t.expected.json"), encoding: .utf8)
        for args in [["accept", trace.path], ["accept", "--all", "--root", dir.path]] {
            let stale = try run(args)
            #expect(stale.code == 2, "\(args)")
            #expect(stale.err.contains("stale: its trace t.trace.jsonl changed since mapsketch "), "\(stale.err)")
            #expect(stale.err.contains("again"))
            #expect(try String(contentsOf: dir.appendingPathComponent("t.expected.json"), encoding: .utf8) == golden)
        }
        // Check again (the trace is back as recorded: it passes, and the pending output goes).
        #expect(try run(["check", dir.path]).code == 0)
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("t.actual.origin.json").path))
    }
}
