// Calendar dates and ISO 8601 times over UTF-8 bytes, without Foundation: what the GPS readers
// parse and the trace writer and tests print.

import MapSketchGeometry

extension ByteScan {
    /// Days from 1970-01-01 to the proleptic Gregorian date y-m-d.
    package static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        CivilDate.days(year: year, month: month, day: day)
    }

    /// Whether y-m-d is a real calendar date.
    package static func isValidDate(year: Int, month: Int, day: Int) -> Bool {
        guard (1...12).contains(month), day >= 1 else { return false }
        let lengths = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        var length = lengths[month - 1]
        if month == 2, year % 4 == 0, year % 100 != 0 || year % 400 == 0 { length = 29 }
        return day <= length
    }

    /// Two ASCII digits at `i` as an Int.
    @inline(__always) package static func twoDigits(_ p: UnsafeBufferPointer<UInt8>, _ i: Int) -> Int? {
        let a = p[i] &- ASCII.zero, b = p[i + 1] &- ASCII.zero
        guard a < 10, b < 10 else { return nil }
        return Int(a) * 10 + Int(b)
    }

    /// Parses an ISO 8601 / RFC 3339 date-time spanning exactly `start..<end` into seconds since
    /// 1970 UTC: `YYYY-MM-DDThh:mm:ss[.fff][Z|±hh:mm|±hhmm]` (a missing zone means UTC, as GPX
    /// specifies; `T` may be a space). Returns nil on anything else.
    /// - Complexity: O(end − start), no allocation.
    package static func iso8601(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Double? {
        guard end - start >= 19 else { return nil }
        let s = start
        guard let y1 = twoDigits(p, s), let y2 = twoDigits(p, s + 2), p[s + 4] == ASCII.minus,
            let month = twoDigits(p, s + 5), p[s + 7] == ASCII.minus, let day = twoDigits(p, s + 8),
            p[s + 10] == 0x54 || p[s + 10] == 0x74 || p[s + 10] == ASCII.space,
            let hour = twoDigits(p, s + 11), p[s + 13] == ASCII.colon, let minute = twoDigits(p, s + 14),
            p[s + 16] == ASCII.colon, let second = twoDigits(p, s + 17)
        else { return nil }
        let year = y1 * 100 + y2
        guard isValidDate(year: year, month: month, day: day), hour < 24, minute < 60, second <= 60 else {
            return nil
        }
        var i = s + 19
        var fraction = 0.0
        if i < end, p[i] == ASCII.dot || p[i] == ASCII.comma {
            i += 1
            var scale = 0.1
            let digitsStart = i
            while i < end, ASCII.isDigit(p[i]) {
                fraction += Double(p[i] &- ASCII.zero) * scale
                scale *= 0.1
                i += 1
            }
            guard i > digitsStart else { return nil }
            // Re-derive exactly when the fraction is short (the common case), avoiding drift.
            if i - digitsStart <= 9, let n = uint(p, digitsStart, i) {
                fraction = Double(n) / exactPowerOfTen(i - digitsStart)
            }
        }
        var offset = 0
        if i < end {
            if p[i] == 0x5A || p[i] == 0x7A {  // Z z
                i += 1
            } else if p[i] == ASCII.plus || p[i] == ASCII.minus {
                let sign = p[i] == ASCII.minus ? -1 : 1
                i += 1
                guard end - i >= 2, let oh = twoDigits(p, i) else { return nil }
                i += 2
                var om = 0
                if i < end, p[i] == ASCII.colon { i += 1 }
                if end - i >= 2, let m = twoDigits(p, i) {
                    om = m
                    i += 2
                }
                guard oh < 24, om < 60 else { return nil }
                offset = sign * (oh * 3600 + om * 60)
            } else {
                return nil
            }
        }
        guard i == end else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let whole = days * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Double(whole) + fraction
    }

    /// Formats seconds since 1970 as `YYYY-MM-DDThh:mm:ss.sssZ` (milliseconds), for messages and
    /// tests. Inverse of `daysFromCivil` by Hinnant's `civil_from_days`.
    package static func formatISO8601(_ time: Double) -> String {
        let millis = Int((time * 1000).rounded())
        let days = millis >= 0 ? millis / 86_400_000 : (millis - 86_399_999) / 86_400_000
        let msOfDay = millis - days * 86_400_000
        let (year, month, day) = CivilDate.date(days: days)
        func pad(_ v: Int, _ width: Int) -> String {
            let s = String(v)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        let h = msOfDay / 3_600_000, m = msOfDay / 60_000 % 60, sec = msOfDay / 1000 % 60, ms = msOfDay % 1000
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(h, 2)):\(pad(m, 2)):\(pad(sec, 2)).\(pad(ms, 3))Z"
    }
}

/// UTC time helpers shared by the readers, generators and the trace writer.
package enum GPSTime {
    /// Seconds since 1970 formatted as ISO 8601 UTC with milliseconds (`2024-05-01T12:00:00.250Z`).
    package static func iso8601(_ time: Double) -> String { ByteScan.formatISO8601(time) }

    /// Parses an ISO 8601 / RFC 3339 date-time (`Z`, `±hh:mm` or no zone = UTC) into seconds
    /// since 1970, or nil when `text` is not one.
    /// - Complexity: O(n) in the string's UTF-8 length.
    package static func parse(_ text: String) -> Double? {
        var s = text
        return s.withUTF8 { ByteScan.iso8601($0, 0, $0.count) }
    }

    /// Seconds since 1970 of a UTC calendar date and time of day.
    package static func seconds(year: Int, month: Int, day: Int, secondsOfDay: Double = 0) -> Double {
        Double(ByteScan.daysFromCivil(year: year, month: month, day: day) * 86_400) + secondsOfDay
    }
}
