// NMEA 0183 reader: a streaming byte scanner over a receiver log.

/// Reads GPS fixes from NMEA 0183 sentences (GGA, RMC, GLL, VTG, GSA, ZDA from any talker:
/// GP, GN, GL, GA, BD, GB, GQ…), one fix per epoch.
///
/// - Epochs: every sentence carrying a UTC time of day (GGA, RMC, GLL, ZDA) belongs to the epoch
///   of that time; sentences without time (VTG, GSA) belong to the current epoch. A fix is emitted
///   when the next epoch starts (or the input ends), merging what the epoch's sentences said:
///   position and altitude from GGA (else RMC, else GLL), date, speed and course from RMC/VTG,
///   HDOP from GGA or GSA, 2-D/3-D mode from GSA.
/// - Dates: RMC and ZDA carry the date; GGA/GLL times combine with the last known date, and the
///   date rolls forward by one day when the time of day wraps backwards by more than 12 hours
///   (midnight). Before any date is known fixes have `time == nil`. Two-digit RMC years map to
///   1980…2079; ZDA years must have four digits. By default the date is the receiver's; `Options.weekRolloverPivot` turns on
///   gpsd's GPS week-rollover correction (+1024 weeks) for receivers with that bug.
/// - No fix: GGA quality 0 and RMC/GLL status `V` carry no position; such sentences are counted in
///   `statistics.noFix` and an epoch with no valid position emits nothing.
/// - Checksums: a sentence whose `*hh` checksum does not match is skipped and counted in
///   `statistics.badChecksum` (not fatal); a sentence without a checksum is accepted and counted.
///   Lines that hold no `$` sentence (comments, binary receiver output) are counted and skipped,
///   and so are sentences cut off mid-way: fewer fields than their type needs, or a final line with
///   neither newline nor checksum (`statistics.truncated`).
/// - Errors: a sentence with a valid checksum but a malformed field (a latitude that is not a
///   number, minutes ≥ 60, a hemisphere that is not N/S) throws `ReaderError` with line:column.
///
/// ```swift
/// var reader = NMEAReader(bytes: Array(logData), file: "drive.nmea")
/// while let fix = try reader.next() { … }
/// print(reader.statistics.badChecksum)
/// ```
/// - Complexity: O(n) in the input bytes; no allocation per sentence or fix.
/// Format reference: NMEA 0183 v4.11 §6.3 (GGA, GLL, GSA, RMC, VTG, ZDA), as summarised in gpsd's
/// "NMEA 0183 Revealed" (Eric S. Raymond).
public struct NMEAReader {
    /// What the reader saw, by kind.
    public struct Statistics: Hashable, Sendable, Codable {
        /// Lines read.
        public var lines = 0
        /// Sentences accepted (checksum good or absent), of every type.
        public var sentences = 0
        /// Sentences skipped because their checksum did not match.
        public var badChecksum = 0
        /// Accepted sentences that had no checksum.
        public var withoutChecksum = 0
        /// GGA/RMC/GLL sentences that reported no fix (quality 0 or status V).
        public var noFix = 0
        /// Accepted sentences of types the reader does not use (GSV, proprietary `$P…`, …).
        public var unsupported = 0
        /// Lines without a sentence: blank, `#` comments, binary noise.
        public var ignoredLines = 0
        /// Sentences cut off mid-way (fewer fields than their type needs, or a last line without
        /// newline and checksum), skipped.
        public var truncated = 0
        /// Fixes emitted.
        public var fixes = 0

        /// All zero.
        public init() {}
    }

    /// The file name used in errors.
    public let file: String?
    /// How dates are interpreted (week-rollover correction).
    public let options: Options
    /// Counts so far (final once `next()` returned nil).
    public private(set) var statistics = Statistics()

    private let bytes: [UInt8]
    private var offset = 0
    private var lineNumber = 0
    private var state = NMEAState()
    private var finished = false
    /// Whether lines take the one-pass scan and parsed fields are reused (false: the reference
    /// line-by-line path, kept for lines the scan does not cover and for differential tests).
    let fastPath: Bool
    /// The last time and date fields parsed and their values: a receiver repeats them in every
    /// sentence of an epoch (time) and of a day (date), and parsing is a pure function of the bytes.
    private var lastTime = NMEAFieldCache<Double>()
    private var lastDate = NMEAFieldCache<Int>()

