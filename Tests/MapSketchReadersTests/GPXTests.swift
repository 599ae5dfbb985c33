import Foundation
@_spi(MapSketchInternal) import MapSketchReaders
import MapSketchTestSupport
import Testing

/// What each real GPX file holds. `fixes` is also cross-checked against a plain count of
/// `<trkpt`/`<rtept` in the (decompressed) bytes, so the table cannot drift from the files.
struct GPXExpectation: Sendable, CustomTestStringConvertible {
    var path: String
    var fixes: Int
    var segments: Int
    var waypoints: Int
    var timed: Int
    var testDescription: String { path }
}

@Suite struct GPXTests {
    static let expectations: [GPXExpectation] = [
        .init(path: "gpxgo/file.gpx", fixes: 4, segments: 1, waypoints: 2, timed: 4),
        .init(path: "gpxgo/gpx-without-root-attributes.gpx", fixes: 1, segments: 1, waypoints: 0, timed: 1),
        .init(path: "gpxgo/gpx-without-xml-declaration.gpx", fixes: 1, segments: 1, waypoints: 0, timed: 1),
        .init(path: "gpxgo/gpx1.1_with_extensions.gpx", fixes: 2, segments: 2, waypoints: 1, timed: 1),
        .init(path: "gpxgo/graphhopper.gpx.gz", fixes: 193, segments: 2, waypoints: 0, timed: 22),
        .init(path: "gpxgo/iso8859-1encoded.gpx", fixes: 0, segments: 0, waypoints: 8, timed: 0),
        .init(path: "gpxgo/visnjan.gpx", fixes: 413, segments: 1, waypoints: 2, timed: 413),
        .init(path: "gpxpy/Mojstrovka.gpx", fixes: 184, segments: 1, waypoints: 0, timed: 184),
        .init(path: "gpxpy/around-visnjan-with-car.gpx", fixes: 104, segments: 1, waypoints: 0, timed: 104),
        .init(path: "gpxpy/cerknicko-jezero-no-creator.gpx", fixes: 296, segments: 8, waypoints: 7, timed: 296),
        .init(path: "gpxpy/cerknicko-jezero-with-elevations-zero.gpx", fixes: 296, segments: 8, waypoints: 7, timed: 296),
        .init(path: "gpxpy/cerknicko-jezero-without-elevations.gpx", fixes: 296, segments: 8, waypoints: 7, timed: 295),
        .init(path: "gpxpy/cerknicko-jezero.gpx", fixes: 296, segments: 8, waypoints: 7, timed: 296),
        .init(path: "gpxpy/cerknicko-without-times.gpx", fixes: 296, segments: 8, waypoints: 7, timed: 5),
        .init(path: "gpxpy/custom_schema_locations.gpx", fixes: 0, segments: 0, waypoints: 0, timed: 0),
        .init(path: "gpxpy/default_schema_locations.gpx", fixes: 0, segments: 0, waypoints: 0, timed: 0),
        .init(path: "gpxpy/first_and_last_elevation.gpx", fixes: 10, segments: 1, waypoints: 0, timed: 10),
        .init(path: "gpxpy/gpx-with-node-with-comments.gpx", fixes: 1, segments: 1, waypoints: 0, timed: 1),
        .init(path: "gpxpy/gpx1.0_with_all_fields.gpx", fixes: 6, segments: 4, waypoints: 2, timed: 2),
        .init(path: "gpxpy/gpx1.1_with_all_fields.gpx", fixes: 6, segments: 4, waypoints: 2, timed: 2),
        .init(path: "gpxpy/gpx1.1_with_extensions.gpx", fixes: 0, segments: 0, waypoints: 1, timed: 0),
        .init(path: "gpxpy/gpx1.1_with_extensions_without_namespaces.gpx", fixes: 0, segments: 0, waypoints: 1, timed: 0),
        .init(path: "gpxpy/gpx_with_garmin_extension.gpx", fixes: 0, segments: 0, waypoints: 1, timed: 0),
        .init(path: "gpxpy/korita-zbevnica.gpx", fixes: 871, segments: 4, waypoints: 2, timed: 513),
        .init(path: "gpxpy/route.gpx", fixes: 55, segments: 1, waypoints: 0, timed: 0),
        .init(path: "gpxpy/track-with-empty-segment.gpx", fixes: 9, segments: 2, waypoints: 0, timed: 9),
        .init(path: "gpxpy/track-with-extremes.gpx", fixes: 25, segments: 1, waypoints: 0, timed: 0),
        .init(path: "gpxpy/track-with-less-sec-time.gpx", fixes: 2, segments: 1, waypoints: 0, timed: 2),
        .init(path: "gpxpy/track-with-small-floats.gpx", fixes: 3, segments: 1, waypoints: 0, timed: 0),
        .init(path: "gpxpy/track_with_dilution_errors.gpx", fixes: 2, segments: 2, waypoints: 1, timed: 0),
        .init(path: "gpxpy/track_with_speed.gpx", fixes: 3, segments: 1, waypoints: 0, timed: 3),
        .init(path: "gpxpy/unicode.gpx", fixes: 0, segments: 0, waypoints: 6, timed: 0),
        .init(path: "gpxpy/unicode2.gpx", fixes: 0, segments: 1, waypoints: 0, timed: 0),
        .init(path: "gpxpy/unicode_with_bom.gpx", fixes: 0, segments: 0, waypoints: 1, timed: 0),
        .init(path: "gpxpy/unicode_with_bom_noencoding.gpx", fixes: 0, segments: 0, waypoints: 1, timed: 0),
    ]

