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
/// - Complexity: O(n) in the input bytes; no allocation per fix (waypoint names excepted).
/// Format reference: GPX 1.1 schema (topografix.com/GPX/1/1), GPX 1.0 schema; XML 1.0 §2–4.
public struct GPXReader {
    /// The file name used in errors.
    public let file: String?
    /// Waypoints (`<wpt>`) seen so far, in document order.
    public private(set) var waypoints: [GPSWaypoint] = []
    /// Segments (`<trkseg>`, `<rte>`) seen so far.
    public private(set) var segmentCount = 0

    private let bytes: [UInt8]
    private var pos = 0
    private var latin1 = false
    private var finished = false
    private var sawRoot = false
    private var stack: [OpenElement] = []
    private var lines = LineCounter()
    private var scratch: [UInt8] = []
    private var point = PendingPoint()
    private var field = ElementKind.other
    private var fieldStart = 0
    private var skipDepth = 0
    private var currentSegment = -1
    private var trackNeedsSegment = false

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

    // MARK: - Tokens

    private enum ElementKind: UInt8 {
        case other, gpx, trk, trkseg, trkpt, rte, rtept, wpt, extensions
        case ele, time, hdop, speed, course, fix, name
    }

    private struct OpenElement {
        var kind: ElementKind
        var nameStart: Int
        var nameEnd: Int
        var tagStart: Int
    }

    private struct PendingPoint {
        var kind = ElementKind.other
        var latitude = 0.0
        var longitude = 0.0
        var elevation: Double?
        var time: Double?
        var hdop: Double?
        var speed: Double?
        var course: Double?
        var quality = GPSFixQuality.unknown
        var mode = GPSFixMode.unknown
        var line = 0
        var name: String?
    }

    private mutating func error(_ p: UnsafeBufferPointer<UInt8>, at offset: Int, _ kind: ReaderError.Kind) -> ReaderError {
        let (line, column) = lines.position(of: offset, in: p)
        return ReaderError(file: file, line: line, column: column, kind: kind)
    }

