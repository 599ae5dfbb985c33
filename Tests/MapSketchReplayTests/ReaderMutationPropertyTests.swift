import Foundation
import MapSketchGeometry
import MapSketchTestSupport
@_spi(MapSketchInternal) @testable import MapSketchReplay
import Testing
@testable import MapSketchReaders

/// The readers against seeded mutations of real inputs (a bounded, repeatable cousin of the
/// fuzzers in Fuzz/): every reader — trace JSON Lines, GPX, gzip'd GPX, NMEA, GeoJSON Lines,
/// getevent — on every mutant either reads it or throws an error that says where (line and
/// column ≥ 1) with a short message holding no raw control character; and what a GPS reader
/// accepts becomes a trace the trace reader accepts, what the trace reader accepts re-encodes to
/// a trace it reads back the same.
@MainActor
@Suite struct ReaderMutationPropertyTests {
    /// Mutants per seed file.
    static let mutantsPerSeed = 60

    /// A mutant of `bytes`: bytes replaced (by structure characters, digits, controls, non-ASCII),
    /// removed, duplicated, lines swapped, line ends changed, or the input cut.
    static func mutate(_ bytes: [UInt8], _ rng: inout SeededRandom) -> [UInt8] {
        let alphabet = Array("<>/=\"'&#;:$*,.-+eE0123456789ABCDEFabcdef \t\n\r[]{}\\".utf8) + [0, 0x1B, 0x7F, 0xFF, 0xC3, 0xFE]
        var b = bytes
        for _ in 0..<rng.int(in: 1...6) {
            guard !b.isEmpty else { break }
            let i = rng.int(in: 0...(b.count - 1))
            switch rng.int(in: 0...6) {
            case 0, 1: b[i] = alphabet[rng.int(in: 0...(alphabet.count - 1))]
            case 2: b.remove(at: i)
            case 3:
                let n = min(b.count - i, rng.int(in: 1...64))
                b.insert(contentsOf: b[i..<(i + n)], at: i)
            case 4:  // a CR LF or a lone CR where a LF was
                if let lf = b[i...].firstIndex(of: 0x0A) {
                    if rng.int(in: 0...1) == 0 { b.insert(0x0D, at: lf) } else { b[lf] = 0x0D }
                }
            case 5: b = Array(b.prefix(i))
            default:  // a digit run made huge or tiny
                if let d = b[i...].firstIndex(where: { (0x30...0x39).contains($0) }) {
                    b.insert(contentsOf: Array(["e999", "e-999", "999999999999999999999", "nan", "inf"][rng.int(in: 0...4)].utf8), at: d + 1)
                }
            }
        }
        return b
    }

    /// Records an issue unless `error` is located, short and printable.
    static func expectGoodError(_ error: any Error, _ what: String) {
        let line: Int, column: Int, message: String
        switch error {
        case let e as ReaderError: (line, column, message) = (e.line, e.column, e.message)
        case let e as TraceError: (line, column, message) = (e.line, e.column, e.message)
        default:
            Issue.record("\(what): \(type(of: error)) is neither a ReaderError nor a TraceError: \(error)")
            return
        }
        #expect(line >= 1 && column >= 1, "\(what): \(error)")
        #expect(!message.isEmpty && message.count <= 1_000, "\(what): a message of \(message.count) characters")
        let raw = message.unicodeScalars.first { ($0.value < 0x20 && $0 != "\n") || $0.value == 0x7F }
        #expect(raw == nil, "\(what): raw control character in \(message.debugDescription)")
    }

    /// What a GPS reader accepted is a trace the trace reader accepts.
    static func expectTraceOf(_ track: GPSTrack, _ what: String) {
        for f in track.fixes where !(f.latitude.isFinite && f.longitude.isFinite && abs(f.latitude) <= 90 && abs(f.longitude) <= 180) {
            Issue.record("\(what): a fix out of range was accepted: \(f)")
            return
        }
        let text = TraceEncoder.encode(TraceBuilder.gpsTrace(track, name: "m", description: "mutant"))
        #expect(throws: Never.self, "\(what): the trace of an accepted track") { _ = try TraceDecoder.decode(text, file: "m.trace.jsonl") }
    }

    /// The first `bytes` of up to `limit` files of `folder`: a mutant's edits land anywhere in it,
    /// and a debug build reads about a megabyte a second, so each costs its size 120 times.
    static func seeds(_ folder: String, _ suffix: String, limit: Int, bytes: Int = 24 * 1024) throws -> [(String, [UInt8])] {
        try Fixtures.files(under: folder, suffix: suffix).prefix(limit).map { url in
            (url.lastPathComponent, Array(try Data(contentsOf: url).prefix(bytes)))
        }
    }

