import Foundation
import MapSketchTestSupport
import Testing

/// Hostile and unusual input through the built `mapsketch`: each test is a reproducer that once
/// crashed the tool, grew its memory without bound, or was accepted or rejected wrongly.
extension CLITests {
    /// A trace whose sketch lands 10^40 points off screen (resolution 10^-30).
    static let hugeScreenCoordinateTrace = """
        {"t":0,"type":"header","format":"mapsketch-trace","version":1,"name":"huge","screen":{"width":400,"height":400},\
        "viewport":{"center":{"x":0,"y":0},"resolution":1e-30},"spatialReference":{"wkid":102100,"latestWkid":3857},\
        "sketch":{"geometryType":"polyline","geometry":{"paths":[[[1e10,0],[2e10,5]]]}}}

        """

    @Test func screenCoordinatesBeyond1e36RenderInsteadOfTrapping() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let trace = dir.appendingPathComponent("huge.trace.jsonl")
        try Self.hugeScreenCoordinateTrace.write(to: trace, atomically: false, encoding: .utf8)
        let svg = dir.appendingPathComponent("huge.svg")
        let replay = try run(["replay", trace.path, "--svg", svg.path])
        #expect(replay.code == 0, "\(replay.err)")
        let text = try String(contentsOf: svg, encoding: .utf8)
        #expect(text.contains("M9999999999999999094860208812374492184576 200 L"), "every digit, no exponent")
        let render = try run(["render", trace.path, "--svg", svg.path])
        #expect(render.code == 0, "\(render.err)")
    }

    @Test func checkGoesOnAfterAMismatchWithHugeCoordinates() throws {
        // The first trace's golden mismatches (so check draws the diff SVG of its huge
        // coordinates); the second has no golden. Both are reported; exit 1, not a crash.
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.hugeScreenCoordinateTrace.write(to: dir.appendingPathComponent("a-huge.trace.jsonl"), atomically: false, encoding: .utf8)
        try #"{"trace":"a-huge","sketch":{"geometry":{"paths":[[[1,2],[3,4]]]}}}"#
            .write(to: dir.appendingPathComponent("a-huge.expected.json"), atomically: false, encoding: .utf8)
        try FileManager.default.copyItem(
            at: Fixtures.url("Traces/interaction/polyline-taps-append.trace.jsonl"), to: dir.appendingPathComponent("b-next.trace.jsonl"))
        let r = try run(["check", dir.path])
        #expect(r.code == 1, "\(r.err)")
        #expect(r.out.contains("FAIL a-huge"))
        #expect(r.out.contains("wrote a-huge.actual.json and a-huge.diff.svg"))
        #expect(r.out.contains("FAIL b-next"))
        #expect(r.out.contains("2 traces in"))
        #expect(r.out.contains("0 passed, 2 failed"))
    }
}

extension CLITests {
    @Test(arguments: [
        ["taps", "--width", "nan"], ["taps", "--width", "inf"], ["taps", "--height", "1e308"], ["drags", "--height", "-5"],
        ["gps", "--noise", "nan"], ["gps", "--noise", "-1"], ["gps", "--dropout", "nan"], ["gps", "--count", "-1"],
        ["taps", "--count", "100000000"],
    ])
    func generateRejectsNonFiniteAndOutOfRangeNumbers(_ options: [String]) throws {
        // `--height=-5`: a separate "-5" would read as an option.
        let r = try run(["generate", options[0], "--seed", "1", "\(options[1])=\(options[2])"])
        #expect(r.code == 2, "\(options): \(r.err)")
        #expect(r.err.contains("\(options[1]) must be"), "\(r.err)")
        #expect(r.out.isEmpty, "nothing is written")
    }

