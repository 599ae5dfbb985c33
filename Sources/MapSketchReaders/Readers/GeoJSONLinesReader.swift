// GeoJSON Lines (newline-delimited GeoJSON) reader for GPS fixes.
import MapSketchGeometry

/// Reads GPS fixes from GeoJSON Lines: one GeoJSON Point Feature (or bare Point geometry) per
/// line (RFC 7946 §3.1.2, §3.2; RFC 8142-style newline-delimited text without record separators).
///
/// Per line: `coordinates` are `[longitude, latitude]` or `[longitude, latitude, elevation]`;
/// Feature `properties` may give
/// - `time` (or `timestamp`): an ISO 8601 string, or a number of seconds since 1970 (a number
///   above 10^11 is taken as milliseconds, as JavaScript's `Date.now()` writes);
/// - `ele` / `elevation` / `altitude` (m; wins over a third coordinate), `accuracy` /
///   `horizontalAccuracy` (m), `hdop`, `speed` (m/s), `course` / `bearing` (degrees);
/// - `segment` (integer ≥ 0; default 0) — a new segment starts a new sketch part.
/// Other properties are ignored. Blank lines are skipped; a UTF-8 BOM is allowed.
///
/// Errors throw `ReaderError` with the file line and column: invalid JSON (from `JSONParser`), a
/// line that is not a Point Feature or Point, coordinates that are not 2–3 numbers, latitude or
/// longitude out of range, a time that is neither ISO 8601 nor a number, a property of the wrong
/// type.
///
/// Lines end at LF, CR or CR LF. Over a ``ByteSource`` the reader holds one line at a time (a
/// line longer than ``maximumLineLength`` throws `.tooLong`).
///
/// ```swift
/// let track = try GeoJSONLinesReader.readAll(bytes: Array(data), file: "walk.geojsonl")
/// var reader = GeoJSONLinesReader(source: try FileByteSource(path: "walk.geojsonl"))
/// while let fix = try reader.next() { … }
/// ```
/// - Complexity: O(n) in the input bytes; one parsed line is held at a time.
public struct GeoJSONLinesReader {
    /// The longest line the reader holds.
    package static let maximumLineLength = 16 << 20

    private var lines: LineReader
    /// The file name used in errors.
    public var file: String? { lines.file }
    /// The largest `segment` seen so far, or -1.
    package private(set) var largestSegment = -1

    /// A reader over the bytes of a whole file; `file` labels errors.
    public init(bytes: [UInt8], file: String? = nil) {
        lines = LineReader(InputEncoding.buffer(bytes: bytes, limit: Self.maximumLineLength, file: file), file: file)
    }

    /// A reader streaming from `source` (gzip and UTF-16 decoded); `file` labels errors.
    public init(source: any ByteSource, file: String? = nil) {
        self.init(input: InputEncoding.buffer(source: source, limit: Self.maximumLineLength, file: file), file: file)
    }

    init(input: InputBuffer, file: String?) {
        lines = LineReader(input, file: file)
    }


    /// The next fix, or nil at the end of the input; blank lines are skipped.
    /// - Throws: `ReaderError` (see the type's documentation).
    /// - Complexity: O(bytes of the lines up to the next fix).
    public mutating func next() throws -> GPSFix? {
        let file = lines.file
        while let fix = try lines.next({ line, number -> GPSFix? in
            if line.allSatisfy(ASCII.isSpace) { return nil }
            return try Self.fix(line, line: number, file: file)
        }) {
            guard let fix else { continue }
            largestSegment = max(largestSegment, fix.segment)
            return fix
        }
        return nil
    }

    /// Calls `body` with each fix, in line order.
    /// - Throws: `ReaderError` (see the type's documentation), or what `body` throws.
    package static func forEachFix(bytes: [UInt8], file: String? = nil, _ body: (GPSFix) throws -> Void) throws {
        var reader = GeoJSONLinesReader(bytes: bytes, file: file)
        while let fix = try reader.next() { try body(fix) }
    }

    /// Reads every fix; `segmentCount` is one more than the largest `segment` seen.
    /// - Throws: `ReaderError`.
    /// - Complexity: O(n) in the input bytes.
    public static func readAll(bytes: [UInt8], file: String? = nil) throws -> GPSTrack {
        var reader = GeoJSONLinesReader(bytes: bytes, file: file)
        return try reader.readRemaining()
    }

