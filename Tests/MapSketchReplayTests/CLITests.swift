import Foundation
import MapSketchGeometry
import MapSketchTestSupport
import Testing

/// Runs the built `mapsketch` executable (built beside the test bundle by `swift build --build-tests`).
@Suite(.serialized) struct CLITests {
    struct Run {
        var code: Int32
        var out: String
        var err: String
    }

    static var executable: URL {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("mapsketch")
        if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
        return Fixtures.url(".build/debug/mapsketch")
    }

    func run(_ args: [String], in cwd: URL = Fixtures.packageRoot) throws -> Run {
        let exe = Self.executable
        try #require(FileManager.default.isExecutableFile(atPath: exe.path), "build the mapsketch executable first")
        let p = Process()
        p.executableURL = exe
        p.arguments = args
        p.currentDirectoryURL = cwd
        let out = Pipe()
        let err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return Run(code: p.terminationStatus, out: String(decoding: o, as: UTF8.self), err: String(decoding: e, as: UTF8.self))
    }

    func tempDir() throws -> URL {
        let u = FileManager.default.temporaryDirectory.appendingPathComponent("cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: u, withIntermediateDirectories: true)
        return u
    }

    @Test func noArgumentsReplaysTheDemo() throws {
        let r = try run([])
        #expect(r.code == 0, "\(r.err)")
        #expect(r.out.contains("Traces/demo/demo.trace.jsonl"))
        #expect(r.out.contains("sketch: polygon, 1 part(s), 5 vertices, valid"))
        #expect(r.out.contains("\"rings\""))
    }

    @Test func replayPrintsTheGeometryInTheChosenFormatAndWritesFiles() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let trace = Fixtures.url("Traces/interaction/polyline-taps-append.trace.jsonl").path
        let svg = dir.appendingPathComponent("m.svg").path
        let events = dir.appendingPathComponent("e.jsonl").path
        let r = try run(["replay", trace, "--format", "wkt", "--svg", svg, "--events", events])
        #expect(r.code == 0, "\(r.err)")
        #expect(r.out == "LINESTRING (-100 -100, 0 100, 100 -100)\n")
        #expect(try String(contentsOfFile: svg, encoding: .utf8).hasPrefix("<svg"))
        let lines = try String(contentsOfFile: events, encoding: .utf8).split(separator: "\n")
        #expect(lines.filter { $0.contains("\"event\":\"tap\"") }.count == 3)
        let geo = try run(["replay", trace, "--format", "geojson"])
        #expect(geo.out.contains("\"LineString\""))
    }

    @Test func inputErrorsExit2WithFileLineColumn() throws {
        let r = try run(["replay", Fixtures.url("Traces/malformed/bad-touch-phase.trace.jsonl").path])
        #expect(r.code == 2)
        #expect(r.err.contains("bad-touch-phase.trace.jsonl:2:33: phase: expected one of"))
        let missing = try run(["replay", "/nonexistent/x.trace.jsonl"])
        #expect(missing.code == 2)
        #expect(missing.err.contains("x.trace.jsonl:1:1: cannot read the file"))
    }

    @Test func usageErrorsExit2() throws {
        #expect(try run(["replay"]).code == 2)
        #expect(try run(["check", "--shard", "4/3"]).code == 2)
        #expect(try run(["replay", "a.trace.jsonl", "--format", "kml"]).code == 2)
    }