    @Test func numericOptionsOfReplayAndGPSAreChecked() throws {
        let trace = Fixtures.url("Traces/interaction/polyline-taps-append.trace.jsonl").path
        let speed = try run(["replay", trace, "--speed", "nan"])
        #expect(speed.code == 2)
        #expect(speed.err.contains("--speed must be a number from 0.001 to 1000000 (a pace multiplier), found nan"))
        let track = Fixtures.url("Traces/real/gpx/gpxgo/file.gpx").path
        for (option, value) in [("--min-distance", "nan"), ("--max-accuracy", "-1"), ("--max-hdop", "inf")] {
            let r = try run(["gps", track, "\(option)=\(value)"])
            #expect(r.code == 2, "\(option) \(value)")
            #expect(r.err.contains("\(option) must be a number 0 or more"), "\(r.err)")
        }
    }

    @Test func everyGenerateKindWritesATraceThatReplays() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        // Defaults and the edges of every range.
        let variants: [[String]] = [
            [], ["--count", "0"], ["--width", "1", "--height", "100000"], ["--noise", "100000", "--dropout", "1"],
            ["--noise", "0", "--dropout", "0.5", "--type", "polygon"], ["--type", "multipoint"],
        ]
        for kind in ["taps", "holds", "drags", "pans", "pinches", "walk", "gps", "antimeridian"] {
            for (i, options) in variants.enumerated() {
                let file = dir.appendingPathComponent("\(kind)-\(i).trace.jsonl").path
                let g = try run(["generate", kind, "--seed", "7", "--count", "6", "-o", file] + options)
                #expect(g.code == 0, "generate \(kind) \(options): \(g.err)")
                let r = try run(["replay", file])
                #expect(r.code == 0, "replay of generate \(kind) \(options): \(r.err)")
                #expect(try !String(contentsOfFile: file, encoding: .utf8).contains(":null"), "no NaN written as null")
            }
        }
    }
}

extension CLITests {
    @Test func checkRemovesTheTemporaryFilesOfAKilledUpdate() throws {
        // What a SIGKILL during `check --update` leaves: a hidden temporary file beside the golden.
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.copyItem(
            at: Fixtures.url("Traces/interaction/polyline-taps-append.trace.jsonl"), to: dir.appendingPathComponent("t.trace.jsonl"))
        #expect(try run(["check", dir.path, "--update"]).code == 0)
        let stale = dir.appendingPathComponent(".t.expected.json.mapsketch-tmp-2147483646")
        try Data("{\"half\":".utf8).write(to: stale)
        let r = try run(["check", dir.path])
        #expect(r.code == 0, "\(r.out)\(r.err)")
        #expect(r.err.contains(".t.expected.json.mapsketch-tmp-2147483646, a temporary file a killed run left"))
        #expect(!FileManager.default.fileExists(atPath: stale.path))
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        #expect(left == ["t.expected.json", "t.trace.jsonl"])
    }
}

extension CLITests {
    @Test func aGoldenThatIsNotUTF8IsReportedAsSuch() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.copyItem(
            at: Fixtures.url("Traces/interaction/polyline-taps-append.trace.jsonl"), to: dir.appendingPathComponent("t.trace.jsonl"))
        try Data([0x7B, 0x0A, 0x20, 0xFF, 0xFE, 0x7D]).write(to: dir.appendingPathComponent("t.expected.json"))
        let r = try run(["check", dir.path])
        #expect(r.code == 1)
        #expect(r.out.contains("t.expected.json: cannot read the golden file: not UTF-8 text (line 2, column 2: byte 0xff)"), "\(r.out)")
        #expect(!r.out.contains("no golden file"))
    }

    @Test func checkOnAnEmptyFolderSaysNoTracesAndExits2() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try run(["check", dir.path])
        #expect(r.code == 2)
        #expect(r.err.contains("no traces"))
    }
}

extension CLITests {
    /// Runs the tool with `input` on its standard input.
    func run(_ args: [String], input: Data) throws -> Run {
        let p = Process()
        p.executableURL = Self.executable
        p.arguments = args
        p.currentDirectoryURL = Fixtures.packageRoot
        return try MapsketchProcess.collect(p, writing: input)
    }

