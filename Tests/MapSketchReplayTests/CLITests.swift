import Foundation
import MapSketchGeometry
import MapSketchReplay
import MapSketchTestSupport
import Testing
@testable import MapSketchReaders

/// Runs the built `mapsketch` executable (built beside the test bundle by `swift build --build-tests`).
@Suite(.serialized) struct CLITests {
    typealias Run = MapsketchProcess.Run

    static var executable: URL { MapsketchProcess.executable }

    /// Runs `mapsketch args` in `cwd` with the test's environment minus `CI` and
    /// `MAPSKETCH_RECORD` (so a CI machine's settings do not change what is tested), plus `env`.
    func run(_ args: [String], in cwd: URL = Fixtures.packageRoot, env: [String: String] = [:]) throws -> Run {
        try MapsketchProcess.run(args, in: cwd, env: env)
    }

    func tempDir() throws -> URL { try MapsketchProcess.tempDir() }

    /// A temporary folder holding a copy of a corpus trace as `name.trace.jsonl`.
    func folder(with trace: String = "Traces/interaction/tap-midvertex-then-map-inserts.trace.jsonl", as name: String = "t") throws -> URL {
        let dir = try tempDir()
        try FileManager.default.copyItem(at: Fixtures.url(trace), to: dir.appendingPathComponent(name + ".trace.jsonl"))
        return dir
    }