    static func read(_ path: String) throws -> GPSTrack {
        try GPXReader.readAll(bytes: Array(try Fixtures.data("Traces/real/gpx/" + path)), file: path)
    }

    static func occurrences(of needle: String, in bytes: [UInt8]) -> Int {
        let n = Array(needle.utf8)
        var count = 0
        var i = 0
        while i + n.count <= bytes.count {
            if bytes[i] == n[0], Array(bytes[i..<(i + n.count)]) == n { count += 1 }
            i += 1
        }
        return count
    }

    @Test func everyRealFileIsInTheTable() {
        let onDisk = (Fixtures.files(under: "Traces/real/gpx", suffix: ".gpx") + Fixtures.files(under: "Traces/real/gpx", suffix: ".gpx.gz"))
            .map { $0.deletingLastPathComponent().lastPathComponent + "/" + $0.lastPathComponent }
        #expect(Set(onDisk) == Set(Self.expectations.map(\.path)))
    }

    @Test(arguments: expectations) func realFile(_ e: GPXExpectation) throws {
        let track = try Self.read(e.path)
        print("GPX \(e.path): \(track.fixes.count) fixes, \(track.segmentCount) segments, \(track.waypoints.count) waypoints")
        #expect(track.fixes.count == e.fixes)
        #expect(track.segmentCount == e.segments)
        #expect(track.waypoints.count == e.waypoints)
        #expect(track.fixes.filter { $0.time != nil }.count == e.timed)
        var raw = Array(try Fixtures.data("Traces/real/gpx/" + e.path))
        if Gzip.isGzip(raw) { raw = try Gzip.decompress(raw) }
        #expect(Self.occurrences(of: "<trkpt", in: raw) + Self.occurrences(of: "<rtept", in: raw) == e.fixes)
        // Segments and lines never go backwards; coordinates in range.
        #expect(zip(track.fixes, track.fixes.dropFirst()).allSatisfy { $0.segment <= $1.segment && $0.line <= $1.line })
        #expect(track.fixes.allSatisfy { abs($0.latitude) <= 90 && abs($0.longitude) <= 180 })
    }

