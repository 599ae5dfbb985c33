import Foundation
import MapSketchTestSupport
@testable import MapSketchReaders
import Testing

/// What a read produced: the fixes up to the end or the first error, and the error.
struct ReadOutcome: Equatable {
    var fixes: [GPSFix] = []
    var error: ReaderError?
    var waypoints: [GPSWaypoint] = []
    var segments = 0
}

/// Every GPS reader over a source, or its bytes whole.
enum Readers {
    static func drain(_ next: () throws -> GPSFix?) -> (fixes: [GPSFix], error: ReaderError?) {
        var fixes: [GPSFix] = []
        do {
            while let f = try next() { fixes.append(f) }
            return (fixes, nil)
        } catch let e as ReaderError {
            return (fixes, e)
        } catch {
            Issue.record("unexpected error \(error)")
            return (fixes, nil)
        }
    }

    /// Reads `bytes` as `format` whole, or streamed through windows of `chunk` bytes filled by
    /// pieces of random size.
    static func read(_ bytes: [UInt8], _ format: GPSFormat, chunk: Int? = nil, seed: UInt64 = 1) -> ReadOutcome {
        var out = ReadOutcome()
        do {
            if let chunk {
                let decoded = try InputEncoding.decode(ChunkedSource(bytes, seed: seed), file: "f").source
                switch format {
                case .gpx:
                    var r = GPXReader(input: InputBuffer(source: decoded, limit: 1 << 20, chunk: chunk), file: "f")
                    (out.fixes, out.error) = drain { try r.next() }
                    (out.waypoints, out.segments) = (r.waypoints, r.segmentCount)
                case .nmea:
                    var r = NMEAReader(input: InputBuffer(source: decoded, limit: 1 << 20, chunk: chunk), file: "f", options: .init())
                    (out.fixes, out.error) = drain { try r.next() }
                case .geoJSONLines:
                    var r = GeoJSONLinesReader(input: InputBuffer(source: decoded, limit: 1 << 20, chunk: chunk), file: "f")
                    (out.fixes, out.error) = drain { try r.next() }
                    out.segments = r.largestSegment + 1
                }
            } else {
                switch format {
                case .gpx:
                    var r = try GPXReader(bytes: bytes, file: "f")
                    (out.fixes, out.error) = drain { try r.next() }
                    (out.waypoints, out.segments) = (r.waypoints, r.segmentCount)
                case .nmea:
                    var r = NMEAReader(bytes: bytes, file: "f")
                    (out.fixes, out.error) = drain { try r.next() }
                case .geoJSONLines:
                    var r = GeoJSONLinesReader(bytes: bytes, file: "f")
                    (out.fixes, out.error) = drain { try r.next() }
                    out.segments = r.largestSegment + 1
                }
            }
        } catch let e as ReaderError {
            out.error = e
        } catch {
            Issue.record("unexpected error \(error)")
        }
        return out
    }
}

@Suite struct StreamingReaderTests {
    static let corpus: [(String, GPSFormat)] =
        Fixtures.files(under: "Traces/real/gpx", suffix: ".gpx").map { ($0.path, .gpx) }
        + Fixtures.files(under: "Traces/real/gpx", suffix: ".gpx.gz").map { ($0.path, .gpx) }
        + Fixtures.files(under: "Traces/real/nmea", suffix: ".log").map { ($0.path, .nmea) }

    @Test func everyCorpusTrackReadsTheSameInWindowsCutAnywhere() throws {
        #expect(Self.corpus.count >= 15)
        var total = 0
        for (path, format) in Self.corpus {
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            let whole = Readers.read(bytes, format)
            #expect(whole.error == nil, "\(path): \(whole.error.map { "\($0)" } ?? "")")
            total += whole.fixes.count + whole.waypoints.count
            for (seed, chunk) in [(1, 1), (2, 7), (3, 64), (4, 4096)] as [(UInt64, Int)] {
                let same = Readers.read(bytes, format, chunk: chunk, seed: seed) == whole
                #expect(same, "\(path) in windows of \(chunk)")
            }
        }
        #expect(total > 4000, "the corpus has tracks to read")
    }

