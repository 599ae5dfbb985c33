// GPX reader: what a closing element means (a point, a waypoint, a measurement) and the character
// data of measurements, entities and Latin-1 transcoding.

import MapSketchGeometry

extension GPXReader {
    /// An element of `kind` ended.
    mutating func close(_ kind: ElementKind, _ p: UnsafeBufferPointer<UInt8>) throws -> GPSFix? {
        switch kind {
        case .trkpt, .rtept, .wpt:
            // A waypoint is not part of a track: segment 0, reported beside the fixes.
            var fix = point.fix
            fix.segment = kind == .wpt ? 0 : max(currentSegment, 0)
            let name = point.name
            point = PendingPoint()
            guard kind == .wpt else { return fix }
            waypoints.append(GPSWaypoint(fix: fix, name: name))
        case .trk: trackNeedsSegment = false
        case .ele, .time, .hdop, .speed, .course, .fix, .name:
            try finishField(kind, p)
            field = .other
        default: break
        }
        return nil
    }

    mutating func finishField(_ kind: ElementKind, _ p: UnsafeBufferPointer<UInt8>) throws {
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
        func fail(_ kind: ReaderError.Kind) -> ReaderError {
            if let (line, column) = fieldPosition { return ReaderError(file: file, line: line, column: column, kind: kind) }
            return error(p, stream: fieldStart, kind)
        }
        switch kind {
        case .time:
            guard let value else { throw fail(.badTime(found: found)) }
            point.fix.time = value
        case .fix:
            switch found {
            case "2d": (point.fix.quality, point.fix.mode) = (.gps, .twoD)
            case "3d": (point.fix.quality, point.fix.mode) = (.gps, .threeD)
            case "dgps": point.fix.quality = .dgps
            case "pps": point.fix.quality = .pps
            case "none": break
            default: throw fail(.syntax(expected: "<fix> none, 2d, 3d, dgps or pps, found '\(InputExcerpt.excerpt(found))'"))
            }
        default:
            let fieldName: String
            switch kind {
            case .ele: fieldName = "ele"
            case .hdop: fieldName = "hdop"
            case .speed: fieldName = "speed"
            default: fieldName = "course"
            }
            guard let value, value.isFinite else { throw fail(.badNumber(field: fieldName, found: found)) }
            switch kind {
            case .ele: point.fix.elevation = value
            case .hdop: point.fix.hdop = value
            case .speed: point.fix.speed = value
            default: point.fix.course = value
            }
        }
    }

    /// A `lat` or `lon` attribute value, character references decoded (`4&#54;.5` is 46.5).
    mutating func coordinate(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, _ name: String, limit: Double)
        throws -> Double
    {
        var s = start
        var e = end
        while s < e, ASCII.isSpace(p[s]) { s += 1 }
        while e > s, ASCII.isSpace(p[e - 1]) { e -= 1 }
        var value = ByteScan.double(p, s, e)
        if value == nil, UnsafeBufferPointer(rebasing: p[s..<e]).contains(ASCII.amp) {
            attributeScratch.removeAll(keepingCapacity: true)
            if let bad = Self.decodeText(p, s, e, latin1: false, into: &attributeScratch) {
                throw error(p, at: bad.offset, .syntax(expected: bad.expected))
            }
            var a = 0
            var b = attributeScratch.count
            while a < b, ASCII.isSpace(attributeScratch[a]) { a += 1 }
            while b > a, ASCII.isSpace(attributeScratch[b - 1]) { b -= 1 }
            let (from, to) = (a, b)
            value = attributeScratch.withUnsafeBufferPointer { ByteScan.double($0, from, to) }
        }
        guard let v = value, v.isFinite else {
            throw error(p, at: start, .badNumber(field: name, found: text(p, start, end)))
        }
        guard abs(v) <= limit else { throw error(p, at: start, .outOfRange(field: name, value: v)) }
        return v
    }

    // MARK: - Text

    /// Appends raw character data (CDATA, text between references) to the measurement's text.
    /// - Throws: `.tooLong` past ``GPXReader/maximumTextLength``.
    mutating func appendRaw(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) throws {
        Self.appendRaw(p, start, end, latin1: latin1, into: &scratch)
        try checkTextLength(p)
    }

    /// Character data with references decoded, appended to the measurement's text.
    /// - Throws: a syntax error at a malformed reference, `.tooLong` past the text limit.
    mutating func appendText(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) throws {
        if let bad = Self.decodeText(p, start, end, latin1: latin1, into: &scratch) {
            throw error(p, at: bad.offset, .syntax(expected: bad.expected))
        }
        try checkTextLength(p)
    }

    private mutating func checkTextLength(_ p: UnsafeBufferPointer<UInt8>) throws {
        guard scratch.count > Self.maximumTextLength else { return }
        let what = "the text of a <\(stack.last.map(name) ?? "")> element"
        if let (line, column) = fieldPosition {
            throw ReaderError(file: file, line: line, column: column, kind: .tooLong(what: what, limit: Self.maximumTextLength))
        }
        throw error(p, stream: fieldStart, .tooLong(what: what, limit: Self.maximumTextLength))
    }

    static func appendRaw(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, latin1: Bool, into out: inout [UInt8]) {
        if !latin1 {
            out.append(contentsOf: UnsafeBufferPointer(rebasing: p[start..<end]))
            return
        }
        for i in start..<end {
            let b = p[i]
            if b < 0x80 {
                out.append(b)
            } else {
                out.append(0xC0 | b >> 6)
                out.append(0x80 | b & 0x3F)
            }
        }
    }

    /// Appends `start..<end` to `out` with the five predefined entities and numeric character
    /// references decoded (XML 1.0 §4.1, §4.6).
    /// - Returns: nil, or where a malformed reference starts and what was expected there.
    static func decodeText(
        _ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, latin1: Bool, into out: inout [UInt8]
    ) -> (offset: Int, expected: String)? {
        var i = start
        var runStart = start
        while i < end {
            guard p[i] == ASCII.amp else {
                i += 1
                continue
            }
            appendRaw(p, runStart, i, latin1: latin1, into: &out)
            var j = i + 1
            while j < end, p[j] != ASCII.semicolon, j - i < 12 { j += 1 }
            guard j < end, p[j] == ASCII.semicolon else { return (i, "an entity reference ending in ';'") }
            let entity = String(decoding: UnsafeBufferPointer(rebasing: p[(i + 1)..<j]), as: UTF8.self)
            switch entity {
            case "lt": out.append(ASCII.lt)
            case "gt": out.append(ASCII.gt)
            case "amp": out.append(ASCII.amp)
            case "quot": out.append(ASCII.quote)
            case "apos": out.append(ASCII.apos)
            default:
                var value: UInt32?
                if entity.hasPrefix("#x") || entity.hasPrefix("#X") {
                    value = UInt32(entity.dropFirst(2), radix: 16)
                } else if entity.hasPrefix("#") {
                    value = UInt32(entity.dropFirst(1))
                }
                guard let v = value, let scalar = Unicode.Scalar(v) else {
                    return (i, "a known entity (&lt; &gt; &amp; &quot; &apos; &#…;), found '&\(InputExcerpt.excerpt(entity));'")
                }
                out.append(contentsOf: UTF8.encode(scalar) ?? UTF8.EncodedScalar())
            }
            i = j + 1
            runStart = i
        }
        appendRaw(p, runStart, end, latin1: latin1, into: &out)
        return nil
    }
}
