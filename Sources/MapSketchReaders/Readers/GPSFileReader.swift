// One entry point for GPS files: picks the reader by content, else by file name, and streams.

import MapSketchGeometry

/// A GPS track file format.
public enum GPSFormat: String, Hashable, Sendable, Codable, CaseIterable {
    /// GPX 1.0/1.1, optionally gzip-compressed (`GPXReader`).
    case gpx
    /// NMEA 0183 sentences (`NMEAReader`).
    case nmea
    /// One GeoJSON Point Feature per line (`GeoJSONLinesReader`).
    case geoJSONLines
}

/// Reads any supported GPS file: GPX, NMEA 0183 or GeoJSON Lines, each possibly gzip-compressed
/// or UTF-16, from memory or streamed from a file, a FIFO or standard input.
///
/// The format comes from, in order: the caller (`format:`), the content (``sniff(_:)``), the file
/// name (``format(forFileName:)``). Content wins over a name, so a GPX saved as `.log` reads as
/// GPX; input that is none of the formats is an error (`.unrecognizedFormat`), never "0 fixes".
///
/// ```swift
/// let track = try GPSFileReader.read(bytes: Array(data), fileName: "ride.gpx.gz")
/// var reader = try GPSFileReader.open(try FileByteSource(path: "drive.log"), fileName: "drive.log")
/// while let fix = try reader.next() { … }
/// ```
public enum GPSFileReader {
    /// The formats every error names.
    static let expectedFormats = "a GPX, NMEA 0183 or GeoJSON Lines file"

    /// The format a file name implies: `.gpx`, `.gpx.gz` → GPX; `.nmea`, `.nma`, `.log` → NMEA;
    /// `.geojsonl`, `.geojsons`, `.geojson`, `.jsonl`, `.ndjson` → GeoJSON Lines (each also with
    /// `.gz`). Case-insensitive.
    public static func format(forFileName name: String) -> GPSFormat? {
        var lower = name.lowercased()
        if lower.hasSuffix(".gz") { lower.removeLast(3) }
        if lower.hasSuffix(".gpx") { return .gpx }
        if lower.hasSuffix(".nmea") || lower.hasSuffix(".nma") || lower.hasSuffix(".log") { return .nmea }
        for s in [".geojsonl", ".geojsons", ".geojson", ".jsonl", ".ndjson"] where lower.hasSuffix(s) { return .geoJSONLines }
        return nil
    }

    /// The format the content shows (gzip and UTF-16 decoded first): `<` as the first non-blank
    /// character → GPX; `{` → GeoJSON Lines; `$` or `!`, or an NMEA sentence start (`$` and a
    /// five-letter address then a comma, e.g. `$GPGGA,`) in the first 4 KiB → NMEA; else nil.
    /// - Complexity: O(4 KiB).
    public static func sniff(_ bytes: [UInt8]) -> GPSFormat? {
        guard let head = try? InputEncoding.decode(MemoryByteSource(bytes), file: nil).head else {
            return Gzip.isGzip(bytes) ? .gpx : nil
        }
        return contentFormat(head)
    }

    /// ``sniff(_:)`` of already decoded text.
    static func contentFormat(_ head: [UInt8]) -> GPSFormat? {
        var i = 0
        if head.count >= 3, head[0] == 0xEF, head[1] == 0xBB, head[2] == 0xBF { i = 3 }
        while i < head.count, ASCII.isSpace(head[i]) { i += 1 }
        guard i < head.count else { return nil }
        switch head[i] {
        case ASCII.lt: return .gpx
        case 0x7B: return .geoJSONLines
        case ASCII.dollar, ASCII.bang: return .nmea
        default: break
        }
        // A sentence further in (after comments, timestamps or receiver noise): `$` + 5 letters or digits + `,`.
        var k = i
        while k + 7 <= head.count {
            if head[k] == ASCII.dollar, head[k + 6] == ASCII.comma,
                head[(k + 1)...(k + 5)].allSatisfy({ (0x41...0x5A).contains($0) || ASCII.isDigit($0) })
            {
                return .nmea
            }
            k += 1
        }
        return nil
    }