    @Test func gpsReadsStandardInputAFIFOAndSniffsTheFormat() throws {
        let gpx = try Fixtures.data("Traces/real/gpx/gpxgo/file.gpx")
        let byName = try run(["gps", Fixtures.url("Traces/real/gpx/gpxgo/file.gpx").path, "--format", "wkt"])
        #expect(byName.code == 0, "\(byName.err)")
        for args in [["gps", "-", "--format", "wkt"], ["gps", "/dev/stdin", "--format", "wkt"], ["gps", "-", "--in", "gpx", "--format", "wkt"]] {
            let r = try run(args, input: gpx)
            #expect(r.code == 0, "\(args): \(r.err)")
            #expect(r.out == byName.out, "\(args)")
            #expect(r.err.contains("4 fixes"))
        }
        // A FIFO.
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fifo = dir.appendingPathComponent("track.fifo")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let writer = Thread {
            if let h = FileHandle(forWritingAtPath: fifo.path) {
                h.write(gpx)
                try? h.close()
            }
        }
        writer.start()
        let viaFIFO = try run(["gps", fifo.path, "--format", "wkt"])
        #expect(viaFIFO.code == 0, "\(viaFIFO.err)")
        #expect(viaFIFO.out == byName.out)
        // A GPX saved as .log reads as GPX; NMEA with CR-only line ends reads its fixes.
        let log = dir.appendingPathComponent("saved.log")
        try gpx.write(to: log)
        let sniffed = try run(["gps", log.path, "--format", "wkt"])
        #expect(sniffed.out == byName.out, "\(sniffed.err)")
        let nmea = try Fixtures.string("Traces/real/nmea/gpsd/ublox-8.log").replacingOccurrences(of: "\r\n", with: "\n")
            .replacingOccurrences(of: "\n", with: "\r")
        let cr = try run(["gps", "-"], input: Data(nmea.utf8))
        #expect(cr.code == 0)
        #expect(cr.err.contains("72 fixes"), "\(cr.err)")
    }

    @Test func gpsSaysWhyATrackCannotBeRead() throws {
        let missing = try run(["gps", "/no/such/track.gpx"])
        #expect(missing.code == 2)
        #expect(missing.err.contains("track.gpx:1:1: cannot read the file: not found"))
        let folder = try run(["gps", "Traces"])
        #expect(folder.code == 2)
        #expect(folder.err.contains("Traces:1:1: cannot read the file: is a folder, expected a file"))
        var noise = [UInt8]()
        var x: UInt32 = 12345
        for _ in 0..<3000 {
            x = x &* 1_103_515_245 &+ 12345
            noise.append(UInt8(truncatingIfNeeded: x >> 16))
        }
        let random = try run(["gps", "-"], input: Data(noise))
        #expect(random.code == 2)
        #expect(random.err.contains("expected a GPX, NMEA 0183 or GeoJSON Lines file, found binary data (first bytes"), "\(random.err)")
        #expect(!random.err.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "no raw control characters")
        let text = try Fixtures.string("Traces/real/gpx/gpxgo/file.gpx")
        let utf16 = try run(["gps", "-", "--format", "wkt"], input: Data([0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }))
        #expect(utf16.code == 0, "\(utf16.err)")
        #expect(utf16.out.hasPrefix("LINESTRING Z ("))
    }

    @Test func gpsSavesTheTraceItReplays() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let saved = dir.appendingPathComponent("ride.trace.jsonl")
        let track = Fixtures.url("Traces/real/gpx/gpxgo/file.gpx").path
        let r = try run(["gps", track, "--save-trace", saved.path, "--format", "wkt"])
        #expect(r.code == 0, "\(r.err)")
        let replayed = try run(["replay", saved.path, "--format", "wkt"])
        #expect(replayed.code == 0)
        #expect(replayed.out == r.out, "the saved trace replays to the same geometry")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["ride.trace.jsonl"])
    }
}