    @Test func valuesOfAPoint() throws {
        let track = try Self.read("gpxpy/cerknicko-jezero.gpx")
        let f = try #require(track.fixes.first)
        #expect(f.latitude == 45.772175035 && f.longitude == 14.357659249)
        #expect(f.elevation == 542.320923)
        #expect(f.time == GPSTime.parse("2010-08-05T14:23:59Z"))
        #expect(GPSTime.iso8601(try #require(f.time)) == "2010-08-05T14:23:59.000Z")
    }

    @Test func gpx10FieldsAndEmptySegment() throws {
        let track = try Self.read("gpxpy/gpx1.0_with_all_fields.gpx")
        let trkpt = try #require(track.fixes.first { $0.latitude == 10.1 })
        #expect(trkpt.longitude == -20.2)
        #expect(trkpt.elevation == 11.1)
        #expect(trkpt.hdop == 101)
        #expect(trkpt.mode == .threeD && trkpt.quality == .gps)
        #expect(trkpt.time == GPSTime.parse("2013-01-01T12:00:04Z"), "no zone means UTC")
        // Two routes (segments 0, 1) then a track whose second <trkseg> is empty.
        #expect(track.fixes.map(\.segment) == [0, 0, 0, 1, 1, 2])
        #expect(track.fixes(inSegment: 3).isEmpty && track.segmentCount == 4)
        #expect(track.waypoints.first?.name == "example name")
    }

    @Test func speedAndEmptySegmentFile() throws {
        #expect(try Self.read("gpxpy/track_with_speed.gpx").fixes.map(\.speed) == [1.2, 2.2, 3.2])
        let empty = try Self.read("gpxpy/track-with-empty-segment.gpx")
        #expect(empty.fixes.allSatisfy { $0.segment == 0 })
        #expect(empty.segmentCount == 2)
    }

    @Test func unicodeBOMAndCDATA() throws {
        #expect(try Self.read("gpxpy/unicode.gpx").waypoints.first?.name == "šđčćž")
        #expect(try Self.read("gpxpy/unicode_with_bom_noencoding.gpx").waypoints.first?.name == "bom noencoding ő")
        #expect(try Self.read("gpxpy/gpx-with-node-with-comments.gpx").fixes.first?.elevation == 81)
    }

    @Test func gzipMatchesPlainText() throws {
        let gz = Array(try Fixtures.data("Traces/real/gpx/gpxgo/graphhopper.gpx.gz"))
        let plain = try Gzip.decompress(gz)
        #expect(String(decoding: plain.prefix(5), as: UTF8.self) == "<?xml")
        #expect(try GPXReader.readAll(bytes: plain) == GPXReader.readAll(bytes: gz))
        var corrupt = gz
        corrupt[corrupt.count - 6] ^= 0xFF  // inside the ISIZE/CRC trailer
        #expect(throws: ReaderError.self) { _ = try GPXReader.readAll(bytes: corrupt, file: "x.gpx.gz") }
    }

    @Test func latin1NamesAreTranscoded() throws {
        var bytes = Array("<?xml version='1.0' encoding='ISO-8859-1'?><gpx><wpt lat='1' lon='2'><name>Caf".utf8)
        bytes.append(0xE9)  // é in Latin-1
        bytes += Array(" &amp; <![CDATA[<bar>]]> &#x263A;</name></wpt></gpx>".utf8)
        let track = try GPXReader.readAll(bytes: bytes)
        #expect(track.waypoints.first?.name == "Café & <bar> ☺")
        #expect(track.waypoints.first?.fix.latitude == 1)
    }

    @Test func extensionsAndUnknownElementsAreSkipped() throws {
        let text = """
            <gpx><trk><trkseg><trkpt lat="1" lon="2"><extensions><ele>999</ele><x:speed>9</x:speed></extensions>
            <ele>5</ele><unknown><ele>7</ele></unknown></trkpt><trkpt lat="-1.5" lon="-2.5"/></trkseg></trk></gpx>
            """
        let track = try GPXReader.readAll(bytes: Array(text.utf8))
        #expect(track.fixes.map(\.elevation) == [5, nil])
        #expect(track.fixes.map(\.speed) == [nil, nil])
        #expect(track.fixes.map(\.line) == [1, 2])
    }

