// GPX reader: what a closing element means (a point, a waypoint, a measurement) and the character
// data of measurements, entities and Latin-1 transcoding.

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
        let at = fieldStart
        switch kind {
        case .time:
            guard let value else { throw error(p, at: at, .badTime(found: found)) }
            point.fix.time = value
        case .fix:
            switch found {
            case "2d": (point.fix.quality, point.fix.mode) = (.gps, .twoD)
            case "3d": (point.fix.quality, point.fix.mode) = (.gps, .threeD)
            case "dgps": point.fix.quality = .dgps
            case "pps": point.fix.quality = .pps
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
            case .ele: point.fix.elevation = value
            case .hdop: point.fix.hdop = value
            case .speed: point.fix.speed = value
            default: point.fix.course = value
            }
        }
    }

    mutating func coordinate(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, _ name: String, limit: Double)
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

    mutating func appendRaw(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) {
        if !latin1 {
            scratch.append(contentsOf: UnsafeBufferPointer(rebasing: p[start..<end]))
            return
        }
        for i in start..<end { appendLatin1(p[i]) }
    }

    mutating func appendLatin1(_ b: UInt8) {
        if b < 0x80 {
            scratch.append(b)
        } else {
            scratch.append(0xC0 | b >> 6)
            scratch.append(0x80 | b & 0x3F)
        }
    }

    mutating func appendScalar(_ v: UInt32) {
        guard let scalar = Unicode.Scalar(v) else { return }
        scratch.append(contentsOf: UTF8.encode(scalar) ?? UTF8.EncodedScalar())
    }

    /// Character data with entity references decoded.
    mutating func appendText(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) throws {
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
