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
/// Unicode; coordinates are ASCII anyway), anything else is rejected; UTF-16 input (by its
/// byte-order mark, or by the NUL bytes of its ASCII) is transcoded to UTF-8; gzip input
/// (`.gpx.gz`, detected by its magic number) is inflated as it is read; line ends are LF, CR or
/// CR LF; comments, processing instructions, DOCTYPE, CDATA sections and the five predefined
/// plus numeric character references are handled, in text and in attribute values.
///
/// Errors throw `ReaderError` with the file, line and column: a bad or out-of-range `lat`/`lon`,
/// a missing `lat`/`lon`, a malformed `<ele>`/`<time>`, mismatched or unclosed tags, input ending
/// inside markup, a root element that is not `<gpx>`, elements nested deeper than
/// ``maximumDepth``, and a tag, comment or text longer than the reader holds (`.tooLong`).
///
/// Streaming: the reader holds one window of input (128 KiB, growing for one long tag up to
/// ``maximumMarkupLength``), the open elements' names, and a measurement's text (at most
/// ``maximumTextLength``), whatever the input's size — so a small `.gpx.gz` that inflates to
/// gigabytes costs no more memory than a small file, and reading stops at the first byte that
/// cannot be valid GPX.
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
    /// The longest start tag, comment, CDATA section or declaration the reader holds.
    package static let maximumMarkupLength = 16 << 20
    /// The longest text of one measurement or name (`<ele>`, `<time>`, `<name>`…).
    package static let maximumTextLength = 64 << 10
    /// The deepest nesting of elements.
    package static let maximumDepth = 256
    /// The longest element name.
    package static let maximumNameLength = 1024

    /// The file name used in errors.
    public let file: String?
    /// Waypoints (`<wpt>`) seen so far, in document order.
    public internal(set) var waypoints: [GPSWaypoint] = []
    /// Segments (`<trkseg>`, `<rte>`) seen so far.
    public internal(set) var segmentCount = 0

    var input: InputBuffer
    /// Whether the window ends where the input does (no token can continue past it).
    var complete = false
    /// The next byte to scan, as an index into the window.
    var pos = 0
    var started = false
    var latin1 = false
    var finished = false
    var sawRoot = false
    var stack: [OpenElement] = []
    /// The names of the open elements, one after another (the window may have moved past them).
    var names: [UInt8] = []
    var lines = LineCounter()
    var scratch: [UInt8] = []
    var attributeScratch: [UInt8] = []
    var point = PendingPoint()
    var field = ElementKind.other
    /// The stream offset where the measurement being read starts, and its line and column once
    /// the window moved past it.
    var fieldStart = 0
    var fieldPosition: (line: Int, column: Int)?
    var skipDepth = 0
    var currentSegment = -1
    var trackNeedsSegment = false

    /// A reader over a GPX document's bytes (gzip-compressed, UTF-16 or not); `file` labels
    /// errors, which (corrupt gzip data included) come from ``next()``.
    /// - Throws: nothing today; kept throwing for source compatibility.
    public init(bytes: [UInt8], file: String? = nil) throws {
        self.init(input: InputEncoding.buffer(bytes: bytes, limit: Self.maximumMarkupLength, file: file), file: file)
    }

    /// A reader streaming a GPX document from `source` (inflating gzip, transcoding UTF-16);
    /// errors come from ``next()``.
    public init(source: any ByteSource, file: String? = nil) {
        self.init(input: InputEncoding.buffer(source: source, limit: Self.maximumMarkupLength, file: file), file: file)
    }

    /// A reader over GPX text.
    public init(text: String, file: String? = nil) throws {
        try self.init(bytes: Array(text.utf8), file: file)
    }

    init(input: InputBuffer, file: String?) {
        self.input = input
        self.file = file
        stack.reserveCapacity(16)
        scratch.reserveCapacity(64)
    }


    /// Reads a whole document: track and route points, waypoints and the segment count.
    /// - Throws: `ReaderError`.
    /// - Complexity: O(n) in the input bytes.
    public static func readAll(bytes: [UInt8], file: String? = nil) throws -> GPSTrack {
        var reader = try GPXReader(bytes: bytes, file: file)
        return try reader.readRemaining(expectedFixes: bytes.count / 120)
    }

    /// Reads the remaining points into a track, with the waypoints and the segment count.
    /// - Throws: `ReaderError`.
    /// - Complexity: O(n) in the input bytes; memory O(fixes).
    package mutating func readRemaining(expectedFixes: Int = 0) throws -> GPSTrack {
        var fixes: [GPSFix] = []
        fixes.reserveCapacity(expectedFixes)
        while let fix = try next() { fixes.append(fix) }
        return GPSTrack(fixes: fixes, waypoints: waypoints, segmentCount: segmentCount)
    }

    /// Thrown inside a scan when a token runs past the end of the window.
    struct NeedsInput: Error {}

    /// The next track or route point, or nil at the end of the document.
    /// - Throws: `ReaderError` (see the type's documentation).
    /// - Complexity: amortised O(bytes up to the next point).
    public mutating func next() throws -> GPSFix? {
        while !finished {
            do {
                if let fix = try scanWindow() { return fix }
            } catch is NeedsInput {}
            if input.atEnd {
                finished = true
                let storage = input
                try storage.withBytes { p in
                    if let open = stack.last { throw error(p, element: open, .unclosedTag(name(open))) }
                    if !sawRoot { throw error(p, at: pos, .missing(field: "<gpx> root element")) }
                }
                return nil
            }
            try refill()
        }
        return nil
    }

    /// Steps through the window from `pos`; nil when it is used up.
    private mutating func scanWindow() throws -> GPSFix? {
        let storage = input
        complete = input.atEnd
        return try storage.withBytes { p -> GPSFix? in
            if !started {
                guard p.count >= 3 || complete else { throw NeedsInput() }
                started = true
                if p.count >= 3, p[0] == 0xEF, p[1] == 0xBB, p[2] == 0xBF { pos = 3 }
            }
            while pos < p.count {
                if let fix = try step(p) { return fix }
            }
            return nil
        }
    }

    /// Drops the bytes before `pos` (noting the positions of open elements and of the open
    /// measurement that start there) and reads more.
    private mutating func refill() throws {
        let keep = pos
        let base = input.base
        let storage = input
        let token = storage.withBytes { p in
            for k in stack.indices where stack[k].position == nil && stack[k].tagStart < base + keep {
                stack[k].position = lines.position(of: stack[k].tagStart, in: p, base: base)
            }
            if field != .other, fieldPosition == nil, fieldStart < base + keep {
                fieldPosition = lines.position(of: fieldStart, in: p, base: base)
            }
            lines.moveCheckpoint(to: base + keep, in: p, base: base)
            return lines.position(of: base + keep, in: p, base: base)
        }
        guard try input.refill(keepingFrom: keep) else {
            throw ReaderError(
                file: file, line: token.line, column: token.column,
                kind: .tooLong(what: "the markup (a tag, comment, CDATA section or declaration)", limit: Self.maximumMarkupLength))
        }
        pos -= keep
    }

    // MARK: - Elements

    enum ElementKind: UInt8 {
        case other, gpx, trk, trkseg, trkpt, rte, rtept, wpt, extensions
        case ele, time, hdop, speed, course, fix, name
    }

    /// An open element: its kind, its name in `names`, where its start tag is (a stream offset)
    /// and, once the window moved past it, its line and column.
    struct OpenElement {
        var kind: ElementKind
        var nameStart: Int
        var nameLength: Int
        var tagStart: Int
        var position: (line: Int, column: Int)?
    }

    /// The point element being read: the fix its attributes and children fill in (its segment is
    /// set when it closes), and a waypoint's name.
    struct PendingPoint {
        var kind = ElementKind.other
        var fix = GPSFix(latitude: 0, longitude: 0)
        var name: String?
    }

    /// An error at index `offset` of the window.
    mutating func error(_ p: UnsafeBufferPointer<UInt8>, at offset: Int, _ kind: ReaderError.Kind) -> ReaderError {
        error(p, stream: input.base + offset, kind)
    }

    /// An error at stream offset `offset` (in the window).
    mutating func error(_ p: UnsafeBufferPointer<UInt8>, stream offset: Int, _ kind: ReaderError.Kind) -> ReaderError {
        let (line, column) = lines.position(of: offset, in: p, base: input.base)
        return ReaderError(file: file, line: line, column: column, kind: kind)
    }

    /// An error at an open element's start tag.
    mutating func error(_ p: UnsafeBufferPointer<UInt8>, element: OpenElement, _ kind: ReaderError.Kind) -> ReaderError {
        if let (line, column) = element.position { return ReaderError(file: file, line: line, column: column, kind: kind) }
        return error(p, stream: element.tagStart, kind)
    }

    /// The error `kind` at `offset` when the window holds the whole rest of the input, else the
    /// signal to read more and try the token again.
    mutating func incomplete(_ p: UnsafeBufferPointer<UInt8>, at offset: Int, _ kind: ReaderError.Kind) -> any Error {
        complete ? error(p, at: offset, kind) : NeedsInput()
    }

    func name(_ open: OpenElement) -> String {
        String(decoding: names[open.nameStart..<(open.nameStart + open.nameLength)], as: UTF8.self)
    }

    func text(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: p[start..<min(end, p.count)]), as: UTF8.self)
    }
}