    /// A reader over the bytes of an NMEA log; `file` labels errors.
    public init(bytes: [UInt8], file: String? = nil) {
        self.init(bytes: bytes, file: file, options: Options())
    }

    /// A reader over the bytes of an NMEA log with `options` (e.g. a week-rollover pivot).
    public init(bytes: [UInt8], file: String? = nil, options: Options) {
        self.init(bytes: bytes, file: file, options: options, fastPath: true)
    }

    /// A reader that takes the one-pass line scan and field reuse (`fastPath`) or only the
    /// reference line-by-line path (for tests comparing the two).
    init(bytes: [UInt8], file: String?, options: Options, fastPath: Bool) {
        self.bytes = bytes
        self.file = file
        self.options = options
        self.fastPath = fastPath
    }

    /// A reader over NMEA text.
    public init(text: String, file: String? = nil, options: Options = Options()) {
        self.init(bytes: Array(text.utf8), file: file, options: options)
    }

    /// The next fix, or nil at the end of the input.
    /// - Throws: `ReaderError` for a checksummed sentence with a malformed field.
    /// - Complexity: amortised O(bytes of the sentences up to the next fix).
    public mutating func next() throws -> GPSFix? {
        if finished { return nil }
        let storage = bytes
        // Where the line scan notes the commas of a sentence, so fields need no second scan.
        return try withUnsafeTemporaryAllocation(of: Int.self, capacity: Self.commaTableCapacity) { table in
        try storage.withUnsafeBufferPointer { p -> GPSFix? in
            let n = p.count
            while offset < n {
                let start = offset
                lineNumber += 1
                statistics.lines += 1
                var fix: GPSFix?
                if fastPath, p[start] == ASCII.dollar {
                    // One pass over `$body*`: checksum and field count, stopping at '*' or LF.
                    var i = start + 1
                    var commas = 0
                    // Eight bytes at a time while no '*' or LF is among them (the loads stay
                    // inside the buffer: i + 8 <= n), then byte by byte up to the stop byte.
                    var words: UInt64 = 0
                    // The first `capacity` comma offsets go to `table` (little-endian loads: byte k
                    // of the word is bits 8k…8k+7, whatever the machine's byte order).
                    let capacity = table.count
                    if let base = p.baseAddress {
                        while i &+ 8 <= n {
                            let w = UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
                            if SWAR.hasZeroByte(w ^ SWAR.stars) || SWAR.hasZeroByte(w ^ SWAR.newlines) { break }
                            words ^= w
                            var found = SWAR.zeroBytes(w ^ SWAR.commas)
                            while found != 0 {
                                if commas < capacity { table[commas] = i &+ found.trailingZeroBitCount &>> 3 }
                                commas &+= 1
                                found &= found &- 1
                            }
                            i &+= 8
                        }
                    }
                    var sum = SWAR.xorOfBytes(words)
                    while i < n {
                        let b = p[i]
                        if b == ASCII.star || b == ASCII.lf { break }
                        sum ^= b
                        if b == ASCII.comma {
                            if commas < capacity { table[commas] = i }
                            commas &+= 1
                        }
                        i += 1
                    }
                    let star = i
                    while i < n, p[i] != ASCII.lf { i += 1 }
                    let lineEnd = i
                    offset = lineEnd < n ? lineEnd + 1 : lineEnd
                    var end = lineEnd
                    while end > start, ASCII.isSpace(p[end - 1]) { end -= 1 }
                    if star < lineEnd, end == star + 3 {
                        // `$body*hh` then only whitespace: exactly the checksummed case of
                        // `sentence`, whose one pass this loop did.
                        guard let hi = Self.hexValue(p[end - 2]), let lo = Self.hexValue(p[end - 1]), sum == hi << 4 | lo
                        else {
                            statistics.badChecksum += 1
                            continue
                        }
                        let commaTable = commas <= capacity ? UnsafeBufferPointer(rebasing: table[0..<commas]) : nil
                        fix = try dispatch(p, lineStart: start, body: start + 1, bodyEnd: star, commas: commas, commaTable: commaTable)
                    } else {
                        fix = try sentence(p, start, lineEnd)
                    }
                } else {
                    var end = start
                    while end < n, p[end] != ASCII.lf { end += 1 }
                    offset = end < n ? end + 1 : end
                    fix = try sentence(p, start, end)
                }
                if let fix {
                    statistics.fixes += 1
                    return fix
                }
            }
            finished = true
            if let fix = state.finishEpoch() {
                statistics.fixes += 1
                return fix
            }
            return nil
        }
        }
    }

