// GPX 1.0 / 1.1 reader: a streaming byte scanner (no DOM, no XMLParser) over the document.

/// Reads GPS fixes from GPX 1.0 and 1.1 documents, streaming.
///
/// Mapping (documented choice, matching what gpxpy and GPS editors do):
/// - each `<trkseg>` is one segment (one sketch part), numbered in document order; a `<trkpt>`
///   directly in a `<trk>` without `<trkseg>` gets a segment for that track;
/// - each `<rte>` is one segment too, its `<rtept>`s the fixes (routes become parts);
/// - `<wpt>`s are not fixes: they are collected in `waypoints` (with their `<name>`), for replay
///   to report separately;
/// - per point: `lat`/`lon` attributes (required), `<ele>`, `<time>` (ISO 8601, optional: fixes
///   may lack time), `<hdop>`, `<fix>` (none/2d/3d/dgps/pps), GPX 1.0 `<speed>` (m/s) and
///   `<course>`; `<extensions>` and every unknown element are skipped whole;
/// - empty segments still take a segment number (`segmentCount` counts them).
///
/// Input handling: a UTF-8 byte-order mark is skipped; the XML declaration's `encoding` may be
/// UTF-8, US-ASCII or ISO-8859-1/Latin-1/Windows-1252 (text such as names is transcoded to
/// Unicode; coordinates are ASCII anyway), anything else is rejected; gzip input (`.gpx.gz`,
/// detected by its magic number) is decompressed first; comments, processing instructions,
/// DOCTYPE, CDATA sections and the five predefined plus numeric character entities are handled.
///
/// Errors throw `ReaderError` with the file, line and column: a bad or out-of-range `lat`/`lon`,
/// a missing `lat`/`lon`, a malformed `<ele>`/`<time>`, mismatched or unclosed tags, input ending
/// inside markup, a root element that is not `<gpx>`.
///
/// ```swift
/// var reader = try GPXReader(bytes: Array(data), file: "ride.gpx")
/// while let fix = try reader.next() { … }   // fixes in document order
/// let waypoints = reader.waypoints          // complete once next() returned nil
/// ```
///
/// Format reference: GPX 1.1 schema (topografix.com/GPX/1/1), GPX 1.0 schema; XML 1.0 §2–4.
///
/// - Complexity: O(n) in the input bytes; no allocation per fix (waypoint names excepted).
public struct GPXReader {
    /// The file name used in errors.
    public let file: String?
    /// Waypoints (`<wpt>`) seen so far, in document order.
    public internal(set) var waypoints: [GPSWaypoint] = []
    /// Segments (`<trkseg>`, `<rte>`) seen so far.
    public internal(set) var segmentCount = 0

    let bytes: [UInt8]
    var pos = 0
    var latin1 = false
    var finished = false
    var sawRoot = false
    var stack: [OpenElement] = []
    var lines = LineCounter()
    var scratch: [UInt8] = []
    var point = PendingPoint()
    var field = ElementKind.other
    var fieldStart = 0
    var skipDepth = 0
    var currentSegment = -1
    var trackNeedsSegment = false

    /// A reader over a GPX document's bytes (gzip-compressed or not); `file` labels errors.
    /// - Throws: `ReaderError` if gzip data are corrupt or the document is UTF-16.
    public init(bytes: [UInt8], file: String? = nil) throws {
        self.file = file
        var input = bytes
        if Gzip.isGzip(input) { input = try Gzip.decompress(input, file: file) }
        if input.count >= 3, input[0] == 0xEF, input[1] == 0xBB, input[2] == 0xBF {
            pos = 3
        } else if input.count >= 2, (input[0] == 0xFE && input[1] == 0xFF) || (input[0] == 0xFF && input[1] == 0xFE) {
            throw ReaderError(file: file, line: 1, column: 1, kind: .unsupportedEncoding("UTF-16"))
        }
        self.bytes = input
        stack.reserveCapacity(16)
        scratch.reserveCapacity(64)
    }

    /// A reader over GPX text.
    public init(text: String, file: String? = nil) throws {
        try self.init(bytes: Array(text.utf8), file: file)
    }

    /// Reads a whole document: track and route points, waypoints and the segment count.
    /// - Throws: `ReaderError`.
    /// - Complexity: O(n) in the input bytes.
    public static func readAll(bytes: [UInt8], file: String? = nil) throws -> GPSTrack {
        var reader = try GPXReader(bytes: bytes, file: file)
        var fixes: [GPSFix] = []
        fixes.reserveCapacity(reader.bytes.count / 120)
        while let fix = try reader.next() { fixes.append(fix) }
        return GPSTrack(fixes: fixes, waypoints: reader.waypoints, segmentCount: reader.segmentCount)
    }

    /// The next track or route point, or nil at the end of the document.
    /// - Throws: `ReaderError` (see the type's documentation).
    /// - Complexity: amortised O(bytes up to the next point).
    public mutating func next() throws -> GPSFix? {
        if finished { return nil }
        let storage = bytes
        return try storage.withUnsafeBufferPointer { p -> GPSFix? in
            while pos < p.count {
                if let fix = try step(p) { return fix }
            }
            finished = true
            if let open = stack.last {
                throw error(p, at: open.tagStart, .unclosedTag(name(p, open)))
            }
            if !sawRoot { throw error(p, at: pos, .missing(field: "<gpx> root element")) }
            return nil
        }
    }

    // MARK: - Elements

    enum ElementKind: UInt8 {
        case other, gpx, trk, trkseg, trkpt, rte, rtept, wpt, extensions
        case ele, time, hdop, speed, course, fix, name
    }

    struct OpenElement {
        var kind: ElementKind
        var nameStart: Int
        var nameEnd: Int
        var tagStart: Int
    }

    /// The point element being read: the fix its attributes and children fill in (its segment is
    /// set when it closes), and a waypoint's name.
    struct PendingPoint {
        var kind = ElementKind.other
        var fix = GPSFix(latitude: 0, longitude: 0)
        var name: String?
    }

    mutating func error(_ p: UnsafeBufferPointer<UInt8>, at offset: Int, _ kind: ReaderError.Kind) -> ReaderError {
        let (line, column) = lines.position(of: offset, in: p)
        return ReaderError(file: file, line: line, column: column, kind: kind)
    }

    func name(_ p: UnsafeBufferPointer<UInt8>, _ open: OpenElement) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: p[open.nameStart..<open.nameEnd]), as: UTF8.self)
    }

    func text(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: p[start..<min(end, p.count)]), as: UTF8.self)
    }
}