    @Test func checkFailsWithoutGoldenRecordsOnUpdateAndCatchesAChange() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let src = Fixtures.url("Traces/interaction/tap-midvertex-then-map-inserts.trace.jsonl")
        let dst = dir.appendingPathComponent("t.trace.jsonl")
        try FileManager.default.copyItem(at: src, to: dst)
        let first = try run(["check", dir.path])
        #expect(first.code == 1)
        #expect(first.out.contains("no golden file t.expected.json"))
        #expect(try run(["check", dir.path, "--update"]).code == 0)
        let golden = dir.appendingPathComponent("t.expected.json")
        #expect(FileManager.default.fileExists(atPath: golden.path))
        let junit = dir.appendingPathComponent("j.xml").path
        #expect(try run(["check", dir.path, "--junit", junit]).code == 0)
        #expect(try String(contentsOfFile: junit, encoding: .utf8).contains("failures=\"0\""))
        // Change the expected vertex count: the check fails with a diff and writes actual + overlay.
        let text = try String(contentsOf: golden, encoding: .utf8).replacingOccurrences(of: "\"vertices\": 3", with: "\"vertices\": 4")
        try text.write(to: golden, atomically: true, encoding: .utf8)
        let bad = try run(["check", dir.path])
        #expect(bad.code == 1)
        #expect(bad.out.contains("at sketch.vertices: numbers differ by 1"))
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("t.actual.json").path))
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("t.diff.svg").path))
    }

    @Test func checkTakesFilesAndFoldersWithAFilter() throws {
        let one = try run(["check", "Traces/interaction/tap-midvertex-then-map-inserts.trace.jsonl"])
        #expect(one.code == 0, "\(one.out)\(one.err)")
        #expect(one.out.contains("1 trace in Traces/interaction/tap-midvertex-then-map-inserts.trace.jsonl: 1 passed"))
        let filtered = try run(["check", "Traces", "--filter", "gps/filter-*", "--filter", "demo/*"])
        #expect(filtered.code == 0, "\(filtered.out)\(filtered.err)")
        #expect(filtered.out.contains("4 traces in Traces: 4 passed"))
        let none = try run(["check", "Traces", "--filter", "no-such-trace*"])
        #expect(none.code == 2)
        #expect(none.err.contains("no trace matches --filter no-such-trace*"))
        let missing = try run(["check", "Traces/no-such-folder"])
        #expect(missing.code == 2)
        #expect(missing.err.contains("Traces/no-such-folder: not found"))
    }

    @Test func generateIsDeterministicPerSeed() throws {
        let a = try run(["generate", "taps", "--seed", "3", "--count", "5"])
        let b = try run(["generate", "taps", "--seed", "3", "--count", "5"])
        let c = try run(["generate", "taps", "--seed", "4", "--count", "5"])
        #expect(a.code == 0 && !a.out.isEmpty)
        #expect(a.out == b.out)
        #expect(a.out != c.out)
        #expect(a.out.split(separator: "\n").filter { $0.contains("\"phase\":\"began\"") }.count == 5)
        let g = try run(["generate", "gps", "--seed", "1", "--count", "20"])
        #expect(g.out.split(separator: "\n").filter { $0.contains("\"type\":\"gps\"") }.count == 20)
    }

    @Test func renderWritesTheMapAtAStep() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let svg = dir.appendingPathComponent("s.svg").path
        let r = try run(["render", Fixtures.url("Traces/interaction/polyline-taps-append.trace.jsonl").path, "--svg", svg, "--step", "2"])
        #expect(r.code == 0, "\(r.err)")
        #expect(r.out.contains("after 2 of 6 events"))
        let text = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(text.contains("sketch-vertices") || text.contains("sketch-selected-vertex"))
    }

    @Test func gpsReplaysARealTrack() throws {
        let r = try run(["gps", Fixtures.url("Traces/real/gpx/gpxgo/file.gpx").path, "--format", "wkt"])
        #expect(r.code == 0, "\(r.err)")
        #expect(r.out.hasPrefix("LINESTRING Z (1498048.0383777497 6893118.10543229 59.26, "), "the GPX elevations are kept")
        #expect(r.err.contains("4 fixes"))
        let bad = try run(["gps", Fixtures.url("Traces/README.md").path])
        #expect(bad.code == 2)
        #expect(bad.err.contains("README.md:1:1: expected a GPX, NMEA 0183 or GeoJSON Lines file, found '# The MapSketch trace format"))
    }

    @Test func geometryWritesItsOutputFileAsEveryCommandDoes() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("in.wkt")
        try "POINT (1 2)\n".write(to: input, atomically: true, encoding: .utf8)
        // Atomically, through the folder it creates when missing (as replay, gps and check do).
        let out = dir.appendingPathComponent("sub/out.wkt")
        let r = try run(["geometry", "convert", input.path, "-o", out.path])
        #expect(r.code == 0, "\(r.err)")
        #expect(try String(contentsOf: out, encoding: .utf8) == "POINT (1 2)\n")
    }

    @Test func gpsPicksTheReaderThroughGPSFileReader() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        // Every name GPSFileReader knows, e.g. newline-delimited GeoJSON as .ndjson.
        let walk = dir.appendingPathComponent("walk.ndjson")
        try #"{"type":"Point","coordinates":[14.5,46.05]}\#n{"type":"Point","coordinates":[14.5,46.051]}\#n"#
            .write(to: walk, atomically: true, encoding: .utf8)
        let r = try run(["gps", walk.path, "--format", "wkt"])
        #expect(r.code == 0, "\(r.err)")
        #expect(r.err.contains("2 fixes"))
        #expect(r.out.hasPrefix("LINESTRING ("))
    }
}