    /// A short description of input that is no known format, for errors: an escaped excerpt of
    /// its first line, or "binary data" with its first bytes in hex.
    static func describe(_ head: [UInt8]) -> String {
        if head.allSatisfy(ASCII.isSpace) { return head.isEmpty ? "an empty file" : "only blank lines" }
        let sample = head.prefix(64)
        let binary = sample.filter { $0 < 0x09 || ($0 > 0x0D && $0 < 0x20) || $0 == 0x7F }.count
        if binary * 8 > sample.count || String(validating: sample, as: UTF8.self) == nil && binary > 0 {
            let hex = head.prefix(8).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined(separator: " ")
            return "binary data (first bytes \(hex))"
        }
        let line = head.prefix { $0 != ASCII.lf && $0 != ASCII.cr }
        return "'" + InputExcerpt.excerpt(String(decoding: line, as: UTF8.self)) + "'"
    }

    /// Opens a track for streaming: decodes gzip and UTF-16, picks the format (see the type's
    /// documentation) and returns a reader holding one window of the input at a time.
    /// - Throws: `ReaderError`: `.unrecognizedFormat` when neither the caller, the content nor
    ///   the name gives a format; what the source throws.
    public static func open(
        _ source: any ByteSource, fileName: String? = nil, format: GPSFormat? = nil,
        nmeaOptions: NMEAReader.Options = NMEAReader.Options()
    ) throws -> GPSTrackReader {
        let (decoded, head) = try InputEncoding.decode(source, file: fileName)
        let chosen = format ?? contentFormat(head) ?? fileName.flatMap(Self.format(forFileName:))
        guard let chosen else {
            throw ReaderError(
                file: fileName, line: 1, column: 1, kind: .unrecognizedFormat(expected: expectedFormats, found: describe(head)))
        }
        return GPSTrackReader(format: chosen, source: decoded, file: fileName, nmeaOptions: nmeaOptions)
    }

    /// Reads a track, choosing the reader from the content, else from `fileName`.
    /// NMEA statistics are not kept. `nmeaOptions`
    /// apply to NMEA input only (default: no week-rollover correction, the receiver's dates).
    /// - Throws: `ReaderError` from the reader, or `.unrecognizedFormat` at 1:1 when the format is unknown.
    /// - Complexity: O(n) in the input bytes.
    public static func read(
        bytes: [UInt8], fileName: String? = nil, nmeaOptions: NMEAReader.Options = NMEAReader.Options()
    ) throws -> GPSTrack {
        try open(MemoryByteSource(bytes), fileName: fileName, nmeaOptions: nmeaOptions).readRemaining()
    }

    /// Reads a track in a known format with what the reader counted on the way: the NMEA
    /// reader's statistics (sentences with a bad checksum, of unused types, …) for NMEA input,
    /// nil for the others; `file` labels errors.
    /// - Throws: `ReaderError` from the format's reader.
    /// - Complexity: O(n) in the input bytes.
    package static func readWithStatistics(
        bytes: [UInt8], format: GPSFormat, file: String? = nil, nmeaOptions: NMEAReader.Options = NMEAReader.Options()
    ) throws -> (track: GPSTrack, nmea: NMEAReader.Statistics?) {
        switch format {
        case .nmea:
            let r = try NMEAReader.readAll(bytes: bytes, file: file, options: nmeaOptions)
            return (r.track, r.statistics)
        case .gpx, .geoJSONLines:
            return (try read(bytes: bytes, format: format, file: file, nmeaOptions: nmeaOptions), nil)
        }
    }

