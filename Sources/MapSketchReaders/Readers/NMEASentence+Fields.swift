// NMEA 0183 sentences: the fields of one sentence and how they are parsed.

extension NMEAReader {
    /// What a field parser needs to report an error.
    struct SentenceContext {
        let file: String?
        let line: Int
        let p: UnsafeBufferPointer<UInt8>
        let lineStart: Int

        func error(at position: Int, _ kind: ReaderError.Kind) -> ReaderError {
            ReaderError(file: file, line: line, column: position - lineStart + 1, kind: kind)
        }

        func text(_ r: Range<Int>) -> String {
            String(decoding: UnsafeBufferPointer(rebasing: p[r]), as: UTF8.self)
        }

        func number(_ r: Range<Int>, _ field: String) throws -> Double? {
            if r.isEmpty { return nil }
            guard let v = ByteScan.double(p, r.lowerBound, r.upperBound), v.isFinite else {
                throw error(at: r.lowerBound, .badNumber(field: field, found: text(r)))
            }
            return v
        }

        /// `hhmmss[.sss]` → seconds of day.
        func timeOfDay(_ r: Range<Int>, _ field: String) throws -> Double? {
            if r.isEmpty { return nil }
            guard r.count >= 6, let h = ByteScan.twoDigits(p, r.lowerBound), let m = ByteScan.twoDigits(p, r.lowerBound + 2),
                let s = ByteScan.double(p, r.lowerBound + 4, r.upperBound), h < 24, m < 60, s >= 0, s < 61
            else { throw error(at: r.lowerBound, .badTime(found: text(r))) }
            return Double(h * 3600 + m * 60) + s
        }

        /// `ddmmyy` → days since 1970 (years 80…99 → 19xx, 00…79 → 20xx).
        func date(_ r: Range<Int>, _ field: String) throws -> Int? {
            if r.isEmpty { return nil }
            guard r.count == 6, let d = ByteScan.twoDigits(p, r.lowerBound), let mo = ByteScan.twoDigits(p, r.lowerBound + 2),
                let yy = ByteScan.twoDigits(p, r.lowerBound + 4)
            else { throw error(at: r.lowerBound, .badTime(found: text(r))) }
            let year = yy >= 80 ? 1900 + yy : 2000 + yy
            guard ByteScan.isValidDate(year: year, month: mo, day: d) else {
                throw error(at: r.lowerBound, .badTime(found: text(r)))
            }
            return ByteScan.daysFromCivil(year: year, month: mo, day: d)
        }

        /// ``parsedCoordinate(_:_:latitude:)`` in one pass for the plain form — 3…18 digits, a dot, digits
        /// (at most 18 after the degrees in all), N/S or E/W, in range — with the same arithmetic
        /// (the minutes as one integer over an exact power of ten); nil for anything else,
        /// including every input that would throw, which the general path then handles.
        @inline(__always)
        func plainCoordinate(_ r: Range<Int>, _ hemisphere: Range<Int>, latitude: Bool) -> Double? {
            guard hemisphere.count == 1 else { return nil }
            var i = r.lowerBound
            var whole = 0
            while i < r.upperBound {
                let d = p[i] &- ASCII.zero
                guard d < 10 else { break }
                whole = whole &* 10 &+ Int(d)
                i += 1
            }
            let wholeDigits = i - r.lowerBound
            guard wholeDigits >= 3, wholeDigits <= 18, i < r.upperBound, p[i] == ASCII.dot else { return nil }
            i += 1
            let fractionStart = i
            var minutes = UInt64(whole % 100)
            while i < r.upperBound {
                let d = p[i] &- ASCII.zero
                guard d < 10 else { return nil }
                minutes = minutes &* 10 &+ UInt64(d)
                i += 1
            }
            let fractionDigits = i - fractionStart
            guard 2 + fractionDigits <= 18, minutes < (1 << 53) else { return nil }
            var m = Double(minutes)
            if fractionDigits > 0 { m /= ByteScan.exactPowerOfTen(fractionDigits) }
            guard m < 60 else { return nil }
            var value = Double(whole / 100) + m / 60
            switch (p[hemisphere.lowerBound], latitude) {
            case (0x4E, true), (0x45, false): break
            case (0x53, true), (0x57, false): value = -value
            default: return nil
            }
            guard abs(value) <= (latitude ? 90 : 180) else { return nil }
            return value
        }

