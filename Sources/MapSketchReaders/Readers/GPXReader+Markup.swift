// GPX reader: the XML markup (declaration, comments, CDATA, DOCTYPE, start and end tags, attributes).

extension GPXReader {
    /// Index of the first occurrence of `pattern` at or after `from`, or nil.
    static func find(_ p: UnsafeBufferPointer<UInt8>, _ pattern: StaticString, from: Int) -> Int? {
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

    static func hasPrefix(_ p: UnsafeBufferPointer<UInt8>, _ at: Int, _ pattern: StaticString) -> Bool {
        let n = pattern.utf8CodeUnitCount
        guard at + n <= p.count else { return false }
        for k in 0..<n where p[at + k] != pattern.utf8Start[k] { return false }
        return true
    }

    /// One token; returns a fix when a point element closes. A token that runs past the window
    /// throws ``NeedsInput`` (before changing any state, so it can be scanned again) unless the
    /// window ends the input; text is taken as far as the window goes.
    mutating func step(_ p: UnsafeBufferPointer<UInt8>) throws -> GPSFix? {
        if p[pos] != ASCII.lt {
            let start = pos
            var end = pos
            while end < p.count, p[end] != ASCII.lt { end += 1 }
            if end == p.count, !complete, field != .other {
                // Keep a character reference cut by the window's end for the next window.
                var k = end
                while k > start, end - k < 12, p[k - 1] != ASCII.amp, p[k - 1] != ASCII.semicolon { k -= 1 }
                if k > start, end - k < 12, p[k - 1] == ASCII.amp { end = k - 1 }
                if end == start { throw NeedsInput() }
            }
            if field != .other {
                try appendText(p, start, end)
            } else if stack.isEmpty {
                for i in start..<end where !ASCII.isSpace(p[i]) {
                    throw error(p, at: i, .syntax(expected: "markup ('<'), found text outside the root element"))
                }
            }
            pos = end
            return nil
        }
        // Enough bytes to tell the markup apart (`<![CDATA[` is the longest opening).
        if p.count - pos < 9, !complete { throw NeedsInput() }
        let next = pos + 1 < p.count ? p[pos + 1] : 0
        if next == ASCII.question {
            guard let end = Self.find(p, "?>", from: pos + 2) else { throw incomplete(p, at: pos, .unexpectedEnd(expected: "'?>'")) }
            if Self.hasPrefix(p, pos, "<?xml"), pos + 5 < p.count, ASCII.isSpace(p[pos + 5]) { try declaration(p, pos + 5, end) }
            pos = end + 2
            return nil
        }
        if next == ASCII.bang {
            if Self.hasPrefix(p, pos, "<!--") {
                guard let end = Self.find(p, "-->", from: pos + 4) else { throw incomplete(p, at: pos, .unexpectedEnd(expected: "'-->'")) }
                pos = end + 3
            } else if Self.hasPrefix(p, pos, "<![CDATA[") {
                guard let end = Self.find(p, "]]>", from: pos + 9) else { throw incomplete(p, at: pos, .unexpectedEnd(expected: "']]>'")) }
                if field != .other { try appendRaw(p, pos + 9, end) }
                pos = end + 3
            } else {  // <!DOCTYPE …> with an optional [internal subset]
                var depth = 0
                var i = pos + 2
                while i < p.count {
                    if p[i] == ASCII.lbracket { depth += 1 } else if p[i] == ASCII.rbracket { depth -= 1 } else if p[i] == ASCII.gt, depth <= 0 { break }
                    i += 1
                }
                guard i < p.count else { throw incomplete(p, at: pos, .unexpectedEnd(expected: "'>'")) }
                pos = i + 1
            }
            return nil
        }
        if next == ASCII.slash { return try endTag(p) }
        return try startTag(p)
    }

    /// `<?xml version="1.0" encoding="…"?>`: picks the text transcoding.
    mutating func declaration(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) throws {
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

    static func kind(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> ElementKind {
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

    static func isNameByte(_ b: UInt8) -> Bool {
        !(ASCII.isSpace(b) || b == ASCII.gt || b == ASCII.slash || b == ASCII.eq || b == ASCII.lt)
    }

    mutating func startTag(_ p: UnsafeBufferPointer<UInt8>) throws -> GPSFix? {
        let tagStart = pos
        let nameStart = pos + 1
        var i = nameStart
        while i < p.count, Self.isNameByte(p[i]) { i += 1 }
        let nameEnd = i
        guard i < p.count || complete else { throw NeedsInput() }
        guard nameEnd > nameStart else { throw error(p, at: nameStart, .syntax(expected: "an element name after '<'")) }
        let parent = stack.last?.kind
        var kind = skipDepth > 0 ? .other : Self.kind(p, nameStart, nameEnd)
        if stack.isEmpty {
            guard kind == .gpx, !sawRoot else {
                throw error(p, at: tagStart, .syntax(expected: sawRoot ? "a single root element" : "<gpx> root element"))
            }
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
            guard i < p.count else { throw incomplete(p, at: tagStart, .unexpectedEnd(expected: "'>' closing the start tag")) }
            if p[i] == ASCII.gt {
                i += 1
                break
            }
            if p[i] == ASCII.slash {
                guard i + 1 < p.count else { throw incomplete(p, at: i, .syntax(expected: "'/>'")) }
                guard p[i + 1] == ASCII.gt else { throw error(p, at: i, .syntax(expected: "'/>'")) }
                selfClosing = true
                i += 2
                break
            }
            let attrStart = i
            while i < p.count, Self.isNameByte(p[i]) { i += 1 }
            let attrEnd = i
            while i < p.count, ASCII.isSpace(p[i]) { i += 1 }
            guard i < p.count else { throw incomplete(p, at: tagStart, .unexpectedEnd(expected: "'>' closing the start tag")) }
            guard attrEnd > attrStart else { throw error(p, at: attrStart, .syntax(expected: "an attribute name")) }
            guard p[i] == ASCII.eq else { throw error(p, at: i, .syntax(expected: "'=' after attribute name")) }
            i += 1
            while i < p.count, ASCII.isSpace(p[i]) { i += 1 }
            guard i < p.count else { throw incomplete(p, at: tagStart, .unexpectedEnd(expected: "'>' closing the start tag")) }
            guard p[i] == ASCII.quote || p[i] == ASCII.apos else {
                throw error(p, at: i, .syntax(expected: "a quoted attribute value"))
            }
            let quote = p[i]
            let valueStart = i + 1
            i = valueStart
            while i < p.count, p[i] != quote { i += 1 }
            guard i < p.count else { throw incomplete(p, at: valueStart - 1, .unexpectedEnd(expected: "closing quote")) }
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
        // The whole tag is in the window: from here on, state changes.
        if !selfClosing {
            guard stack.count < Self.maximumDepth else {
                throw error(p, at: tagStart, .syntax(expected: "elements nested at most \(Self.maximumDepth) deep"))
            }
            guard nameEnd - nameStart <= Self.maximumNameLength else {
                throw error(p, at: nameStart, .tooLong(what: "the element name", limit: Self.maximumNameLength))
            }
        }
        if stack.isEmpty { sawRoot = true }
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
            point.fix.latitude = lat
            point.fix.longitude = lon
            point.fix.line = lines.position(of: input.base + tagStart, in: p, base: input.base).line
        case .ele, .time, .hdop, .speed, .course, .fix, .name:
            field = kind
            fieldStart = input.base + pos
            fieldPosition = nil
            scratch.removeAll(keepingCapacity: true)
        case .extensions: skipDepth = 1
        default: if skipDepth > 0, !selfClosing { skipDepth += 1 }
        }
        if selfClosing {
            if kind == .extensions { skipDepth = 0 }
            if skipDepth > 0 { return nil }
            return try close(kind, p)
        }
        let start = names.count
        names.append(contentsOf: UnsafeBufferPointer(rebasing: p[nameStart..<nameEnd]))
        stack.append(OpenElement(kind: kind, nameStart: start, nameLength: nameEnd - nameStart, tagStart: input.base + tagStart))
        return nil
    }

    mutating func endTag(_ p: UnsafeBufferPointer<UInt8>) throws -> GPSFix? {
        let tagStart = pos
        let nameStart = pos + 2
        var i = nameStart
        while i < p.count, Self.isNameByte(p[i]) { i += 1 }
        let nameEnd = i
        while i < p.count, ASCII.isSpace(p[i]) { i += 1 }
        guard i < p.count else { throw incomplete(p, at: tagStart, .unexpectedEnd(expected: "'>' closing the end tag")) }
        guard p[i] == ASCII.gt else { throw error(p, at: i, .syntax(expected: "'>' closing the end tag")) }
        guard let open = stack.last else {
            throw error(p, at: tagStart, .mismatchedTag(expected: "(no open element)", found: text(p, nameStart, nameEnd)))
        }
        var same = open.nameLength == nameEnd - nameStart
        var k = 0
        while same, k < open.nameLength {
            same = names[open.nameStart + k] == p[nameStart + k]
            k += 1
        }
        guard same else { throw error(p, at: tagStart, .mismatchedTag(expected: name(open), found: text(p, nameStart, nameEnd))) }
        pos = i + 1
        stack.removeLast()
        names.removeLast(open.nameLength)
        if skipDepth > 0 {
            skipDepth -= 1
            return nil
        }
        return try close(open.kind, p)
    }
}