    @Test func noArgumentsReplaysTheDemo() throws {
        let r = try run([])
        #expect(r.code == 0, "\(r.err)")
        #expect(r.out.contains("Traces/demo/demo.trace.jsonl"))
        #expect(r.out.contains("sketch: polygon, 1 part(s), 5 vertices, enough for a polygon"))
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
        // The hint names the trace, folder included, and the pending output is left to accept.
        #expect(first.out.contains("mapsketch accept \(dst.path)"))
        #expect(first.out.contains("mapsketch check \(dst.path) --record missing"))
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("t.actual.json").path))
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

    @Test func geometryStreamsItsOutputFileAndLeavesNothingOnFailure() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        // Big results (a line past the tool's 64 KiB chunks, and past the 1 MiB flat threshold)
        // between small ones: the file holds what standard output gets, byte for byte.
        let line = "{\"paths\":[[" + (0..<100_000).map { "[\($0 % 360 - 180).25,\($0 % 170 - 85)]" }.joined(separator: ",") + "]],\"spatialReference\":{\"wkid\":4326}}"
        let input = dir.appendingPathComponent("in.json")
        try ("POINT (1 2)\n" + line + "\n" + #"{"points":[[1,2],[1,2]]}"# + "\n").write(to: input, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("out.json")
        for operation in ["normalize", "simplify", "convert"] {
            let toFile = try run(["geometry", operation, input.path, "--sr", "4326", "-o", out.path])
            let toStdout = try run(["geometry", operation, input.path, "--sr", "4326"])
            #expect(toFile.code == 0 && toStdout.code == 0, "\(toFile.err)")
            #expect(try String(contentsOf: out, encoding: .utf8) == toStdout.out, "\(operation)")
            #expect(toStdout.out.utf8.count > 1 << 20)
        }
        // validate's exit 1 (an invalid geometry) still writes the file.
        let invalid = dir.appendingPathComponent("invalid.json")
        try (#"{"paths":[[[1,2],[1,2]]]}"# + "\n").write(to: invalid, atomically: true, encoding: .utf8)
        let validated = try run(["geometry", "validate", invalid.path, "-o", out.path])
        #expect(validated.code == 1)
        #expect(try String(contentsOf: out, encoding: .utf8).hasPrefix(#"{"valid":false"#))
        // An error after big results: exit 2, the destination as it was, no temporary file left.
        let broken = dir.appendingPathComponent("broken.json")
        try (line + "\n" + line + "\n" + #"{"paths":[[[1,2],[3,"x"]]]}"# + "\n").write(to: broken, atomically: true, encoding: .utf8)
        let before = try String(contentsOf: out, encoding: .utf8)
        let failed = try run(["geometry", "simplify", broken.path, "-o", out.path])
        #expect(failed.code == 2)
        #expect(failed.err.contains("broken.json:3:"), "\(failed.err)")
        #expect(try String(contentsOf: out, encoding: .utf8) == before)
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        #expect(left == ["broken.json", "in.json", "invalid.json", "out.json"], "\(left)")
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

    @Test func replayReportsRefusedCallsWithTheirLine() throws {
        let dir = try folder(with: "Traces/programmatic/graphics-add-remove.trace.jsonl")
        defer { try? FileManager.default.removeItem(at: dir) }
        let trace = dir.appendingPathComponent("t.trace.jsonl")
        #expect(try run(["replay", trace.path, "--strict"]).code == 0, "declared refusals")
        let text = try String(contentsOf: trace, encoding: .utf8).replacingOccurrences(of: #","expect":{"refusedCalls":[7,8]}"#, with: "")
        try text.write(to: trace, atomically: true, encoding: .utf8)
        let r = try run(["replay", trace.path])
        #expect(r.code == 0)
        #expect(r.err.contains("warning: \(trace.path):7: removeGraphic refused: graphic index 5 out of range"))
        #expect(r.err.contains("warning: \(trace.path):8: addGraphic refused: no graphics layer named \"missing\""))
        let strict = try run(["replay", trace.path, "--strict"])
        #expect(strict.code == 1)
        #expect(strict.err.contains("error: \(trace.path):7:"))
    }

    // MARK: GeoJSON and GPS reports

    @Test func gpsGeoJSONIsLongitudeLatitudeOfTheGPXPoints() throws {
        // The sketch holds the fixes in Web Mercator; GeoJSON gives back the GPX's own decimals
        // (not the inverse projection's 46.43498100000001 for 46.434981).
        for file in ["Traces/real/gpx/gpxgo/visnjan.gpx", "Traces/real/gpx/gpxpy/Mojstrovka.gpx"] {
            let gpx = Fixtures.url(file)
            let r = try run(["gps", gpx.path, "--format", "geojson", "--keep-duplicates", "--keep-out-of-order"])
            #expect(r.code == 0, "\(r.err)")
            let line = try GeoJSON.decode(r.out)
            let track = try GPSFileReader.read(bytes: Array(Data(contentsOf: gpx)), fileName: gpx.lastPathComponent)
            let points = line.geometry.parts.flatMap { $0 }
            #expect(points.count == track.fixes.count)
            var differing = 0
            for (p, f) in zip(points, track.fixes) where p.x != f.longitude || p.y != f.latitude { differing += 1 }
            #expect(differing == 0, "\(file): \(differing) of \(points.count) points are not the GPX's coordinates")
            #expect(!r.out.contains("0000000"), "no noise digits")
        }
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("in.geojson")
        try #"{"type":"Point","coordinates":[1498048.03,6893118.10]}"#.write(to: input, atomically: true, encoding: .utf8)
        let sr = try run(["geometry", "project", input.path, "--sr", "3857", "--to", "4326"])
        #expect(sr.code == 2)
        #expect(sr.err.contains("does not apply to GeoJSON input"))
        #expect(sr.out.isEmpty, "never the input returned unchanged")
    }

    @Test func gpsReportsEveryReasonAndExits2WithoutAUsableFix() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let junk = dir.appendingPathComponent("junk.nmea")
        try "no sentence here\n$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*00\n".write(to: junk, atomically: true, encoding: .utf8)
        let r = try run(["gps", junk.path])
        #expect(r.code == 2)
        #expect(r.out.isEmpty)
        #expect(r.err.contains("no usable fix: no NMEA sentence gave a position (1 sentence with a bad checksum, 1 line without a sentence)"))
        let svg = dir.appendingPathComponent("track.svg")
        let ok = try run(["gps", Fixtures.url("Traces/real/gpx/gpxpy/korita-zbevnica.gpx").path, "--type", "polygon", "--svg", svg.path])
        #expect(ok.code == 0)
        #expect(ok.err.contains("  result: polygon, "))
        #expect(ok.err.contains("warning: the polygon is not valid"))
        let drawn = try String(contentsOf: svg, encoding: .utf8)
        #expect(drawn.contains("<g id=\"track\">") && !drawn.contains("sketch-vertices"), "gps draws a track by default")
        #expect(try run(["gps", Fixtures.url("Traces/real/gpx/gpxgo/file.gpx").path, "--svg", svg.path, "--style", "sketch"]).code == 0)
        #expect(try String(contentsOf: svg, encoding: .utf8).contains("sketch-vertices"))
    }

    /// The fidelity issue end to end: the Garmin log's track is 2-D in every format, with a
    /// warning counting the kept fixes without an elevation; `--min-distance 1` keeps one fix,
    /// which is an error (exit 2, nothing on stdout), not a one-point `LINESTRING Z`.
    @Test func gpsWritesOneDimensionRuleAndRefusesAOnePointLine() throws {
        let log = Fixtures.url("Traces/real/nmea/gpsd/garmin48.log").path
        for format in ["wkt", "geojson", "esrijson"] {
            let r = try run(["gps", log, "--format", format])
            #expect(r.code == 0, "\(r.err)")
            #expect(!r.out.contains("null") && !r.out.contains(" Z ") && !r.out.contains("14.7"), "\(format): \(r.out.prefix(200))")
            #expect(r.err.contains("warning: 7 of 14 kept fixes have no elevation: the track is written 2-D"))
        }
        let one = try run(["gps", log, "--min-distance", "1", "--format", "wkt"])
        #expect(one.code == 2)
        #expect(one.out.isEmpty)
        #expect(one.err.contains("garmin48.log: the polyline cannot be written: its part 0 has only 1 vertex, and a line needs at least 2"))
        #expect(try run(["gps", log, "--min-distance", "1", "--type", "multipoint", "--format", "wkt"]).out.hasPrefix("MULTIPOINT Z ("))
    }

    /// `replay --format wkt` writes Web Mercator meters; converting that WKT to GeoJSON needs
    /// `--sr` (it was written as if the meters were degrees), and with `--sr 3857` is projected.
    @Test func replayWKTToGeoJSONNeedsTheSpatialReference() throws {
        let wkt = try run(["replay", Fixtures.url("Traces/demo/demo.trace.jsonl").path, "--format", "wkt"])
        #expect(wkt.code == 0)
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("demo.wkt")
        try wkt.out.write(to: file, atomically: true, encoding: .utf8)
        let guessed = try run(["geometry", "convert", file.path, "--format", "geojson"])
        #expect(guessed.code == 2 && guessed.out.isEmpty)
        #expect(guessed.err.contains("the input states no spatial reference: give --sr 4326"))
        let projected = try run(["geometry", "convert", file.path, "--sr", "3857", "--format", "geojson"])
        #expect(projected.code == 0, "\(projected.err)")
        let replayed = try run(["replay", Fixtures.url("Traces/demo/demo.trace.jsonl").path, "--format", "geojson"])
        #expect(projected.out == replayed.out, "the projected WKT is what replay writes as GeoJSON")
    }

    // MARK: Conventions

    @Test func aMisspeltSubcommandGetsASuggestion() throws {
        let r = try run(["chek"])
        #expect(r.code == 2)
        #expect(r.err.contains("unknown subcommand 'chek'; did you mean 'check'?"))
        #expect(try run(["gsp"]).err.contains("did you mean 'gps'?"))
        #expect(try run(["frobnicate"]).err.contains("the subcommands are replay, gps, check, accept, generate, render, geometry, bench, record, view, import, shrink, completions, soak, help"))
        let version = try run(["--version"])
        #expect(version.code == 0)
        #expect(version.out.trimmingCharacters(in: .whitespacesAndNewlines).range(of: #"^\d+\.\d+\.\d+"#, options: .regularExpression) != nil)
    }

    @Test func aFileThatCannotBeReadSaysWhy() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        for args in [["replay", dir.appendingPathComponent("x.trace.jsonl").path], ["gps", dir.appendingPathComponent("x.gpx").path], ["geometry", "convert", dir.appendingPathComponent("x.wkt").path]] {
            let r = try run(args)
            #expect(r.code == 2)
            #expect(r.err.contains("cannot read the file: not found"), "\(args): \(r.err)")
        }
        let folder = dir.appendingPathComponent("f.gpx")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        #expect(try run(["gps", folder.path]).err.contains("cannot read the file: is a folder, expected a file"))
        #expect(try run(["render", folder.path, "--svg", dir.appendingPathComponent("s.svg").path]).err.contains("is a folder"))
        guard getuid() != 0 else { return }  // root reads every file: no permission to deny
        let locked = dir.appendingPathComponent("locked.trace.jsonl")
        try "x".write(to: locked, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: locked.path)
        #expect(try run(["replay", locked.path]).err.contains("cannot read the file: permission denied"))
    }

    @Test func helpListsEveryOptionOnceWithoutRepeatingDefaults() throws {
        let check = try run(["help", "check"])
        #expect(check.code == 0)
        for option in ["--filter", "--shard", "--record", "--update", "--strict", "--prune", "--junit", "--html"] {
            #expect(check.out.contains("  \(option)"), "help check lists \(option)")
        }
        let top = try run(["--help"])
        #expect(!top.out.contains("  corpus"), "the repository's corpus generator is not a user subcommand")
        #expect(try run(["corpus", "--help"]).code == 0, "but it still runs")
        for sub in ["replay", "gps", "check", "accept", "generate", "render", "geometry"] {
            let help = try run(["help", sub]).out
            // An option's block: its line and the indented lines after it.
            var blocks: [String] = []
            for line in help.split(separator: "\n") {
                if line.hasPrefix("  -") || line.hasPrefix("  <") { blocks.append(String(line)) } else if !blocks.isEmpty, line.hasPrefix("    ") { blocks[blocks.count - 1] += " " + line.trimmingCharacters(in: .whitespaces) }
            }
            for block in blocks {
                #expect(block.components(separatedBy: "default:").count <= 2, "\(sub): default stated twice: \(block)")
                // Values listed by the parser are not listed again in the text.
                if let r = block.range(of: "(values: ") {
                    let values = block[r.upperBound...].prefix { $0 != ")" && $0 != ";" }.components(separatedBy: ", ")
                    let text = String(block[..<r.lowerBound])
                    let listings = [values.joined(separator: ", "), values.joined(separator: " | "), values.dropLast().joined(separator: ", ") + " or " + (values.last ?? "")]
                    #expect(!listings.contains { text.contains($0) }, "\(sub): values repeated: \(block)")
                }
            }
        }
    }
}