    private func name(_ p: UnsafeBufferPointer<UInt8>, _ open: OpenElement) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: p[open.nameStart..<open.nameEnd]), as: UTF8.self)
    }

    private func text(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: p[start..<min(end, p.count)]), as: UTF8.self)
    }

    /// Index of the first occurrence of `pattern` at or after `from`, or nil.
    private static func find(_ p: UnsafeBufferPointer<UInt8>, _ pattern: StaticString, from: Int) -> Int? {
        let n = pattern.utf8CodeUnitCount
        let first = pattern.utf8Start[0]
        var i = from
        while i + n <= p.count {
            if p[i] == first {
                var k = 1
                while k < n, p[i + k] == pattern.utf8Start[k] { k += 1 }
                if k == n { return i }
            }
            i += 1
        }
        return nil
    }

    private static func hasPrefix(_ p: UnsafeBufferPointer<UInt8>, _ at: Int, _ pattern: StaticString) -> Bool {
        let n = pattern.utf8CodeUnitCount
        guard at + n <= p.count else { return false }
        for k in 0..<n where p[at + k] != pattern.utf8Start[k] { return false }
        return true
    }

    /// One token; returns a fix when a point element closes.
    private mutating func step(_ p: UnsafeBufferPointer<UInt8>) throws -> GPSFix? {
        if p[pos] != ASCII.lt {
            let start = pos
            while pos < p.count, p[pos] != ASCII.lt { pos += 1 }
            if field != .other {
                try appendText(p, start, pos)
            } else if stack.isEmpty {
                for i in start..<pos where !ASCII.isSpace(p[i]) {
                    throw error(p, at: i, .syntax(expected: "markup ('<'), found text outside the root element"))
                }
            }
            return nil
        }
        let next = pos + 1 < p.count ? p[pos + 1] : 0
        if next == ASCII.question {
            guard let end = Self.find(p, "?>", from: pos + 2) else { throw error(p, at: pos, .unexpectedEnd(expected: "'?>'")) }
            if Self.hasPrefix(p, pos, "<?xml"), pos + 5 < p.count, ASCII.isSpace(p[pos + 5]) { try declaration(p, pos + 5, end) }
            pos = end + 2
            return nil
        }
        if next == ASCII.bang {
            if Self.hasPrefix(p, pos, "<!--") {
                guard let end = Self.find(p, "-->", from: pos + 4) else { throw error(p, at: pos, .unexpectedEnd(expected: "'-->'")) }
                pos = end + 3
            } else if Self.hasPrefix(p, pos, "<![CDATA[") {
                guard let end = Self.find(p, "]]>", from: pos + 9) else { throw error(p, at: pos, .unexpectedEnd(expected: "']]>'")) }
                if field != .other { appendRaw(p, pos + 9, end) }
                pos = end + 3
            } else {  // <!DOCTYPE …> with an optional [internal subset]
                var depth = 0
                var i = pos + 2
                while i < p.count {
                    if p[i] == ASCII.lbracket { depth += 1 } else if p[i] == ASCII.rbracket { depth -= 1 } else if p[i] == ASCII.gt, depth <= 0 { break }
                    i += 1
                }
                guard i < p.count else { throw error(p, at: pos, .unexpectedEnd(expected: "'>'")) }
                pos = i + 1
            }
            return nil
        }
        if next == ASCII.slash { return try endTag(p) }
        return try startTag(p)
    }

    /// `<?xml version="1.0" encoding="…"?>`: picks the text transcoding.
    private mutating func declaration(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) throws {
        guard let e = Self.find(UnsafeBufferPointer(rebasing: p[start..<end]), "encoding", from: 0) else { return }
        var i = start + e + 8
        while i < end, ASCII.isSpace(p[i]) || p[i] == ASCII.eq { i += 1 }
        guard i < end, p[i] == ASCII.quote || p[i] == ASCII.apos else { return }
        let quote = p[i]
        let valueStart = i + 1
        var j = valueStart
        while j < end, p[j] != quote { j += 1 }
        let value = text(p, valueStart, j).lowercased()
        switch value {
        case "utf-8", "utf8", "us-ascii", "ascii": latin1 = false
        case "iso-8859-1", "iso8859-1", "latin1", "latin-1", "iso_8859-1", "windows-1252", "cp1252": latin1 = true
        default: throw error(p, at: valueStart, .unsupportedEncoding(text(p, valueStart, j)))
        }
    }

    private static func kind(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> ElementKind {
        var s = start
        for i in start..<end where p[i] == ASCII.colon { s = i + 1 }  // local name after a prefix
        func eq(_ name: StaticString) -> Bool {
            guard end - s == name.utf8CodeUnitCount else { return false }
            for k in 0..<(end - s) where p[s + k] != name.utf8Start[k] { return false }
            return true
        }
        switch end - s {
        case 3:
            if eq("gpx") { return .gpx }
            if eq("trk") { return .trk }
            if eq("rte") { return .rte }
            if eq("wpt") { return .wpt }
            if eq("ele") { return .ele }
            if eq("fix") { return .fix }
        case 4:
            if eq("time") { return .time }
            if eq("hdop") { return .hdop }
            if eq("name") { return .name }
        case 5:
            if eq("trkpt") { return .trkpt }
            if eq("rtept") { return .rtept }
            if eq("speed") { return .speed }
        case 6:
            if eq("trkseg") { return .trkseg }
            if eq("course") { return .course }
        case 10:
            if eq("extensions") { return .extensions }
        default: break
        }
        return .other
    }

    private static func isNameByte(_ b: UInt8) -> Bool {
        !(ASCII.isSpace(b) || b == ASCII.gt || b == ASCII.slash || b == ASCII.eq || b == ASCII.lt)
    }

    private mutating func startTag(_ p: UnsafeBufferPointer<UInt8>) throws -> GPSFix? {
        let tagStart = pos
        let nameStart = pos + 1
        var i = nameStart
        while i < p.count, Self.isNameByte(p[i]) { i += 1 }
        let nameEnd = i
        guard nameEnd > nameStart else { throw error(p, at: nameStart, .syntax(expected: "an element name after '<'")) }
        let parent = stack.last?.kind
        var kind = skipDepth > 0 ? .other : Self.kind(p, nameStart, nameEnd)
        if stack.isEmpty {
            guard kind == .gpx, !sawRoot else {
                throw error(p, at: tagStart, .syntax(expected: sawRoot ? "a single root element" : "<gpx> root element"))
            }
            sawRoot = true
        }
        // Children only count in their place: a point's measurements, a waypoint's name.
        switch kind {
        case .trk, .rte, .wpt: if parent != .gpx { kind = .other }
        case .trkseg: if parent != .trk { kind = .other }
        case .trkpt: if parent != .trkseg && parent != .trk { kind = .other }
        case .rtept: if parent != .rte { kind = .other }
        case .ele, .time, .hdop, .speed, .course, .fix:
            if parent != .trkpt && parent != .rtept && parent != .wpt { kind = .other }
        case .name: if parent != .wpt { kind = .other }
        default: break
        }
        // Attributes.
        var lat: Double?
        var lon: Double?
        var selfClosing = false
        while true {
            while i < p.count, ASCII.isSpace(p[i]) { i += 1 }
            guard i < p.count else { throw error(p, at: tagStart, .unexpectedEnd(expected: "'>' closing the start tag")) }
            if p[i] == ASCII.gt {
                i += 1
                break
            }
            if p[i] == ASCII.slash {
                guard i + 1 < p.count, p[i + 1] == ASCII.gt else { throw error(p, at: i, .syntax(expected: "'/>'")) }
                selfClosing = true
                i += 2
                break
            }
            let attrStart = i
            while i < p.count, Self.isNameByte(p[i]) { i += 1 }
            let attrEnd = i
            guard attrEnd > attrStart else { throw error(p, at: i, .syntax(expected: "an attribute name")) }
            while i < p.count, ASCII.isSpace(p[i]) { i += 1 }
            guard i < p.count, p[i] == ASCII.eq else { throw error(p, at: i, .syntax(expected: "'=' after attribute name")) }
            i += 1
            while i < p.count, ASCII.isSpace(p[i]) { i += 1 }
            guard i < p.count, p[i] == ASCII.quote || p[i] == ASCII.apos else {
                throw error(p, at: i, .syntax(expected: "a quoted attribute value"))
            }
            let quote = p[i]
            let valueStart = i + 1
            i = valueStart
            while i < p.count, p[i] != quote { i += 1 }
            guard i < p.count else { throw error(p, at: valueStart - 1, .unexpectedEnd(expected: "closing quote")) }
            let valueEnd = i
            i += 1
            if kind == .trkpt || kind == .rtept || kind == .wpt, attrEnd - attrStart == 3, p[attrStart] == 0x6C {  // l
                if p[attrStart + 1] == 0x61, p[attrStart + 2] == 0x74 {  // lat
                    lat = try coordinate(p, valueStart, valueEnd, "lat", limit: 90)
                } else if p[attrStart + 1] == 0x6F, p[attrStart + 2] == 0x6E {  // lon
                    lon = try coordinate(p, valueStart, valueEnd, "lon", limit: 180)
                }
            }
        }
        pos = i
        switch kind {
        case .trk: trackNeedsSegment = true
        case .trkseg, .rte:
            currentSegment = segmentCount
            segmentCount += 1
            trackNeedsSegment = false
        case .trkpt, .rtept, .wpt:
            guard let lat else { throw error(p, at: tagStart, .missing(field: "lat attribute")) }
            guard let lon else { throw error(p, at: tagStart, .missing(field: "lon attribute")) }
            if kind == .trkpt, parent == .trk, trackNeedsSegment {
                currentSegment = segmentCount
                segmentCount += 1
                trackNeedsSegment = false
            }
            point = PendingPoint()
            point.kind = kind
            point.latitude = lat
            point.longitude = lon
            point.line = lines.position(of: tagStart, in: p).line
        case .ele, .time, .hdop, .speed, .course, .fix, .name:
            field = kind
            fieldStart = pos
            scratch.removeAll(keepingCapacity: true)
        case .extensions: skipDepth = 1
        default: if skipDepth > 0, !selfClosing { skipDepth += 1 }
        }
        if selfClosing {
            if kind == .extensions { skipDepth = 0 }
            if skipDepth > 0 { return nil }
            return try close(kind, p)
        }
        stack.append(OpenElement(kind: kind, nameStart: nameStart, nameEnd: nameEnd, tagStart: tagStart))
        return nil
    }

    private mutating func endTag(_ p: UnsafeBufferPointer<UInt8>) throws -> GPSFix? {
        let tagStart = pos
        let nameStart = pos + 2
        var i = nameStart
        while i < p.count, Self.isNameByte(p[i]) { i += 1 }
        let nameEnd = i
        while i < p.count, ASCII.isSpace(p[i]) { i += 1 }
        guard i < p.count else { throw error(p, at: tagStart, .unexpectedEnd(expected: "'>' closing the end tag")) }
        guard p[i] == ASCII.gt else { throw error(p, at: i, .syntax(expected: "'>' closing the end tag")) }
        pos = i + 1
        guard let open = stack.popLast() else {
            throw error(p, at: tagStart, .mismatchedTag(expected: "(no open element)", found: text(p, nameStart, nameEnd)))
        }
        var same = open.nameEnd - open.nameStart == nameEnd - nameStart
        var k = 0
        while same, k < nameEnd - nameStart {
            same = p[open.nameStart + k] == p[nameStart + k]
            k += 1
        }
        guard same else { throw error(p, at: tagStart, .mismatchedTag(expected: name(p, open), found: text(p, nameStart, nameEnd))) }
        if skipDepth > 0 {
            skipDepth -= 1
            return nil
        }
        return try close(open.kind, p)
    }

    /// An element of `kind` ended.
    private mutating func close(_ kind: ElementKind, _ p: UnsafeBufferPointer<UInt8>) throws -> GPSFix? {
        switch kind {
        case .trkpt, .rtept:
            let fix = GPSFix(
                time: point.time, latitude: point.latitude, longitude: point.longitude, elevation: point.elevation,
                hdop: point.hdop, speed: point.speed, course: point.course, quality: point.quality, mode: point.mode,
                segment: max(currentSegment, 0), line: point.line)
            point = PendingPoint()
            return fix
        case .wpt:
            let fix = GPSFix(
                time: point.time, latitude: point.latitude, longitude: point.longitude, elevation: point.elevation,
                hdop: point.hdop, speed: point.speed, course: point.course, quality: point.quality, mode: point.mode,
                segment: 0, line: point.line)
            waypoints.append(GPSWaypoint(fix: fix, name: point.name))
            point = PendingPoint()
        case .trk: trackNeedsSegment = false
        case .ele, .time, .hdop, .speed, .course, .fix, .name:
            try finishField(kind, p)
            field = .other
        default: break
        }
        return nil
    }

    private mutating func finishField(_ kind: ElementKind, _ p: UnsafeBufferPointer<UInt8>) throws {
        var s = 0
        var e = scratch.count
        while s < e, ASCII.isSpace(scratch[s]) { s += 1 }
        while e > s, ASCII.isSpace(scratch[e - 1]) { e -= 1 }
        if kind == .name {
            point.name = String(decoding: scratch[s..<e], as: UTF8.self)
            return
        }
        if s == e { return }  // <ele/>, <time></time>: absent
        let (start, end) = (s, e)
        let value: Double? = scratch.withUnsafeBufferPointer { b in
            switch kind {
            case .time: return ByteScan.iso8601(b, start, end)
            case .fix: return nil
            default: return ByteScan.double(b, start, end)
            }
        }
        var found: String { String(decoding: scratch[s..<e], as: UTF8.self) }  // only on errors and <fix>
        let at = fieldStart
        switch kind {
        case .time:
            guard let value else { throw error(p, at: at, .badTime(found: found)) }
            point.time = value
        case .fix:
            switch found {
            case "2d": (point.quality, point.mode) = (.gps, .twoD)
            case "3d": (point.quality, point.mode) = (.gps, .threeD)
            case "dgps": point.quality = .dgps
            case "pps": point.quality = .pps
            case "none": break
            default: throw error(p, at: at, .syntax(expected: "<fix> none, 2d, 3d, dgps or pps, found '\(found)'"))
            }
        default:
            let fieldName: String
            switch kind {
            case .ele: fieldName = "ele"
            case .hdop: fieldName = "hdop"
            case .speed: fieldName = "speed"
            default: fieldName = "course"
            }
            guard let value, value.isFinite else { throw error(p, at: at, .badNumber(field: fieldName, found: found)) }
            switch kind {
            case .ele: point.elevation = value
            case .hdop: point.hdop = value
            case .speed: point.speed = value
            default: point.course = value
            }
        }
    }

    private mutating func coordinate(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, _ name: String, limit: Double)
        throws -> Double
    {
        var s = start
        var e = end
        while s < e, ASCII.isSpace(p[s]) { s += 1 }
        while e > s, ASCII.isSpace(p[e - 1]) { e -= 1 }
        guard let v = ByteScan.double(p, s, e), v.isFinite else {
            throw error(p, at: start, .badNumber(field: name, found: text(p, start, end)))
        }
        guard abs(v) <= limit else { throw error(p, at: start, .outOfRange(field: name, value: v)) }
        return v
    }

    // MARK: - Text

    private mutating func appendRaw(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) {
        if !latin1 {
            scratch.append(contentsOf: UnsafeBufferPointer(rebasing: p[start..<end]))
            return
        }
        for i in start..<end { appendLatin1(p[i]) }
    }

    private mutating func appendLatin1(_ b: UInt8) {
        if b < 0x80 {
            scratch.append(b)
        } else {
            scratch.append(0xC0 | b >> 6)
            scratch.append(0x80 | b & 0x3F)
        }
    }

    private mutating func appendScalar(_ v: UInt32) {
        guard let scalar = Unicode.Scalar(v) else { return }
        scratch.append(contentsOf: UTF8.encode(scalar) ?? UTF8.EncodedScalar())
    }

    /// Character data with entity references decoded.
    private mutating func appendText(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) throws {
        var i = start
        var runStart = start
        while i < end {
            guard p[i] == ASCII.amp else {
                i += 1
                continue
            }
            appendRaw(p, runStart, i)
            var j = i + 1
            while j < end, p[j] != ASCII.semicolon, j - i < 12 { j += 1 }
            guard j < end, p[j] == ASCII.semicolon else {
                throw error(p, at: i, .syntax(expected: "an entity reference ending in ';'"))
            }
            let entity = text(p, i + 1, j)
            switch entity {
            case "lt": scratch.append(ASCII.lt)
            case "gt": scratch.append(ASCII.gt)
            case "amp": scratch.append(ASCII.amp)
            case "quot": scratch.append(ASCII.quote)
            case "apos": scratch.append(ASCII.apos)
            default:
                var value: UInt32?
                if entity.hasPrefix("#x") || entity.hasPrefix("#X") {
                    value = UInt32(entity.dropFirst(2), radix: 16)
                } else if entity.hasPrefix("#") {
                    value = UInt32(entity.dropFirst(1))
                }
                guard let v = value, Unicode.Scalar(v) != nil else {
                    throw error(p, at: i, .syntax(expected: "a known entity (&lt; &gt; &amp; &quot; &apos; &#…;), found '&\(entity);'"))
                }
                appendScalar(v)
            }
            i = j + 1
            runStart = i
        }
        appendRaw(p, runStart, end)
    }
}