    @Test func gpsReadersLocateEveryErrorAndTheirTracksReplay() throws {
        var rng = SeededRandom(seed: 12)
        var inputs: [(String, GPSFormat?, [UInt8])] = []
        for (name, bytes) in try Self.seeds("Traces/real/gpx", ".gpx", limit: 8, bytes: 12 * 1024) { inputs.append((name, .gpx, bytes)) }
        for (name, bytes) in try Self.seeds("Traces/real/nmea", ".log", limit: 5, bytes: 12 * 1024) { inputs.append((name, .nmea, bytes)) }
        let lines = (0..<40).map { i in
            "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(14 + Double(i) * 1e-3),46.05,\(300 + i)]},\"properties\":{\"time\":\"2024-05-01T10:00:\(10 + i)Z\",\"segment\":\(i / 20)}}"
        }
        inputs.append(("track.geojsonl", .geoJSONLines, Array(lines.joined(separator: "\n").utf8)))
        var read = 0, rejected = 0
        for (name, format, bytes) in inputs {
            for k in 0..<Self.mutantsPerSeed {
                let mutant = Self.mutate(bytes, &rng)
                // The format given, and sniffed from the content (as `gps` without --in).
                for f in [format, nil] {
                    let what = "\(name) mutant \(k) (\(f?.rawValue ?? "sniffed"))"
                    do {
                        let track = try GPSFileReader.open(MemoryByteSource(mutant), fileName: name, format: f).readRemaining()
                        Self.expectTraceOf(track, what)
                        read += 1
                    } catch {
                        Self.expectGoodError(error, what)
                        rejected += 1
                    }
                }
            }
        }
        // Both outcomes are exercised (a property test that only ever rejects checks little).
        #expect(read > 100 && rejected > 100, "read \(read), rejected \(rejected)")
    }

    @Test func gzipMutantsFailAtTheirByteOrReadAsGPX() throws {
        var rng = SeededRandom(seed: 1212)
        let gpx = Array(try Data(contentsOf: Fixtures.url("Traces/real/gpx/gpxpy/gpx1.1_with_all_fields.gpx")).prefix(16 * 1024))
        let seeds = [try gzip(gpx), gzipBomb(prefix: "<gpx>", pattern: "<a>", count: 64 * 1024, suffix: "</gpx>")]
        var rejected = 0
        for (s, seed) in seeds.enumerated() {
            for k in 0..<(Self.mutantsPerSeed * 3) {
                let mutant = Self.mutate(seed, &rng)
                do {
                    Self.expectTraceOf(try GPSFileReader.open(MemoryByteSource(mutant), fileName: "t.gpx.gz").readRemaining(), "gzip \(s) mutant \(k)")
                } catch {
                    Self.expectGoodError(error, "gzip \(s) mutant \(k)")
                    rejected += 1
                }
            }
        }
        #expect(rejected > 50)
    }

    @Test func traceReaderLocatesEveryErrorAndReadsBackWhatItAccepts() throws {
        var rng = SeededRandom(seed: 2012)
        let traces = Fixtures.files(under: "Traces/interaction", suffix: ".trace.jsonl").prefix(6)
            + Fixtures.files(under: "Traces/gps", suffix: ".trace.jsonl").prefix(3)
        #expect(traces.count >= 6)
        var read = 0, rejected = 0
        for url in traces {
            let bytes = Array(try Data(contentsOf: url).prefix(24 * 1024))
            for k in 0..<Self.mutantsPerSeed {
                let mutant = Self.mutate(bytes, &rng)
                let what = "\(url.lastPathComponent) mutant \(k)"
                do {
                    let trace = try TraceDecoder.decode(source: MemoryByteSource(mutant), file: "m.trace.jsonl")
                    let text = TraceEncoder.encode(trace)
                    let again = try TraceDecoder.decode(text, file: "again")
                    #expect(TraceEncoder.encode(again) == text, "\(what): re-encoding changes the trace")
                    read += 1
                } catch {
                    Self.expectGoodError(error, what)
                    rejected += 1
                }
            }
        }
        #expect(read > 20 && rejected > 100, "read \(read), rejected \(rejected)")
    }

    @Test func geteventReaderLocatesEveryError() throws {
        var rng = SeededRandom(seed: 212)
        let recordings = Fixtures.files(under: "Traces/real/getevent", suffix: ".txt").prefix(6)
        #expect(!recordings.isEmpty)
        for url in recordings {
            let bytes = Array(try Data(contentsOf: url).prefix(16 * 1024))
            for k in 0..<Self.mutantsPerSeed {
                do {
                    _ = try GeteventReader.read(bytes: Self.mutate(bytes, &rng), file: url.lastPathComponent)
                } catch {
                    Self.expectGoodError(error, "\(url.lastPathComponent) mutant \(k)")
                }
            }
        }
    }
}