    @Test func errorsAreTheSameInWindowsCutAnywhere() {
        // A damaged document of each format: the same fixes before the error and the same location.
        let gpx = "<gpx>\n<trk><trkseg>\n<trkpt lat=\"1\" lon=\"2\"><ele>5</ele></trkpt>\n  <trkpt lat=\"91\" lon=\"2\"/></trkseg></trk></gpx>"
        let unclosed = "<gpx>\n<trk>\n<trkseg>\n<!-- a comment\nover lines -->\n<trkpt lat=\"1\" lon=\"2\">"
        let nmea = "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47\n$GPGGA,123520,48x7.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*"
        let geo = "{\"type\":\"Point\",\"coordinates\":[1,2]}\n\n{\"type\":\"Point\",\"coordinates\":[1,91]}\n"
        for (text, format) in [(gpx, GPSFormat.gpx), (unclosed, .gpx), (nmea + checksum(nmea), .nmea), (geo, .geoJSONLines)] {
            let whole = Readers.read(Array(text.utf8), format)
            #expect(whole.error != nil, "\(text)")
            for chunk in [1, 2, 3, 5, 8, 13] {
                #expect(Readers.read(Array(text.utf8), format, chunk: chunk, seed: UInt64(chunk)) == whole, "\(format) in windows of \(chunk)")
            }
        }
    }

    /// The checksum that makes the last line of `text` (after `$`, up to `*`) valid.
    func checksum(_ text: String) -> String {
        let line = text.split(separator: "\n").last.map(String.init) ?? ""
        let body = line.dropFirst().prefix { $0 != "*" }
        let sum = body.utf8.reduce(UInt8(0), ^)
        return String(format: "%02X", sum)
    }

    @Test func lineEndsLFCRAndCRLFReadAlike() throws {
        for (path, format) in Self.corpus where !path.hasSuffix(".gz") {
            let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
            let unix = text.replacingOccurrences(of: "\r\n", with: "\n")
            let lf = Readers.read(Array(unix.utf8), format)
            let cr = Readers.read(Array(unix.replacingOccurrences(of: "\n", with: "\r").utf8), format)
            let crlf = Readers.read(Array(unix.replacingOccurrences(of: "\n", with: "\r\n").utf8), format)
            let (sameCR, sameCRLF) = (cr == lf, crlf == lf)
            #expect(sameCR, "\(path) with CR line ends")
            #expect(sameCRLF, "\(path) with CR LF line ends")
            let sameStreamed = Readers.read(Array(unix.replacingOccurrences(of: "\n", with: "\r").utf8), format, chunk: 5) == lf
            #expect(sameStreamed, "\(path) streamed with CR line ends")
        }
    }

    @Test func nmeaWithCROnlyLineEndsIsParsedNotZeroFixes() throws {
        let log = "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47\r$GPGGA,123520,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*4D\r"
        let out = Readers.read(Array(log.utf8), .nmea)
        #expect(out.error == nil)
        #expect(out.fixes.map(\.line) == [1, 2])
    }

    @Test func utf16InputIsTranscoded() throws {
        let gpxText = try Fixtures.string("Traces/real/gpx/gpxgo/file.gpx")
        let nmeaText = try Fixtures.string("Traces/real/nmea/gpsd/ublox-8.log")
        for (text, format) in [(gpxText, GPSFormat.gpx), (nmeaText, .nmea)] {
            let utf8 = Readers.read(Array(text.utf8), format)
            let le = text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
            let be = text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
            // With a byte-order mark, and without one (found by the NUL bytes of ASCII text).
            for bytes in [[0xFF, 0xFE] + le, [0xFE, 0xFF] + be, le, be] {
                let (whole, streamed) = (Readers.read(bytes, format) == utf8, Readers.read(bytes, format, chunk: 3) == utf8)
                #expect(whole && streamed, "\(format), \(bytes.prefix(2))")
                #expect(try GPSFileReader.read(bytes: bytes).fixes == utf8.fixes, "sniffed through UTF-16")
            }
        }
    }

    @Test func contentWinsOverTheFileName() throws {
        let gpx = Array(try Fixtures.data("Traces/real/gpx/gpxgo/file.gpx"))
        #expect(try GPSFileReader.read(bytes: gpx, fileName: "saved-as.log").fixes.count == 4, "a GPX saved as .log")
        let nmea = Array(try Fixtures.data("Traces/real/nmea/gpsd/ublox-8.log"))
        #expect(try GPSFileReader.read(bytes: nmea, fileName: "track.gpx").fixes.count == 72)
        // Gzip of NMEA, gzip of UTF-16.
        let gz = try gzip(nmea)
        #expect(try GPSFileReader.read(bytes: gz, fileName: "track.nmea.gz").fixes.count == 72)
        #expect(GPSFileReader.format(forFileName: "track.nmea.gz") == .nmea)
    }