        /// `ddmm.mmmm` / `dddmm.mmmm` plus hemisphere → signed degrees: the plain form in one pass
        /// (``plainCoordinate(_:_:latitude:)``), anything else by the general parse.
        @inline(__always)
        func coordinate(_ r: Range<Int>, _ hemisphere: Range<Int>, latitude: Bool) throws -> Double? {
            if r.isEmpty { return nil }
            if let value = plainCoordinate(r, hemisphere, latitude: latitude) { return value }
            return try parsedCoordinate(r, hemisphere, latitude: latitude)
        }

        /// The general parse of a non-empty coordinate field and its hemisphere: degrees before the
        /// minutes' two whole digits, minutes below 60, N/S or E/W, in range; throws otherwise.
        func parsedCoordinate(_ r: Range<Int>, _ hemisphere: Range<Int>, latitude: Bool) throws -> Double {
            let name = latitude ? "latitude" : "longitude"
            var dot = r.lowerBound
            while dot < r.upperBound, p[dot] != ASCII.dot { dot += 1 }
            guard dot - r.lowerBound >= 3, let degrees = ByteScan.uint(p, r.lowerBound, dot - 2),
                let minutes = ByteScan.double(p, dot - 2, r.upperBound)
            else { throw error(at: r.lowerBound, .badNumber(field: name, found: text(r))) }
            guard minutes < 60 else { throw error(at: r.lowerBound, .outOfRange(field: name + " minutes", value: minutes)) }
            var value = Double(degrees) + minutes / 60
            guard hemisphere.count == 1 else {
                throw error(at: hemisphere.lowerBound, .syntax(expected: latitude ? "N or S" : "E or W"))
            }
            switch (p[hemisphere.lowerBound], latitude) {
            case (0x4E, true), (0x45, false): break
            case (0x53, true), (0x57, false): value = -value
            default: throw error(at: hemisphere.lowerBound, .syntax(expected: latitude ? "N or S" : "E or W"))
            }
            guard abs(value) <= (latitude ? 90 : 180) else {
                throw error(at: r.lowerBound, .outOfRange(field: name, value: value))
            }
            return value
        }
    }
}

/// Comma-separated fields of one sentence body, consumed in order.
struct NMEAFields {
    var position: Int
    let end: Int
    /// The offsets of the body's commas at or after `position`, in order, when the line scan
    /// noted them (nil: fields are found by scanning).
    private var commas: UnsafePointer<Int>?
    /// How many offsets `commas` still holds.
    private var remaining = 0

    /// The fields of `start..<end`; `commas`, when given, are the offsets of every comma of the
    /// sentence body holding that span, in order.
    init(start: Int, end: Int, commas: UnsafeBufferPointer<Int>? = nil) {
        position = start
        self.end = end
        if let commas, let base = commas.baseAddress {
            var k = 0
            while k < commas.count, commas[k] < start { k += 1 }
            self.commas = base + k
            remaining = commas.count - k
        }
    }

    /// The next field's byte range (empty once the fields run out).
    mutating func next(_ p: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        guard position <= end else { return end..<end }
        let start = position
        if let c = commas {
            if remaining > 0 {
                position = c.pointee
                commas = c + 1
                remaining -= 1
            } else {
                position = end
            }
        } else {
            while position < end, p[position] != ASCII.comma { position += 1 }
        }
        let r = start..<position
        position += 1
        return r
    }
}

/// The value parsed from the last field of one kind, with the field's bytes (a range of the
/// reader's input window; the reader empties the cache when the window moves).
struct NMEAFieldCache<Value> {
    private var range = 0..<0
    private var value: Value?

    /// The cached value when `r` holds the same bytes as the cached field.
    @inline(__always) func value(for r: Range<Int>, in p: UnsafeBufferPointer<UInt8>) -> Value? {
        guard let value, ByteScan.sameBytes(p, r, range) else { return nil }
        return value
    }

    /// Caches `v` parsed from `r`.
    mutating func store(_ v: Value, for r: Range<Int>) {
        range = r
        value = v
    }
}