    /// Reads the remaining fixes into a track; `segmentCount` is one more than the largest
    /// `segment` seen.
    /// - Throws: `ReaderError`.
    /// - Complexity: O(n) in the input bytes; memory O(fixes).
    package mutating func readRemaining() throws -> GPSTrack {
        var fixes: [GPSFix] = []
        while let fix = try next() { fixes.append(fix) }
        return GPSTrack(fixes: fixes, segmentCount: largestSegment + 1)
    }

    private static func fix(_ line: UnsafeBufferPointer<UInt8>, line lineNo: Int, file: String?) throws -> GPSFix {
        let value: JSONValue
        do {
            value = try JSONParser.parse(line)
        } catch let e as JSONError {
            throw ReaderError(file: file, line: lineNo, column: e.column ?? 1, kind: .syntax(expected: e.message))
        }
        let text = String(decoding: line, as: UTF8.self)
        func fail(_ path: [JSONPathComponent], _ kind: ReaderError.Kind) -> ReaderError {
            let column = JSONParser.location(of: path, in: text)?.column ?? 1
            return ReaderError(file: file, line: lineNo, column: column, kind: kind)
        }
        guard let object = value.objectValue else { throw fail([], .syntax(expected: "a GeoJSON Feature or Point object")) }
        var geometry = object
        var geometryPath: [JSONPathComponent] = []
        var properties: JSONObject?
        switch object["type"]?.stringValue {
        case "Feature":
            geometryPath = [.key("geometry")]
            guard let g = object["geometry"]?.objectValue else { throw fail([.key("geometry")], .missing(field: "geometry (a Point)")) }
            geometry = g
            if let props = object["properties"], !props.isNull {
                guard let p = props.objectValue else { throw fail([.key("properties")], .syntax(expected: "properties to be an object or null")) }
                properties = p
            }
        case "Point": break
        default: throw fail([.key("type")], .syntax(expected: "\"type\": \"Feature\" or \"Point\""))
        }
        guard geometry["type"]?.stringValue == "Point" else {
            throw fail(geometryPath + [.key("type")], .syntax(expected: "a Point geometry"))
        }
        let coordinatesPath = geometryPath + [.key("coordinates")]
        guard let coordinates = geometry["coordinates"]?.arrayValue, (2...3).contains(coordinates.count) else {
            throw fail(coordinatesPath, .syntax(expected: "coordinates [longitude, latitude] or [longitude, latitude, elevation]"))
        }
        var numbers: [Double] = []
        for (i, c) in coordinates.enumerated() {
            guard let d = c.doubleValue else {
                throw fail(coordinatesPath + [.index(i)], .badNumber(field: "coordinates[\(i)]", found: JSONWriter.string(c)))
            }
            numbers.append(d)
        }
        guard abs(numbers[1]) <= 90 else { throw fail(coordinatesPath + [.index(1)], .outOfRange(field: "latitude", value: numbers[1])) }
        guard abs(numbers[0]) <= 180 else { throw fail(coordinatesPath + [.index(0)], .outOfRange(field: "longitude", value: numbers[0])) }
        var fix = GPSFix(latitude: numbers[1], longitude: numbers[0], elevation: numbers.count == 3 ? numbers[2] : nil, line: lineNo)
        guard let props = properties else { return fix }
        func number(_ keys: [String]) throws -> Double? {
            for key in keys {
                guard let v = props[key], !v.isNull else { continue }
                guard let d = v.doubleValue else {
                    throw fail([.key("properties"), .key(key)], .badNumber(field: key, found: JSONWriter.string(v)))
                }
                return d
            }
            return nil
        }
        for key in ["time", "timestamp"] {
            guard let v = props[key], !v.isNull else { continue }
            if let s = v.stringValue {
                guard let t = GPSTime.parse(s) else { throw fail([.key("properties"), .key(key)], .badTime(found: s)) }
                fix.time = t
            } else if let d = v.doubleValue {
                fix.time = d > 1e11 ? d / 1000 : d
            } else {
                throw fail([.key("properties"), .key(key)], .badTime(found: JSONWriter.string(v)))
            }
            break
        }
        if let e = try number(["ele", "elevation", "altitude"]) { fix.elevation = e }
        fix.horizontalAccuracy = try number(["accuracy", "horizontalAccuracy"])
        fix.hdop = try number(["hdop"])
        fix.speed = try number(["speed"])
        fix.course = try number(["course", "bearing"])
        if let s = try number(["segment"]) {
            guard s >= 0, s == s.rounded(), s < 1e9 else {
                throw fail([.key("properties"), .key("segment")], .outOfRange(field: "segment", value: s))
            }
            fix.segment = Int(s)
        }
        return fix
    }
}
