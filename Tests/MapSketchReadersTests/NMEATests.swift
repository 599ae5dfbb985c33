import Foundation
import MapSketchReaders
import Testing

/// `$body*hh` with the correct checksum.
func nmea(_ body: String) -> String {
    let sum = body.utf8.reduce(UInt8(0), ^)
    let hex = String(sum, radix: 16, uppercase: true)
    return "$" + body + "*" + (hex.count == 1 ? "0" + hex : hex)
}

@Suite struct NMEATests {
    @Test func mergesGGAAndRMCOfOneEpoch() throws {
        let text = [
            nmea("GPGGA,123519.00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
            nmea("GPRMC,123519.00,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W"),
            nmea("GPGGA,123520.00,4807.040,N,01131.002,E,2,08,1.1,546.0,M,46.9,M,,"),
        ].joined(separator: "\r\n") + "\r\n"
        let (track, stats) = try NMEAReader.readAll(bytes: Array(text.utf8))
        #expect(track.fixes.count == 2)
        let f = try #require(track.fixes.first)
        #expect(f.time == GPSTime.seconds(year: 1994, month: 3, day: 23, secondsOfDay: 12 * 3600 + 35 * 60 + 19))
        #expect(abs(f.latitude - (48 + 7.038 / 60)) < 1e-12)
        #expect(abs(f.longitude - (11 + 31.0 / 60)) < 1e-12)
        #expect(f.elevation == 545.4)
        #expect(f.hdop == 0.9)
        #expect(abs((f.speed ?? 0) - 22.4 * 1852 / 3600) < 1e-12)
        #expect(f.course == 84.4)
        #expect(f.quality == .gps)
        #expect(f.line == 1)
        #expect(track.fixes[1].quality == .dgps)
        #expect(track.fixes[1].time == (f.time ?? 0) + 1)
        #expect(stats.fixes == 2 && stats.sentences == 3)
    }

    @Test func badChecksumIsSkippedAndCounted() throws {
        var bad = nmea("GPGGA,000001,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")
        bad.removeLast()
        bad += "0"  // break the last hex digit (the real one is not 0 for this body)
        let good = nmea("GNGGA,000002,4807.038,S,01131.000,W,1,08,0.9,545.4,M,46.9,M,,")
        let (track, stats) = try NMEAReader.readAll(bytes: Array((bad + "\n" + good + "\n").utf8))
        #expect(stats.badChecksum == 1)
        #expect(track.fixes.count == 1)
        #expect(track.fixes[0].latitude < 0 && track.fixes[0].longitude < 0)
        #expect(track.fixes[0].time == nil, "no date known yet: GGA alone has only a time of day")
    }

    @Test func dateRollsOverAtMidnight() throws {
        let text = [
            nmea("GPRMC,235959.50,A,4807.038,N,01131.000,E,0.0,0.0,311299,,"),
            nmea("GPGGA,235959.50,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
            nmea("GPGGA,000000.50,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
            nmea("GLGGA,000001.50,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
        ].joined(separator: "\n")
        let fixes = try NMEAReader.readAll(bytes: Array(text.utf8)).track.fixes
        let midnight = GPSTime.seconds(year: 2000, month: 1, day: 1)
        #expect(fixes.compactMap(\.time) == [midnight - 0.5, midnight + 0.5, midnight + 1.5])
        #expect(GPSTime.iso8601(midnight + 0.5) == "2000-01-01T00:00:00.500Z")
    }

    @Test func noFixSentencesEmitNothingButAreCounted() throws {
        let text = [
            nmea("GPGGA,120000,,,,,0,00,,,M,,M,,"),
            nmea("GPRMC,120000,V,4807.038,N,01131.000,E,,,010120,,"),
            nmea("GPGLL,4807.038,N,01131.000,E,120001,V,N"),
            nmea("GPGSV,1,1,00"),
            "# a comment",
            nmea("PGRME,15.0,M,45.0,M,25.0,M"),
        ].joined(separator: "\n") + "\n"
        let (track, stats) = try NMEAReader.readAll(bytes: Array(text.utf8))
        #expect(track.fixes.isEmpty)
        #expect(stats.noFix == 3)
        #expect(stats.unsupported == 2)
        #expect(stats.ignoredLines == 1)
    }

    @Test func gsaAndVTGFillTheEpoch() throws {
        let text = [
            nmea("GPRMC,120000,A,4807.038,N,01131.000,E,,,010120,,,A"),
            nmea("GPVTG,54.7,T,34.4,M,005.5,N,010.2,K,A"),
            nmea("GPGSA,A,2,04,05,,09,12,,,24,,,,,2.5,1.3,2.1"),
        ].joined(separator: "\n")
        let f = try #require(try NMEAReader.readAll(bytes: Array(text.utf8)).track.fixes.first)
        #expect(f.course == 54.7)
        #expect(abs((f.speed ?? 0) - 5.5 * 1852 / 3600) < 1e-12)
        #expect(f.hdop == 1.3)
        #expect(f.mode == .twoD)
        #expect(f.elevation == nil)
    }

    @Test func truncatedSentenceIsSkipped() throws {
        let text = nmea("GPRMC,120000,A,4807.038,N,01131.000,E,,,010120,,,A") + "\n$GPRMC,120001,A,4807.04,N,0113\n"
        let (track, stats) = try NMEAReader.readAll(bytes: Array(text.utf8))
        #expect(track.fixes.count == 1)
        #expect(stats.truncated == 1)
    }

    @Test func malformedFieldThrowsWithLineAndColumn() throws {
        let text = nmea("GPGSV,1,1,00") + "\n" + nmea("GPGGA,120000,48x7.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,") + "\n"
        #expect(throws: ReaderError(file: "t.nmea", line: 2, column: 15, kind: .badNumber(field: "latitude", found: "48x7.038"))) {
            _ = try NMEAReader.readAll(bytes: Array(text.utf8), file: "t.nmea")
        }
        let bad = nmea("GPGGA,120000,4807.038,X,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")
        #expect(throws: ReaderError(file: nil, line: 1, column: 24, kind: .syntax(expected: "N or S"))) {
            _ = try NMEAReader.readAll(bytes: Array(bad.utf8))
        }
        let minutes = nmea("GPGGA,120000,4867.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")
        #expect(throws: ReaderError.self) { _ = try NMEAReader.readAll(bytes: Array(minutes.utf8)) }
    }

    @Test func anyTalkerAndZDADates() throws {
        let text = [
            nmea("GPZDA,235959.00,28,02,2024,00,00"),
            nmea("GAGGA,235959.00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
            nmea("BDGGA,000000.00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
            nmea("GBRMC,000001.00,A,4807.038,N,01131.000,E,0.0,0.0,010324,,,A"),
            nmea("GQGLL,4807.038,N,01131.000,E,000002.00,A,A"),
        ].joined(separator: "\n")
        let fixes = try NMEAReader.readAll(bytes: Array(text.utf8)).track.fixes
        // 2024 is a leap year: 23:59:59 on Feb 28 (ZDA) rolls to Feb 29 at midnight; from the RMC on,
        // its own date (Mar 1) wins over the rolled one.
        #expect(fixes.compactMap { $0.time.map(GPSTime.iso8601) } == [
            "2024-02-28T23:59:59.000Z", "2024-02-29T00:00:00.000Z", "2024-03-01T00:00:01.000Z", "2024-03-01T00:00:02.000Z",
        ])
        #expect(fixes.map(\.mode) == [.threeD, .threeD, .twoD, .twoD])
    }

    @Test func streamingMatchesReadAll() throws {
        let text = (0..<50).map { i in
            nmea("GNRMC,12\(String(format: "%02d", i / 60 + 10))\(String(format: "%02d", i % 60)),A,4807.\(100 + i),N,01131.000,E,1.0,90.0,010120,,,D")
        }.joined(separator: "\n")
        var reader = NMEAReader(text: text)
        var streamed: [GPSFix] = []
        while let f = try reader.next() { streamed.append(f) }
        #expect(streamed == (try NMEAReader.readAll(bytes: Array(text.utf8)).track.fixes))
        #expect(streamed.count == 50)
        #expect(streamed.allSatisfy { $0.quality == .dgps })
        #expect(try reader.next() == nil)
    }
}