    /// The most comma offsets the line scan notes (GSA has 17 commas, GSV up to 19).
    static let commaTableCapacity = 32

    /// Reads every fix of an NMEA log (one segment); `options` default to the receiver's dates.
    /// - Throws: `ReaderError` as `next()`.
    /// - Complexity: O(n) in the input bytes.
    public static func readAll(
        bytes: [UInt8], file: String? = nil, options: Options = Options()
    ) throws -> (track: GPSTrack, statistics: Statistics) {
        var reader = NMEAReader(bytes: bytes, file: file, options: options)
        var fixes: [GPSFix] = []
        fixes.reserveCapacity(bytes.count / 150)
        while let fix = try reader.next() { fixes.append(fix) }
        return (GPSTrack(fixes: fixes, segmentCount: fixes.isEmpty ? 0 : 1), reader.statistics)
    }

    // MARK: - Sentences

    private static func hexValue(_ b: UInt8) -> UInt8? {
        switch b {
        case 0x30...0x39: return b - 0x30
        case 0x41...0x46: return b - 0x41 + 10
        case 0x61...0x66: return b - 0x61 + 10
        default: return nil
        }
    }

    /// Handles one line; returns a fix when the line starts a new epoch after a valid one.
    private mutating func sentence(_ p: UnsafeBufferPointer<UInt8>, _ lineStart: Int, _ lineEnd: Int) throws -> GPSFix? {
        var end = lineEnd
        while end > lineStart, ASCII.isSpace(p[end - 1]) { end -= 1 }
        var dollar = lineStart
        while dollar < end, p[dollar] != ASCII.dollar { dollar += 1 }
        guard dollar < end else {
            statistics.ignoredLines += 1
            return nil
        }
        // Checksum: '*' followed by two hex digits at the end of the sentence. One pass computes
        // it and counts the fields.
        var bodyEnd = end
        var commas = 0
        if end - dollar >= 4, p[end - 3] == ASCII.star {
            bodyEnd = end - 3
            guard let hi = Self.hexValue(p[end - 2]), let lo = Self.hexValue(p[end - 1]) else {
                statistics.badChecksum += 1
                return nil
            }
            var sum: UInt8 = 0
            for i in (dollar + 1)..<bodyEnd {
                let b = p[i]
                sum ^= b
                if b == ASCII.comma { commas += 1 }
            }
            guard sum == hi << 4 | lo else {
                statistics.badChecksum += 1
                return nil
            }
        } else {
            var star = dollar
            while star < end, p[star] != ASCII.star { star += 1 }
            if star < end {  // a '*' not followed by exactly two characters: damaged
                statistics.badChecksum += 1
                return nil
            }
            if lineEnd == p.count {  // last line, no newline, no checksum: a capture cut off mid-sentence
                statistics.truncated += 1
                return nil
            }
            statistics.withoutChecksum += 1
            for i in (dollar + 1)..<bodyEnd where p[i] == ASCII.comma { commas += 1 }
        }
        return try dispatch(p, lineStart: lineStart, body: dollar + 1, bodyEnd: bodyEnd, commas: commas)
    }