    /// Reads a track in a known format; `file` labels errors.
    /// - Throws: `ReaderError` from the format's reader.
    /// - Complexity: O(n) in the input bytes.
    public static func read(
        bytes: [UInt8], format: GPSFormat, file: String? = nil, nmeaOptions: NMEAReader.Options = NMEAReader.Options()
    ) throws -> GPSTrack {
        switch format {
        case .gpx: return try GPXReader.readAll(bytes: bytes, file: file)
        case .nmea:
            var reader = NMEAReader(
                input: InputEncoding.buffer(bytes: bytes, limit: NMEAReader.maximumLineLength, file: file), file: file,
                options: nmeaOptions)
            return try reader.readRemaining(expectedFixes: bytes.count / 150).track
        case .geoJSONLines:
            var reader = GeoJSONLinesReader(
                input: InputEncoding.buffer(bytes: bytes, limit: GeoJSONLinesReader.maximumLineLength, file: file), file: file)
            return try reader.readRemaining()
        }
    }
}

/// A GPS track being read, in any of the formats: fixes one at a time, then the waypoints, the
/// segment count and (NMEA) the reader's statistics. Made by ``GPSFileReader/open(_:fileName:format:nmeaOptions:)``.
///
/// A reference (the stream it reads has identity): the format's reader is advanced in place.
public final class GPSTrackReader {
    /// The format being read.
    public let format: GPSFormat
    /// The format's reader (exactly one is set), each in a box of its own so that `next()` advances
    /// it in place rather than through a copy of the reader's state.
    let gpxBox: Box<GPXReader>?
    let nmeaBox: Box<NMEAReader>?
    let geoJSONBox: Box<GeoJSONLinesReader>?
    private var fixCount = 0

    final class Box<Reader> {
        var reader: Reader
        init(_ reader: Reader) { self.reader = reader }
    }


    init(format: GPSFormat, source: any ByteSource, file: String?, nmeaOptions: NMEAReader.Options) {
        self.format = format
        gpxBox = format == .gpx ? Box(GPXReader(input: InputBuffer(source: source, limit: GPXReader.maximumMarkupLength), file: file)) : nil
        nmeaBox =
            format == .nmea
            ? Box(
                NMEAReader(
                    input: InputBuffer(source: source, limit: NMEAReader.maximumLineLength), file: file,
                    options: nmeaOptions))
            : nil
        geoJSONBox =
            format == .geoJSONLines
            ? Box(GeoJSONLinesReader(input: InputBuffer(source: source, limit: GeoJSONLinesReader.maximumLineLength), file: file)) : nil
    }

    /// The next fix in file order, or nil at the end.
    /// - Throws: `ReaderError` from the format's reader.
    /// - Complexity: amortised O(bytes up to the next fix).
    public func next() throws -> GPSFix? {
        let fix: GPSFix?
        if let box = nmeaBox {
            fix = try box.reader.next()
        } else if let box = gpxBox {
            fix = try box.reader.next()
        } else {
            fix = try geoJSONBox?.reader.next()
        }
        if fix != nil { fixCount += 1 }
        return fix
    }

    /// Waypoints seen so far (GPX `<wpt>`; none in the other formats).
    public var waypoints: [GPSWaypoint] { gpxBox?.reader.waypoints ?? [] }

    /// Segments seen so far: GPX `<trkseg>` and `<rte>`, one more than the largest GeoJSON
    /// `segment`, 1 for NMEA with any fix.
    public var segmentCount: Int {
        if let box = gpxBox { return box.reader.segmentCount }
        if let box = geoJSONBox { return box.reader.largestSegment + 1 }
        return fixCount > 0 ? 1 : 0
    }

    /// The NMEA reader's counts (nil for the other formats).
    package var nmeaStatistics: NMEAReader.Statistics? { nmeaBox?.reader.statistics }


    /// Reads the remaining fixes into a track.
    /// - Throws: `ReaderError` from the format's reader.
    /// - Complexity: O(n) in the input bytes; memory O(fixes).
    public func readRemaining() throws -> GPSTrack {
        var fixes: [GPSFix] = []
        while let fix = try next() { fixes.append(fix) }
        return GPSTrack(fixes: fixes, waypoints: waypoints, segmentCount: segmentCount)
    }
}
