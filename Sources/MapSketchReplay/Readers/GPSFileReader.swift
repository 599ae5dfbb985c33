// One entry point for GPS files: picks the reader by file name, else by content.

/// A GPS track file format.
public enum GPSFormat: String, Hashable, Sendable, Codable, CaseIterable {
    /// GPX 1.0/1.1, optionally gzip-compressed (`GPXReader`).
    case gpx
    /// NMEA 0183 sentences (`NMEAReader`).
    case nmea
    /// One GeoJSON Point Feature per line (`GeoJSONLinesReader`).
    case geoJSONLines
}

/// Reads any supported GPS file into a `GPSTrack`.
///
/// ```swift
/// let track = try GPSFileReader.read(bytes: Array(data), fileName: "ride.gpx.gz")
/// ```
public enum GPSFileReader {
    /// The format a file name implies: `.gpx`, `.gpx.gz` → GPX; `.nmea`, `.nma`, `.log` → NMEA;
    /// `.geojsonl`, `.geojsons`, `.geojson`, `.jsonl`, `.ndjson` → GeoJSON Lines. Case-insensitive.
    public static func format(forFileName name: String) -> GPSFormat? {
        let lower = name.lowercased()
        if lower.hasSuffix(".gpx") || lower.hasSuffix(".gpx.gz") { return .gpx }
        if lower.hasSuffix(".nmea") || lower.hasSuffix(".nma") || lower.hasSuffix(".log") { return .nmea }
        for s in [".geojsonl", ".geojsons", ".geojson", ".jsonl", ".ndjson"] where lower.hasSuffix(s) { return .geoJSONLines }
        return nil
    }

    /// The format the first non-blank byte suggests: gzip magic or `<` → GPX, `$` or `#` → NMEA,
    /// `{` → GeoJSON Lines; nil otherwise.
    /// - Complexity: O(leading whitespace).
    public static func sniff(_ bytes: [UInt8]) -> GPSFormat? {
        if Gzip.isGzip(bytes) { return .gpx }
        var i = 0
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { i = 3 }
        while i < bytes.count, ASCII.isSpace(bytes[i]) { i += 1 }
        guard i < bytes.count else { return nil }
        switch bytes[i] {
        case ASCII.lt: return .gpx
        case ASCII.dollar, ASCII.hash: return .nmea
        case 0x7B: return .geoJSONLines
        default: return nil
        }
    }

    /// Reads a track, choosing the reader from `fileName` (else from the content).
    /// NMEA statistics are dropped here; use `NMEAReader.readAll` to see them. `nmeaOptions`
    /// apply to NMEA input only (default: no week-rollover correction, the receiver's dates).
    /// - Throws: `ReaderError` from the reader, or `.syntax` at 1:1 when the format is unknown.
    /// - Complexity: O(n) in the input bytes.
    public static func read(
        bytes: [UInt8], fileName: String? = nil, nmeaOptions: NMEAReader.Options = NMEAReader.Options()
    ) throws -> GPSTrack {
        guard let format = fileName.flatMap(format(forFileName:)) ?? sniff(bytes) else {
            throw ReaderError(file: fileName, line: 1, column: 1, kind: .syntax(expected: "a GPX, NMEA 0183 or GeoJSON Lines file"))
        }
        return try read(bytes: bytes, format: format, file: fileName, nmeaOptions: nmeaOptions)
    }

    /// Reads a track in a known format with what the reader counted on the way: the NMEA
    /// reader's statistics (sentences with a bad checksum, of unused types, …) for NMEA input,
    /// nil for the others; `file` labels errors.
    /// - Throws: `ReaderError` from the format's reader.
    /// - Complexity: O(n) in the input bytes.
    public static func readWithStatistics(
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
        case .nmea: return try NMEAReader.readAll(bytes: bytes, file: file, options: nmeaOptions).track
        case .geoJSONLines: return try GeoJSONLinesReader.readAll(bytes: bytes, file: file)
        }
    }
}