    /// Handles an accepted sentence `body..<bodyEnd` (after `$`, before `*`) with `commas` commas.
    /// `commaTable`, when given, holds the offsets of all `commas` commas of the body, in order.
    private mutating func dispatch(
        _ p: UnsafeBufferPointer<UInt8>, lineStart: Int, body: Int, bodyEnd: Int, commas: Int,
        commaTable: UnsafeBufferPointer<Int>? = nil
    ) throws -> GPSFix? {
        statistics.sentences += 1
        guard bodyEnd - body >= 6, p[body] != 0x50, p[body + 5] == ASCII.comma else {  // 'P' proprietary
            statistics.unsupported += 1
            return nil
        }
        let t0 = p[body + 2], t1 = p[body + 3], t2 = p[body + 4]
        let required: Int
        switch (t0, t1, t2) {
        case (0x47, 0x47, 0x41): required = 9  // GGA up to altitude
        case (0x52, 0x4D, 0x43): required = 9  // RMC up to date
        case (0x47, 0x4C, 0x4C): required = 6  // GLL up to status
        case (0x56, 0x54, 0x47): required = 5  // VTG up to speed in knots
        case (0x5A, 0x44, 0x41): required = 4  // ZDA up to year
        default: required = 0
        }
        guard commas >= required else {  // cut off mid-sentence (only possible without a checksum)
            statistics.truncated += 1
            return nil
        }
        var fields = NMEAFields(start: body + 6, end: bodyEnd, commas: commaTable)
        let ctx = SentenceContext(file: file, line: lineNumber, p: p, lineStart: lineStart, fastPath: fastPath)
        switch (t0, t1, t2) {
        case (0x47, 0x47, 0x41): return try gga(&fields, ctx)  // GGA
        case (0x52, 0x4D, 0x43): return try rmc(&fields, ctx)  // RMC
        case (0x47, 0x4C, 0x4C): return try gll(&fields, ctx)  // GLL
        case (0x56, 0x54, 0x47): try vtg(&fields, ctx); return nil  // VTG
        case (0x47, 0x53, 0x41): try gsa(&fields, ctx); return nil  // GSA
        case (0x5A, 0x44, 0x41): return try zda(&fields, ctx)  // ZDA
        default:
            statistics.unsupported += 1
            return nil
        }
    }

    /// What a field parser needs to report an error.
    private struct SentenceContext {
        let file: String?
        let line: Int
        let p: UnsafeBufferPointer<UInt8>
        let lineStart: Int
        /// Whether plain coordinates take the one-pass parse (the reader's `fastPath`).
        let fastPath: Bool

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

        /// ``coordinate(_:_:latitude:)`` in one pass for the plain form — 3…18 digits, a dot, digits
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

