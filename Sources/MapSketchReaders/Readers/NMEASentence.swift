// NMEA 0183 sentences: GGA, RMC, GLL, VTG, GSA and ZDA, each merged into the current epoch.

extension NMEAReader {
    /// Handles an accepted sentence `body..<bodyEnd` (after `$`, before `*`) with `commas` commas.
    /// `commaTable`, when given, holds the offsets of all `commas` commas of the body, in order.
    /// A sentence without a checksum (`checksummed` false) counts as NMEA only when its type is
    /// one the reader knows.
    mutating func dispatch(
        _ p: UnsafeBufferPointer<UInt8>, lineStart: Int, body: Int, bodyEnd: Int, commas: Int,
        commaTable: UnsafeBufferPointer<Int>? = nil, checksummed: Bool = true
    ) throws -> GPSFix? {
        statistics.sentences += 1
        guard bodyEnd - body >= 6, p[body] != 0x50, p[body + 5] == ASCII.comma else {  // 'P' proprietary
            statistics.unsupported += 1
            if !checksummed { otherLines += 1 }
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
        case (0x47, 0x53, 0x41): required = 0  // GSA
        default: required = -1
        }
        if !checksummed {
            if required >= 0 { nmeaLines += 1 } else { otherLines += 1 }
        }
        guard commas >= required else {  // cut off mid-sentence (only possible without a checksum)
            statistics.truncated += 1
            return nil
        }
        var fields = NMEAFields(start: body + 6, end: bodyEnd, commas: commaTable)
        let ctx = SentenceContext(file: file, line: lineNumber, p: p, lineStart: lineStart)
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

    static let knotsToMetersPerSecond = 1852.0 / 3600.0

    /// `SentenceContext.timeOfDay`, reusing the last value when the field repeats the last one's bytes.
    private mutating func timeOfDay(_ r: Range<Int>, _ c: SentenceContext, _ field: String) throws -> Double? {
        if let v = lastTime.value(for: r, in: c.p) { return v }
        let v = try c.timeOfDay(r, field)
        if let v { lastTime.store(v, for: r) }
        return v
    }

    /// `SentenceContext.date`, reusing the last value when the field repeats the last one's bytes.
    private mutating func date(_ r: Range<Int>, _ c: SentenceContext, _ field: String) throws -> Int? {
        if let v = lastDate.value(for: r, in: c.p) { return v }
        let v = try c.date(r, field)
        if let v { lastDate.store(v, for: r) }
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
        if !(state.epoch.rank == 3 && state.epoch.ggaPositionMatches(latField, ns, lonField, ew, c.p)) {
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