    @Test func streamingEqualsReadAll() throws {
        let bytes = Array(try Fixtures.data("Traces/real/gpx/gpxpy/korita-zbevnica.gpx"))
        var reader = try GPXReader(bytes: bytes)
        var fixes: [GPSFix] = []
        while let f = try reader.next() { fixes.append(f) }
        #expect(fixes == (try GPXReader.readAll(bytes: bytes).fixes))
        #expect(reader.waypoints.count == 2)
    }

    static func failure(_ text: String) -> ReaderError? {
        do {
            _ = try GPXReader.readAll(bytes: Array(text.utf8), file: "bad.gpx")
            return nil
        } catch let e as ReaderError {
            return e
        } catch {
            return nil
        }
    }

    @Test func errorsNameLineAndColumn() {
        #expect(Self.failure("<gpx>\n<wpt lat=\"12a\" lon=\"1\"/></gpx>")
            == ReaderError(file: "bad.gpx", line: 2, column: 11, kind: .badNumber(field: "lat", found: "12a")))
        #expect(Self.failure("<gpx>\n  <wpt lat=\"1\" lon=\"181\"/></gpx>")
            == ReaderError(file: "bad.gpx", line: 2, column: 21, kind: .outOfRange(field: "lon", value: 181)))
        #expect(Self.failure("<gpx><trk><trkseg><trkpt lat=\"1\"/></trkseg></trk></gpx>")
            == ReaderError(file: "bad.gpx", line: 1, column: 19, kind: .missing(field: "lon attribute")))
        #expect(Self.failure("<gpx>\n<trk>\n<trkseg>\n</trk></gpx>")
            == ReaderError(file: "bad.gpx", line: 4, column: 1, kind: .mismatchedTag(expected: "trkseg", found: "trk")))
        #expect(Self.failure("<gpx>\n<trk>\n") == ReaderError(file: "bad.gpx", line: 2, column: 1, kind: .unclosedTag("trk")))
        #expect(Self.failure("<kml></kml>")
            == ReaderError(file: "bad.gpx", line: 1, column: 1, kind: .syntax(expected: "<gpx> root element")))
        #expect(Self.failure("<gpx><wpt lat='1' lon='1'><time>yesterday</time></wpt></gpx>")
            == ReaderError(file: "bad.gpx", line: 1, column: 33, kind: .badTime(found: "yesterday")))
        #expect(Self.failure("<gpx><wpt lat='1' lon='1'><ele>high</ele></wpt></gpx>")
            == ReaderError(file: "bad.gpx", line: 1, column: 32, kind: .badNumber(field: "ele", found: "high")))
        #expect(Self.failure("<?xml version='1.0' encoding='Shift_JIS'?><gpx/>")
            == ReaderError(file: "bad.gpx", line: 1, column: 31, kind: .unsupportedEncoding("Shift_JIS")))
        #expect(Self.failure("<gpx><!-- never closed") == ReaderError(file: "bad.gpx", line: 1, column: 6, kind: .unexpectedEnd(expected: "'-->'")))
        #expect(Self.failure("") == ReaderError(file: "bad.gpx", line: 1, column: 1, kind: .missing(field: "<gpx> root element")))
        #expect(Self.failure("<gpx><wpt lat='1' lon='1'><name>a &bogus; b</name></wpt></gpx>")?.line == 1)
        #expect(Self.failure("<gpx/>") == nil)
    }
}

