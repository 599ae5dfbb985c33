import MapSketchReaders
import Testing

@Suite struct NMEAWeekRolloverTests {
    /// 2017-01-01T00:00:00Z, the pivot of the gpsd conformance test.
    static let pivot: Double = 1_483_228_800
    static let week: Double = 7 * 86_400
    static let period: Double = 1024 * 7 * 86_400

    static func options() throws -> NMEAReader.Options {
        try NMEAReader.Options(weekRolloverPivot: pivot)
    }

    @Test func periodIs7168Days() {
        #expect(NMEAReader.Options.weekRolloverPeriod == 7168 * 86_400)
    }

    @Test func oneWeekBeforeThePivotMovesForward1024Weeks() throws {
        let o = try Self.options()
        let t = Self.pivot - Self.week
        #expect(o.weekRollovers(at: t) == 1)
        #expect(o.corrected(t) == t + Self.period)
        #expect(o.weekRollovers(at: -.infinity) == nil && o.weekRollovers(at: .nan) == nil)
        #expect(o.corrected(-1e300) == nil, "beyond maximumRollovers: no answer rather than a wrong one")
        let farthest = Self.pivot - Double(NMEAReader.Options.maximumRollovers) * Self.period
        #expect(o.weekRollovers(at: farthest) == NMEAReader.Options.maximumRollovers)
        #expect(o.weekRollovers(at: farthest - 1) == nil)
        #expect(o.corrected(Self.pivot - 0.001) == Self.pivot - 0.001 + Self.period)
    }

    @Test func exactlyAtAndAfterThePivotIsKept() throws {
        let o = try Self.options()
        #expect(o.weekRollovers(at: Self.pivot) == 0)
        #expect(o.corrected(Self.pivot) == Self.pivot)
        #expect(o.corrected(Self.pivot + 1) == Self.pivot + 1)
        #expect(o.corrected(Self.pivot + 3 * Self.period) == Self.pivot + 3 * Self.period)
    }

    @Test func twoRolloversBeforeThePivotAddsTwoPeriods() throws {
        let o = try Self.options()
        let t = Self.pivot - 2 * Self.period
        #expect(o.weekRollovers(at: t) == 2)
        #expect(o.corrected(t) == Self.pivot, "lands exactly on the pivot, which is not before it")
        // One second earlier needs a third period: two would stop one second short of the pivot.
        #expect(o.weekRollovers(at: t - 1) == 3)
        #expect(o.corrected(t - 1) == t - 1 + 3 * Self.period)
        // Anywhere in the last period before the pivot: exactly one.
        #expect(o.weekRollovers(at: Self.pivot - Self.period) == 1)
        #expect(o.weekRollovers(at: Self.pivot - Self.period - 1) == 2)
    }

    @Test func offByDefaultChangesNothing() throws {
        let off = NMEAReader.Options()
        #expect(off.weekRolloverPivot == nil)
        #expect(try NMEAReader.Options(weekRolloverPivot: nil) == off)
        for t in [0, Self.pivot - Self.week, Self.pivot - 2 * Self.period, Self.pivot] {
            #expect(off.weekRollovers(at: t) == 0)
            #expect(off.corrected(t) == t)
        }
    }

