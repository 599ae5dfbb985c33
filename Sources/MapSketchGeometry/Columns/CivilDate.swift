/// Proleptic Gregorian calendar arithmetic on day numbers, without calendars or locales: the one
/// implementation the attribute formatter and the GPS readers share.
///
/// Source: Howard Hinnant, "chrono-Compatible Low-Level Date Algorithms" (`days_from_civil`,
/// `civil_from_days`).
package enum CivilDate {
    /// The number of days from 1970-01-01 to `year-month-day` (negative before it).
    /// - Complexity: O(1).
    package static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * ((month + 9) % 12) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The calendar date of the day `days` after 1970-01-01 (negative: before it).
    /// - Complexity: O(1).
    package static func date(days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