        /// `ddmm.mmmm` / `dddmm.mmmm` plus hemisphere → signed degrees.
        func coordinate(_ r: Range<Int>, _ hemisphere: Range<Int>, latitude: Bool) throws -> Double? {
            if r.isEmpty { return nil }
            if fastPath, let value = plainCoordinate(r, hemisphere, latitude: latitude) { return value }
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

    private static let knotsToMetersPerSecond = 1852.0 / 3600.0

    /// `SentenceContext.timeOfDay`, reusing the last value when the field repeats the last one's bytes.
    private mutating func timeOfDay(_ r: Range<Int>, _ c: SentenceContext, _ field: String) throws -> Double? {
        if fastPath, let v = lastTime.value(for: r, in: c.p) { return v }
        let v = try c.timeOfDay(r, field)
        if fastPath, let v { lastTime.store(v, for: r) }
        return v
    }

    /// `SentenceContext.date`, reusing the last value when the field repeats the last one's bytes.
    private mutating func date(_ r: Range<Int>, _ c: SentenceContext, _ field: String) throws -> Int? {
        if fastPath, let v = lastDate.value(for: r, in: c.p) { return v }
        let v = try c.date(r, field)
        if fastPath, let v { lastDate.store(v, for: r) }
        return v
    }

    private mutating func gga(_ f: inout NMEAFields, _ c: SentenceContext) throws -> GPSFix? {
        let timeField = f.next(c.p)
        let latField = f.next(c.p), ns = f.next(c.p), lonField = f.next(c.p), ew = f.next(c.p)
        let qualityField = f.next(c.p)
        _ = f.next(c.p)  // satellites
        let hdopField = f.next(c.p), altField = f.next(c.p)
        let tod = try timeOfDay(timeField, c, "GGA time")
        let emitted = state.beginEpoch(timeOfDay: tod, line: c.line)
        let qualityNumber: Int? = qualityField.isEmpty ? 0 : ByteScan.uint(c.p, qualityField.lowerBound, qualityField.upperBound)
        guard let q = qualityNumber else {
            throw c.error(at: qualityField.lowerBound, .badNumber(field: "GGA fix quality", found: c.text(qualityField)))
        }
        if let hdop = try c.number(hdopField, "GGA HDOP"), q != 0 { state.epoch.hdop = hdop }
        guard q != 0, let lat = try c.coordinate(latField, ns, latitude: true),
            let lon = try c.coordinate(lonField, ew, latitude: false)
        else {
            statistics.noFix += 1
            return emitted
        }
        let quality: GPSFixQuality
        switch q {
        case 2: quality = .dgps
        case 3: quality = .pps
        case 4: quality = .rtkFixed
        case 5: quality = .rtkFloat
        case 6: quality = .estimated
        case 7: quality = .manual
        case 8: quality = .simulated
        default: quality = .gps
        }
        let alt = try c.number(altField, "GGA altitude")
        state.epoch.setPosition(lat, lon, rank: 3, line: c.line)
        state.epoch.ggaPosition = (latField, ns, lonField, ew)
        if let alt { state.epoch.elevation = alt }
        state.epoch.quality = quality
        return emitted
    }

    private mutating func rmc(_ f: inout NMEAFields, _ c: SentenceContext) throws -> GPSFix? {
        let timeField = f.next(c.p), status = f.next(c.p)
        let latField = f.next(c.p), ns = f.next(c.p), lonField = f.next(c.p), ew = f.next(c.p)
        let speedField = f.next(c.p), courseField = f.next(c.p), dateField = f.next(c.p)
        _ = f.next(c.p)
        _ = f.next(c.p)  // magnetic variation, direction
        let modeField = f.next(c.p)
        let tod = try timeOfDay(timeField, c, "RMC time")
        let emitted = state.beginEpoch(timeOfDay: tod, line: c.line)
        if let days = try date(dateField, c, "RMC date") { state.date = options.correctedDays(days, timeOfDay: tod) }
        let valid = status.count == 1 && c.p[status.lowerBound] == 0x41  // 'A'
        let modeByte: UInt8 = modeField.count >= 1 ? c.p[modeField.lowerBound] : 0x41
        guard valid, modeByte != 0x4E else {  // 'N' = not valid
            statistics.noFix += 1
            return emitted
        }
        // After a GGA of this epoch with the same coordinate bytes, the position is known (and
        // valid): parsing again would give the same values, which rank below GGA's anyway.
        if !(fastPath && state.epoch.rank == 3 && state.epoch.ggaPositionMatches(latField, ns, lonField, ew, c.p)) {
            guard let lat = try c.coordinate(latField, ns, latitude: true),
                let lon = try c.coordinate(lonField, ew, latitude: false)
            else {
                statistics.noFix += 1
                return emitted
            }
            state.epoch.setPosition(lat, lon, rank: 2, line: c.line)
        }
        if let knots = try c.number(speedField, "RMC speed") { state.epoch.speed = knots * Self.knotsToMetersPerSecond }
        if let course = try c.number(courseField, "RMC course") { state.epoch.course = course }
        if state.epoch.quality == .unknown {
            switch modeByte {
            case 0x44: state.epoch.quality = .dgps  // D
            case 0x52: state.epoch.quality = .rtkFixed  // R
            case 0x46: state.epoch.quality = .rtkFloat  // F
            case 0x45: state.epoch.quality = .estimated  // E
            case 0x4D: state.epoch.quality = .manual  // M
            case 0x53: state.epoch.quality = .simulated  // S
            default: state.epoch.quality = .gps
            }
        }
        return emitted
    }

    private mutating func gll(_ f: inout NMEAFields, _ c: SentenceContext) throws -> GPSFix? {
        let latField = f.next(c.p), ns = f.next(c.p), lonField = f.next(c.p), ew = f.next(c.p)
        let timeField = f.next(c.p), status = f.next(c.p), modeField = f.next(c.p)
        let tod = try timeOfDay(timeField, c, "GLL time")
        let emitted = state.beginEpoch(timeOfDay: tod, line: c.line)
        let valid = status.count == 1 && c.p[status.lowerBound] == 0x41
        let modeOK = modeField.isEmpty || c.p[modeField.lowerBound] != 0x4E
        guard valid, modeOK, let lat = try c.coordinate(latField, ns, latitude: true),
            let lon = try c.coordinate(lonField, ew, latitude: false)
        else {
            statistics.noFix += 1
            return emitted
        }
        state.epoch.setPosition(lat, lon, rank: 1, line: c.line)
        if state.epoch.quality == .unknown { state.epoch.quality = .gps }
        return emitted
    }

    private mutating func vtg(_ f: inout NMEAFields, _ c: SentenceContext) throws {
        let courseField = f.next(c.p)
        _ = f.next(c.p)
        _ = f.next(c.p)
        _ = f.next(c.p)
        let knotsField = f.next(c.p)
        guard state.epoch.open else { return }
        if state.epoch.course == nil, let course = try c.number(courseField, "VTG course") { state.epoch.course = course }
        if state.epoch.speed == nil, let knots = try c.number(knotsField, "VTG speed") {
            state.epoch.speed = knots * Self.knotsToMetersPerSecond
        }
    }

    private mutating func gsa(_ f: inout NMEAFields, _ c: SentenceContext) throws {
        _ = f.next(c.p)  // selection mode A/M
        let modeField = f.next(c.p)
        for _ in 0..<12 { _ = f.next(c.p) }
        _ = f.next(c.p)  // PDOP
        let hdopField = f.next(c.p)
        guard state.epoch.open else { return }
        if modeField.count == 1 {
            switch c.p[modeField.lowerBound] {
            case 0x32: state.epoch.gsaMode = .twoD
            case 0x33: state.epoch.gsaMode = .threeD
            default: break
            }
        }
        if state.epoch.hdop == nil, let hdop = try c.number(hdopField, "GSA HDOP"), hdop > 0 { state.epoch.hdop = hdop }
    }

    private mutating func zda(_ f: inout NMEAFields, _ c: SentenceContext) throws -> GPSFix? {
        let timeField = f.next(c.p), dayField = f.next(c.p), monthField = f.next(c.p), yearField = f.next(c.p)
        let tod = try timeOfDay(timeField, c, "ZDA time")
        let emitted = state.beginEpoch(timeOfDay: tod, line: c.line)
        if !dayField.isEmpty || !monthField.isEmpty || !yearField.isEmpty {
            guard yearField.count == 4,  // yyyy: also keeps the day count far from Int overflow
                let d = ByteScan.uint(c.p, dayField.lowerBound, dayField.upperBound),
                let m = ByteScan.uint(c.p, monthField.lowerBound, monthField.upperBound),
                let y = ByteScan.uint(c.p, yearField.lowerBound, yearField.upperBound),
                ByteScan.isValidDate(year: y, month: m, day: d)
            else {
                throw c.error(at: dayField.lowerBound, .badTime(found: c.text(dayField.lowerBound..<yearField.upperBound)))
            }
            state.date = options.correctedDays(ByteScan.daysFromCivil(year: y, month: m, day: d), timeOfDay: tod)
        }
        return emitted
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
/// reader's input, which never changes).
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

/// The merge state of the current epoch.
struct NMEAEpoch {
    var open = false
    var timeOfDay: Double?
    var line = 0
    var rank = 0
    var latitude = 0.0
    var longitude = 0.0
    var elevation: Double?
    var hdop: Double?
    var speed: Double?
    var course: Double?
    var quality = GPSFixQuality.unknown
    var gsaMode: GPSFixMode?
    /// The latitude, N/S, longitude and E/W fields of the GGA that set the position (rank 3).
    var ggaPosition = (0..<0, 0..<0, 0..<0, 0..<0)

    /// Whether the four coordinate fields hold the same bytes as the GGA's.
    func ggaPositionMatches(
        _ lat: Range<Int>, _ ns: Range<Int>, _ lon: Range<Int>, _ ew: Range<Int>, _ p: UnsafeBufferPointer<UInt8>
    ) -> Bool {
        ByteScan.sameBytes(p, lat, ggaPosition.0) && ByteScan.sameBytes(p, ns, ggaPosition.1)
            && ByteScan.sameBytes(p, lon, ggaPosition.2) && ByteScan.sameBytes(p, ew, ggaPosition.3)
    }

    mutating func setPosition(_ lat: Double, _ lon: Double, rank: Int, line: Int) {
        guard rank > self.rank else { return }
        self.rank = rank
        latitude = lat
        longitude = lon
        self.line = line
    }
}

struct NMEAState {
    var epoch = NMEAEpoch()
    /// Days since 1970 of the current UTC date, once a sentence told it.
    var date: Int?
    var lastTimeOfDay: Double?

    /// Opens the epoch of `timeOfDay` (nil: a sentence without time joins the current epoch);
    /// returns the previous epoch's fix when this starts a new one.
    mutating func beginEpoch(timeOfDay: Double?, line: Int) -> GPSFix? {
        if epoch.open {
            guard let tod = timeOfDay, let current = epoch.timeOfDay, abs(tod - current) > 1e-6 else {
                if epoch.timeOfDay == nil, let tod = timeOfDay { epoch.timeOfDay = tod }
                return nil
            }
        }
        let fix = finishEpoch()
        epoch = NMEAEpoch()
        epoch.open = true
        epoch.timeOfDay = timeOfDay
        epoch.line = line
        if let tod = timeOfDay {
            if let last = lastTimeOfDay, tod < last - 43_200, date != nil { date? += 1 }
            lastTimeOfDay = tod
        }
        return fix
    }

    /// The fix of the current epoch if it had a valid position; closes the epoch.
    mutating func finishEpoch() -> GPSFix? {
        defer { epoch.open = false }
        guard epoch.open, epoch.rank > 0 else { return nil }
        var time: Double?
        if let tod = epoch.timeOfDay, let days = date { time = Double(days * 86_400) + tod }
        let mode = epoch.gsaMode ?? (epoch.elevation != nil ? .threeD : .twoD)
        return GPSFix(
            time: time, latitude: epoch.latitude, longitude: epoch.longitude, elevation: epoch.elevation,
            hdop: epoch.hdop, speed: epoch.speed, course: epoch.course, quality: epoch.quality, mode: mode,
            segment: 0, line: epoch.line)
    }
}

/// Eight bytes at a time in a UInt64 (SIMD within a register): the NMEA line scan's helpers.
/// Source: the zero-byte tests of Hacker's Delight (H. S. Warren, 2nd ed., §6-1).
enum SWAR {
    static let ones: UInt64 = 0x0101_0101_0101_0101
    static let highBits: UInt64 = 0x8080_8080_8080_8080
    static let lowBits: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
    static let stars: UInt64 = 0x2A2A_2A2A_2A2A_2A2A
    static let newlines: UInt64 = 0x0A0A_0A0A_0A0A_0A0A
    static let commas: UInt64 = 0x2C2C_2C2C_2C2C_2C2C

    /// Whether one of the eight bytes of `v` is zero (exact as a yes/no answer).
    @inline(__always) static func hasZeroByte(_ v: UInt64) -> Bool {
        (v &- ones) & ~v & highBits != 0
    }

    /// The high bit of each zero byte of `v` (exact: no borrow between bytes).
    @inline(__always) static func zeroBytes(_ v: UInt64) -> UInt64 {
        let t = (v & lowBits) &+ lowBits
        return ~(t | v | lowBits)
    }

    /// How many of the eight bytes of `v` are zero.
    @inline(__always) static func zeroByteCount(_ v: UInt64) -> Int {
        zeroBytes(v).nonzeroBitCount
    }

    /// The XOR of the eight bytes of `v`.
    @inline(__always) static func xorOfBytes(_ v: UInt64) -> UInt8 {
        var x = v ^ (v >> 32)
        x ^= x >> 16
        x ^= x >> 8
        return UInt8(truncatingIfNeeded: x)
    }
}