    @Test func pivotOutsideTheGPSEraIsRejected() {
        for bad in [Double.nan, .infinity, -.infinity, 0, 315_964_799, 253_402_300_800, 1e300] {
            #expect(throws: NMEAOptionsError.self, "pivot \(bad)") {
                _ = try NMEAReader.Options(weekRolloverPivot: bad)
            }
        }
        #expect(throws: NMEAOptionsError.pivotOutOfRange(0)) { _ = try NMEAReader.Options(weekRolloverPivot: 0) }
        #expect(NMEAOptionsError.pivotOutOfRange(0).description.contains("week-rollover pivot"))
        #expect((try? NMEAReader.Options(weekRolloverPivot: 315_964_800)) != nil, "the GPS epoch itself is accepted")
    }

    // MARK: - Through the reader

    /// RMC at `time` (hhmmss) on `ddmmyy`, then a GGA one second later without date.
    static func log(time: String, next: String, date: String) -> String {
        [
            nmea("GPRMC,\(time),A,4807.038,N,01131.000,E,000.0,000.0,\(date),,"),
            nmea("GPGGA,\(next),4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
        ].joined(separator: "\r\n") + "\r\n"
    }

    @Test func rmcDateOneWeekBeforeThePivotIsCorrectedAndCarriedToGGA() throws {
        // 2016-12-25 12:00:00 = pivot − 1 week + 12 h.
        let text = Self.log(time: "120000", next: "120001", date: "251216")
        let raw = try NMEAReader.readAll(bytes: Array(text.utf8)).track.fixes.map(\.time)
        let fixed = try NMEAReader.readAll(bytes: Array(text.utf8), options: Self.options()).track.fixes.map(\.time)
        let t0 = GPSTime.seconds(year: 2016, month: 12, day: 25, secondsOfDay: 12 * 3600)
        #expect(raw == [t0, t0 + 1], "without a pivot the receiver's date is kept")
        #expect(fixed == [t0 + Self.period, t0 + Self.period + 1])
        #expect(GPSTime.iso8601(t0 + Self.period) == "2036-08-10T12:00:00.000Z")
    }

    @Test func theSentenceTimeOfDayDecidesOnThePivotDay() throws {
        // 2017-01-01: at 00:00:00 the date is the pivot itself (kept); at 23:59:59 on 2016-12-31 it is
        // one second before (corrected).
        let at = try NMEAReader.readAll(bytes: Array(Self.log(time: "000000", next: "000001", date: "010117").utf8), options: Self.options())
        #expect(at.track.fixes.first?.time == Self.pivot)
        let before = try NMEAReader.readAll(bytes: Array(Self.log(time: "235959", next: "000000", date: "311216").utf8), options: Self.options())
        #expect(before.track.fixes.map(\.time) == [Self.pivot - 1 + Self.period, Self.pivot + Self.period],
                "the GGA after midnight rolls forward from the corrected date")
    }

    @Test func zdaDateTwoRolloversBackIsCorrectedTwice() throws {
        // 1977-10-02 is before the GPS epoch; pivot − 2 × 1024 weeks = 1977-10-02T00:00:00Z exactly.
        let start = Self.pivot - 2 * Self.period
        #expect(GPSTime.iso8601(start) == "1977-10-02T00:00:00.000Z")
        let text = [
            nmea("GPZDA,000000.00,02,10,1977,00,00"),
            nmea("GPGGA,000000.00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
            nmea("GPZDA,000001.00,01,10,1977,00,00"),  // the day before: three periods
            nmea("GPGGA,000001.00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
        ].joined(separator: "\n") + "\n"
        let fixed = try NMEAReader.readAll(bytes: Array(text.utf8), options: Self.options()).track.fixes.map(\.time)
        #expect(fixed == [Self.pivot, start - 86_400 + 1 + 3 * Self.period])
        let raw = try NMEAReader.readAll(bytes: Array(text.utf8)).track.fixes.map(\.time)
        #expect(raw == [start, start - 86_400 + 1])
    }

    @Test func streamingReaderAndGPSFileReaderPassTheOption() throws {
        let text = Self.log(time: "120000", next: "120001", date: "251216")
        let t0 = GPSTime.seconds(year: 2016, month: 12, day: 25, secondsOfDay: 12 * 3600)
        var reader = NMEAReader(text: text, options: try Self.options())
        #expect(try reader.next()?.time == t0 + Self.period)
        #expect(reader.options.weekRolloverPivot == Self.pivot)
        let viaFile = try GPSFileReader.read(bytes: Array(text.utf8), fileName: "old.nmea", nmeaOptions: Self.options())
        #expect(viaFile.fixes.first?.time == t0 + Self.period)
        #expect(try GPSFileReader.read(bytes: Array(text.utf8), fileName: "old.nmea").fixes.first?.time == t0)
    }

    @Test func zdaYearMustHaveFourDigits() throws {
        for year in ["999999999999999999", "20170", "17"] {
            let text = nmea("GPZDA,000000.00,01,01,\(year),00,00") + "\n"
            #expect(throws: ReaderError.self, "year \(year)") {
                _ = try NMEAReader.readAll(bytes: Array(text.utf8), file: "z.nmea", options: Self.options())
            }
        }
        let ok = nmea("GPZDA,000000.00,01,01,2017,00,00") + "\n"
        #expect(throws: Never.self) { _ = try NMEAReader.readAll(bytes: Array(ok.utf8), options: Self.options()) }
    }
}