@Suite struct GzipTests {
    // Made with Python's gzip.compress(…, mtime=0): level 0 gives a stored block, a short
    // repetitive text at level 9 a fixed-Huffman block (graphhopper.gpx.gz covers dynamic ones).
    static let stored: [UInt8] = [
        31, 139, 8, 0, 0, 0, 0, 0, 4, 3, 1, 33, 0, 222, 255, 60, 103, 112, 120, 62, 60, 119, 112, 116, 32, 108, 97, 116, 61,
        39, 49, 39, 32, 108, 111, 110, 61, 39, 50, 39, 47, 62, 60, 47, 103, 112, 120, 62, 20, 9, 123, 199, 33, 0, 0, 0,
    ]
    static let fixed: [UInt8] = [
        31, 139, 8, 0, 0, 0, 0, 0, 2, 3, 75, 76, 74, 78, 196, 64, 10, 25, 169, 57, 57, 249, 200, 36, 0, 64, 95, 163, 48,
        39, 0, 0, 0,
    ]

    @Test func storedFixedAndConcatenatedMembers() throws {
        #expect(String(decoding: try Gzip.decompress(Self.stored), as: UTF8.self) == "<gpx><wpt lat='1' lon='2'/></gpx>")
        #expect(String(decoding: try Gzip.decompress(Self.fixed), as: UTF8.self) == "abcabcabcabcabcabcabc hello hello hello")
        let both = try Gzip.decompress(Self.fixed + Self.stored)
        #expect(String(decoding: both, as: UTF8.self) == "abcabcabcabcabcabcabc hello hello hello<gpx><wpt lat='1' lon='2'/></gpx>")
        #expect(try GPXReader.readAll(bytes: Self.stored).waypoints.count == 1)
    }

    @Test func corruptDataIsAnErrorNotACrash() {
        var badCRC = Self.fixed
        badCRC[badCRC.count - 8] ^= 1
        #expect(throws: ReaderError(file: "f.gz", line: 1, column: 26, kind: .badCompression("CRC-32 mismatch"))) {
            _ = try Gzip.decompress(badCRC, file: "f.gz")
        }
        #expect(throws: ReaderError.self) { _ = try Gzip.decompress(Array(Self.fixed.prefix(20))) }
        var badMethod = Self.stored
        badMethod[2] = 7
        #expect(throws: ReaderError(file: nil, line: 1, column: 3, kind: .badCompression("compression method 7 is not deflate"))) {
            _ = try Gzip.decompress(badMethod)
        }
        // Every truncation and every single-byte flip fails cleanly or decodes; none crash.
        for n in 0..<Self.fixed.count { _ = try? Gzip.decompress(Array(Self.fixed.prefix(n))) }
        for i in 10..<Self.fixed.count {
            var b = Self.fixed
            b[i] ^= 0xA5
            _ = try? Gzip.decompress(b)
        }
    }
}

/// Mutated real inputs: every reader must either read them or throw `ReaderError`, never crash
/// or throw anything else.
@Suite struct ReaderRobustnessTests {
    @Test func mutatedInputs() throws {
        let gpx = Array(try Fixtures.data("Traces/real/gpx/gpxpy/gpx1.1_with_all_fields.gpx"))
        let nmea = Array(try Fixtures.data("Traces/real/nmea/gpsd/garmin48.log"))
        let geojson = Array(#"{"type":"Feature","geometry":{"type":"Point","coordinates":[14.5,46.05,3]},"properties":{"time":"2024-05-01T10:00:00Z","speed":1}}"#.utf8)
        var ok = 0
        for m in ByteMutations.mutations(of: gpx, seed: 1, count: 300) where ByteMutations.onlyReaderErrors({ _ = try GPXReader.readAll(bytes: m) }) { ok += 1 }
        for m in ByteMutations.mutations(of: nmea, seed: 2, count: 300) where ByteMutations.onlyReaderErrors({ _ = try NMEAReader.readAll(bytes: m) }) { ok += 1 }
        for m in ByteMutations.mutations(of: geojson, seed: 4, count: 300)
        where ByteMutations.onlyReaderErrors({ _ = try GeoJSONLinesReader.readAll(bytes: m) }) { ok += 1 }
        #expect(ok == 900)
    }
}
