import MapSketchReplay
import Testing

@Suite struct GPSFixModelTests {
    @Test func duplicateIgnoresLineAndExtras() {
        let a = GPSFix(time: 10, latitude: 46.5, longitude: 13.8, elevation: 1000, hdop: 1, line: 3)
        var b = a
        b.line = 9
        b.hdop = 4
        #expect(a.isDuplicate(of: b))
        b.elevation = 1001
        #expect(!a.isDuplicate(of: b))
    }

    @Test func errorDescriptionNamesFileLineColumn() {
        let e = ReaderError(file: "a.gpx", line: 4, column: 17, kind: .outOfRange(field: "lat", value: 91))
        #expect(e.description == "a.gpx:4:17: lat 91.0 is out of range")
    }

    @Test func segmentSelection() {
        let t = GPSTrack(
            fixes: [GPSFix(latitude: 0, longitude: 0, segment: 0), GPSFix(latitude: 1, longitude: 1, segment: 1)],
            segmentCount: 2)
        #expect(t.fixes(inSegment: 1).map(\.latitude) == [1])
    }
}
