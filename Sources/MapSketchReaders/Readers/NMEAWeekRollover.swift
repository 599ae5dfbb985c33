// NMEA reader options: the GPS week-rollover correction (gpsd-style pivot date).

extension NMEAReader {
    /// How the NMEA reader interprets what the receiver says.
    ///
    /// - Week rollover: the GPS week number in the satellite broadcast is 10 bits, so it wraps every
    ///   1024 weeks (7,168 days, ≈ 19.6 years; last wraps 1999-08-22 and 2019-04-07). A receiver whose
    ///   firmware pins the wrap to an epoch that has since passed reports dates exactly 1024 weeks
    ///   (or a multiple) in the past — e.g. a Garmin 48 sending 2001-06-06 on 2021-01-20. With a
    ///   `weekRolloverPivot` set, every RMC/ZDA date whose time (date + that sentence's UTC time of
    ///   day, midnight when the time field is empty) is before the pivot is moved forward by whole
    ///   multiples of 1024 weeks until it is at or after the pivot; GGA/GLL fixes then take the
    ///   corrected date. This is gpsd's correction: it compares the NMEA date with a "now is at
    ///   least" time derived from its build and adds 1024 weeks to anything earlier.
    /// - Why it is off by default: a replay of a genuinely old log (a 2007 drive recorded in 2007)
    ///   must keep its dates, and the reader cannot tell a rolled-over receiver from an old capture.
    ///   Turn it on only for receivers known to have the rollover bug.
    /// - Picking the pivot: a time no later than the earliest true date the log can have, and
    ///   later than every wrongly rolled-back date in it — a date shortly before the capture was
    ///   made (gpsd uses one near its own release). Because the correction moves a date by 19.6
    ///   years, any pivot inside that window gives the same result. MapSketch's gpsd conformance
    ///   test uses 2017-01-01T00:00:00Z (1,483,228,800 s), the day GPS−UTC became 18 s (see
    ///   `NMEAConformanceTests.gpsdPivot`).
    public struct Options: Hashable, Sendable {
        /// Seconds in 1024 GPS weeks (7,168 days).
        public static let weekRolloverPeriod: Double = 1024 * 7 * 86_400
        /// The earliest accepted pivot: the GPS epoch, 1980-01-06T00:00:00Z.
        package static let earliestPivot: Double = 315_964_800
        /// The first pivot not accepted: 10000-01-01T00:00:00Z (dates stay four-digit years).
        package static let pivotLimit: Double = 253_402_300_800

        /// Seconds since 1970 (UTC): RMC/ZDA dates before it get +1024 weeks until they are not;
        /// nil (the default) keeps the receiver's dates.
        public let weekRolloverPivot: Double?

        /// The defaults: no week-rollover correction.
        public init() {
            weekRolloverPivot = nil
        }

        /// Options with a week-rollover pivot (nil: no correction).
        /// - Throws: `NMEAOptionsError.pivotOutOfRange` when the pivot is not finite or not in
        ///   `earliestPivot..<pivotLimit`.
        public init(weekRolloverPivot: Double?) throws(NMEAOptionsError) {
            if let pivot = weekRolloverPivot {
                guard pivot.isFinite, pivot >= Self.earliestPivot, pivot < Self.pivotLimit else {
                    throw .pivotOutOfRange(pivot)
                }
            }
            self.weekRolloverPivot = weekRolloverPivot
        }

        /// The most 1024-week periods a correction may add (≈ 19,600 years): enough for any date
        /// from 0000-01-01 to any accepted pivot (at most 516 periods).
        package static let maximumRollovers = 1000

        /// How many 1024-week periods the correction adds to `time` (seconds since 1970): the
        /// smallest k ≥ 0 with `time + k × 1024 weeks ≥ pivot`; 0 when the correction is off or
        /// `time` is not before the pivot; nil when `time` is not finite or would need more than
        /// `maximumRollovers` (no receiver date is that far back).
        /// - Complexity: O(1): closed form, then at most one step each way for rounding.
        package func weekRollovers(at time: Double) -> Int? {
            guard time.isFinite else { return nil }
            guard let pivot = weekRolloverPivot, time < pivot else { return 0 }
            let periods = ((pivot - time) / Self.weekRolloverPeriod).rounded(.up)
            guard periods <= Double(Self.maximumRollovers) else { return nil }
            var k = max(1, Int(periods))
            if time + Double(k) * Self.weekRolloverPeriod < pivot { k += 1 }
            if k > 1, time + Double(k - 1) * Self.weekRolloverPeriod >= pivot { k -= 1 }
            return k
        }

        /// `time` (seconds since 1970) with the week-rollover correction applied; nil where
        /// `weekRollovers(at:)` is nil.
        /// - Complexity: O(1).
        package func corrected(_ time: Double) -> Double? {
            weekRollovers(at: time).map { time + Double($0) * Self.weekRolloverPeriod }
        }

        /// `days` since 1970 of a date whose sentence has UTC `timeOfDay`, corrected.
        /// NMEA dates have years 0…9999 and pivots are before 10000-01-01, so at most 516 periods
        /// are needed and `weekRollovers(at:)` is never nil here.
        func correctedDays(_ days: Int, timeOfDay: Double?) -> Int {
            guard weekRolloverPivot != nil else { return days }
            return days + 7168 * (weekRollovers(at: Double(days) * 86_400 + (timeOfDay ?? 0)) ?? 0)
        }
    }
}

/// An invalid `NMEAReader.Options` value.
public enum NMEAOptionsError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The week-rollover pivot is not finite or outside 1980-01-06 ..< 10000-01-01 (seconds since 1970).
    case pivotOutOfRange(Double)

    /// A one-line explanation naming the option and the accepted range.
    public var description: String {
        switch self {
        case .pivotOutOfRange(let value):
            return "week-rollover pivot \(value) is out of range: expected seconds since 1970 from "
                + "315964800 (1980-01-06, the GPS epoch) to below 253402300800 (10000-01-01)"
        }
    }
}