    @Test(arguments: [
        ("random.log", [UInt8]((0..<3000).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ $0 >> 3) })),
        ("random.bin", [UInt8]((0..<3000).map { UInt8(truncatingIfNeeded: $0 &* 2654435761 >> 7) })),
        ("notes.txt", Array("just some notes\nabout a walk\n".utf8)),
        ("notes.nmea", Array("just some notes\nabout a walk\n".utf8)),
    ])
    func bytesOfNoFormatAreAnErrorNotZeroFixes(name: String, bytes: [UInt8]) {
        do {
            let track = try GPSFileReader.read(bytes: bytes, fileName: name)
            Issue.record("\(name) read as \(track.fixes.count) fixes")
        } catch let e as ReaderError {
            guard case .unrecognizedFormat = e.kind else {
                Issue.record("\(name): \(e)")
                return
            }
            #expect(e.line == 1 && e.column == 1)
            #expect(!e.description.unicodeScalars.contains { $0.value < 0x20 }, "no raw control characters: \(e)")
        } catch {
            Issue.record("\(error)")
        }
        // The NMEA reader itself, given them as NMEA, says so too.
        var nmea = NMEAReader(bytes: bytes, file: name)
        #expect(throws: ReaderError.self) { while try nmea.next() != nil {} }
    }

    @Test func characterReferencesInAttributesAreDecoded() throws {
        let doc = #"<gpx><wpt lat="4&#54;.5" lon="&#x31;4.25"/><trk><trkseg><trkpt lat=" 1&#46;5 " lon="2"/></trkseg></trk></gpx>"#
        var r = try GPXReader(text: doc)
        let fix = try r.next()
        #expect(fix?.latitude == 1.5)
        #expect(try r.next() == nil)
        #expect(r.waypoints.first?.fix.latitude == 46.5)
        #expect(r.waypoints.first?.fix.longitude == 14.25)
        var bad = try GPXReader(text: #"<gpx><wpt lat="4&#xZZ;" lon="1"/></gpx>"#, file: "b.gpx")
        #expect(throws: ReaderError.self) { _ = try bad.next() }
    }

    @Test func errorMessagesEscapeControlBytesAndCapExcerpts() {
        let huge = String(repeating: "9", count: 50_000)
        var r = try? GPXReader(text: "<gpx><wpt lat=\"1\" lon=\"2\"><ele>\u{1B}[31m\u{0}" + huge + "</ele></wpt></gpx>", file: "e.gpx")
        do {
            while try r?.next() != nil {}
            Issue.record("read")
        } catch {
            let message = "\(error)"
            #expect(message.hasPrefix("e.gpx:1:32: expected a number for ele, found '\\u001B[31m\\u0000999"), "\(message)")
            #expect(message.contains("… (50006 bytes)"))
            #expect(message.count < 200)
        }
        var n = NMEAReader(text: "$GPGGA,1235\u{7}9,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,\n", file: "n.nmea")
        do {
            _ = try n.next()
            Issue.record("read")
        } catch {
            #expect("\(error)" == "n.nmea:1:8: expected an ISO 8601 time, found '1235\\u00079'")
        }
    }

    @Test func aGzipBombStreamsInBoundedMemory() throws {
        // 8 MiB of spaces inside the root: valid XML all the way, so read to the end, in a
        // window that never grows (the whole array would be 8 MiB).
        let mib = 1 << 20
        let suffix = "<wpt lat=\"1\" lon=\"2\"/></gpx>"
        let spaces = gzipBomb(prefix: "<gpx>", pattern: " ", count: 8 * mib, suffix: suffix)
        #expect(spaces.count < 60_000)
        #expect(try Gzip.decompress(spaces).count == 8 * mib + 5 + suffix.utf8.count, "the bomb is well-formed")
        var reader = try GPXReader(bytes: spaces, file: "bomb.gpx.gz")
        #expect(try reader.next() == nil)
        #expect(reader.waypoints.count == 1)
        #expect(reader.windowBytes <= 512 * 1024, "window \(reader.windowBytes)")
        // `<a>` repeated: the root is not <gpx>, so reading stops at the first tag, having
        // inflated one burst, not 8 MiB.
        let tags = gzipBomb(prefix: "", pattern: "<a>", count: 8 * mib - 2)
        var stops = try GPXReader(bytes: tags, file: "a.gpx.gz")
        #expect(throws: ReaderError(file: "a.gpx.gz", line: 1, column: 1, kind: .syntax(expected: "<gpx> root element"))) {
            _ = try stops.next()
        }
        #expect(stops.windowBytes <= 512 * 1024)
        // Inside <gpx>, the nesting limit stops it.
        var nested = try GPXReader(bytes: gzipBomb(prefix: "<gpx>", pattern: "<a>", count: 8 * mib - 2), file: "n.gpx.gz")
        #expect(throws: ReaderError.self) { _ = try nested.next() }
        // Through the sniffing entry point too: gzip found by content, memory bounded.
        let sniffed = try GPSFileReader.open(MemoryByteSource(spaces), fileName: "bomb")
        #expect(sniffed.format == .gpx)
        #expect(try sniffed.next() == nil)
        #expect(sniffed.windowBytes <= 512 * 1024)
    }

    @Test func deeplyNestedElementsStopAtTheDepthLimit() {
        let doc = "<gpx>" + String(repeating: "<a>", count: 10_000)
        let out = Readers.read(Array(doc.utf8), .gpx, chunk: 4096)
        #expect(out.error?.description == "f:1:771: expected elements nested at most 256 deep")
    }

    @Test func aMeasurementsTextIsCapped() {
        let doc = "<gpx><wpt lat=\"1\" lon=\"2\"><name>" + String(repeating: "a", count: 200_000)
        let out = Readers.read(Array(doc.utf8), .gpx, chunk: 4096)
        #expect(out.error?.kind == .tooLong(what: "the text of a <name> element", limit: GPXReader.maximumTextLength))
        #expect(out.error?.line == 1 && out.error?.column == 33)
    }

    /// The window a streaming reader scans grows only while one token fills it, never past its
    /// limit, and never shrinks: its size after a read is the most input held at once (what the
    /// bounded-memory tests read).
    @Test func theWindowOnlyGrowsUpToItsLimit() throws {
        var rng = SeededRandom(seed: 1024)
        var text: [UInt8] = []
        for _ in 0..<400 {
            // Mostly short lines, a few long ones, one nearly as long as the limit.
            let n = rng.int(in: 0...20) == 0 ? rng.int(in: 300...3_000) : rng.int(in: 0...80)
            text += Array(repeating: UInt8(ascii: "x"), count: n) + [0x0A]
        }
        text += Array(repeating: UInt8(ascii: "y"), count: 7_000) + [0x0A]
        text += Array(repeating: UInt8(ascii: "z"), count: 100) + [0x0A]
        var input = InputBuffer(source: ChunkedSource(text, seed: 7, largest: 700), limit: 8_192, chunk: 256)
        var sizes: [Int] = [input.storage.count]
        var longest = 0
        var keep = 0
        // Reads line by line as the readers do: refills keep the unfinished line.
        while true {
            var end = keep
            while end < input.count, input.storage[end] != 0x0A { end += 1 }
            if end < input.count {
                longest = max(longest, end - keep + 1)
                keep = end + 1
                continue
            }
            let base = input.base
            guard try input.refill(keepingFrom: keep) else { break }
            keep -= input.base - base
            sizes.append(input.storage.count)
        }
        #expect(zip(sizes, sizes.dropFirst()).allSatisfy { $0 <= $1 }, "the window never shrinks")
        #expect(sizes.last == sizes.max() && sizes.last! <= 8_192, "its size is the most it held: \(sizes.max() ?? 0)")
        #expect(sizes.last! >= longest && longest == 7_001, "and at least the longest line")
        #expect(sizes.last! < 2 * 8_192 && sizes.last! < text.count, "not the whole input")
    }

    @Test func aLongLineIsAnErrorAtItsLine() {
        var r = NMEAReader(input: InputBuffer(source: MemoryByteSource(Array(("$GPGGA\n" + String(repeating: "x", count: 5000)).utf8)), limit: 1024, chunk: 256), file: "l", options: .init())
        #expect(throws: ReaderError(file: "l", line: 2, column: 1, kind: .tooLong(what: "the line", limit: 1024))) {
            while try r.next() != nil {}
        }
    }

    @Test func filesThatCannotBeReadSayWhy() throws {
        func reason(_ path: String) -> String {
            do {
                _ = try FileByteSource(path: path, file: "x")
                return "opened"
            } catch {
                return "\(error)"
            }
        }
        #expect(reason("/no/such/file.gpx") == "x:1:1: cannot read the file: not found")
        #expect(reason(FileManager.default.temporaryDirectory.path) == "x:1:1: cannot read the file: is a folder, expected a file")
        if geteuid() != 0 {  // root reads anything
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("locked-\(UUID().uuidString)")
            try Data("x".utf8).write(to: url)
            defer { try? FileManager.default.removeItem(at: url) }
            #expect(chmod(url.path, 0) == 0)
            #expect(reason(url.path) == "x:1:1: cannot read the file: permission denied")
        }
    }

    @Test func aFIFOStreams() throws {
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("gps-\(UUID().uuidString).fifo")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        defer { try? FileManager.default.removeItem(at: fifo) }
        let bytes = Array(try Fixtures.data("Traces/real/nmea/gpsd/ublox-8.log"))
        let writer = Thread {
            guard let h = FileHandle(forWritingAtPath: fifo.path) else { return }
            for piece in stride(from: 0, to: bytes.count, by: 1000) { h.write(Data(bytes[piece..<min(bytes.count, piece + 1000)])) }
            try? h.close()
        }
        writer.start()
        let reader = try GPSFileReader.open(try FileByteSource(path: fifo.path), fileName: "pipe")
        #expect(reader.format == .nmea)
        #expect(try reader.readRemaining().fixes.count == 72)
    }
}
