@_spi(MapSketchInternal) import MapSketchReplay
import MapSketchTestSupport
import Testing
@testable import MapSketchReaders

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

@Suite struct GPSFilterTests {
    /// A fix `meters` north of (45, 14) at time `t`.
    static func fix(_ t: Double?, north meters: Double, hdop: Double? = nil, accuracy: Double? = nil, segment: Int = 0) -> GPSFix {
        GPSFix(
            time: t, latitude: 45 + meters / (GPSFilter.earthRadius * .pi / 180), longitude: 14, hdop: hdop,
            horizontalAccuracy: accuracy, segment: segment)
    }

    @Test func haversineKnownDistances() {
        // One degree of latitude on the mean sphere.
        let d = GPSFilter.haversineDistance(latitude1: 0, longitude1: 0, latitude2: 1, longitude2: 0)
        #expect(abs(d - GPSFilter.earthRadius * .pi / 180) < 1e-6)
        // Across the antimeridian is short, not half the world.
        let e = GPSFilter.haversineDistance(latitude1: 0, longitude1: 179.9, latitude2: 0, longitude2: -179.9)
        #expect(abs(e - 0.2 * GPSFilter.earthRadius * .pi / 180) < 1e-6)
        #expect(abs(GPSFilter.haversineDistance(Self.fix(0, north: 0), Self.fix(0, north: 12.5)) - 12.5) < 1e-6)
    }

    @Test func defaultKeepsEverything() {
        let fixes = [Self.fix(1, north: 0), Self.fix(1, north: 0), Self.fix(0, north: 0.1)]
        let r = GPSFilter().apply(fixes)
        #expect(r.fixes == fixes)
        #expect(r.counts.kept == 3 && r.counts.dropped == 0)
    }

    @Test func minimumDistance() {
        let fixes = (0..<10).map { Self.fix(Double($0), north: Double($0) * 3) }  // 3 m apart
        let r = GPSFilter(minimumDistance: 5).apply(fixes)
        // Kept at 0, 6, 12, 18, 24 m: each at least 5 m from the last kept one.
        #expect(r.fixes.map { ($0.time ?? -1) } == [0, 2, 4, 6, 8])
        #expect(r.counts.tooClose == 5 && r.counts.kept == 5)
    }

    @Test func minimumDistanceRestartsPerSegment() {
        let fixes = [Self.fix(0, north: 0, segment: 0), Self.fix(1, north: 1, segment: 1), Self.fix(2, north: 2, segment: 1)]
        let r = GPSFilter(minimumDistance: 5).apply(fixes)
        #expect(r.fixes.map(\.segment) == [0, 1], "the first fix of a segment starts a part")
        #expect(r.counts.tooClose == 1)
    }

    @Test func maximumHDOPAndAccuracy() {
        let fixes = [
            Self.fix(0, north: 0, hdop: 1), Self.fix(1, north: 10, hdop: 5), Self.fix(2, north: 20),
            Self.fix(3, north: 30, accuracy: 50), Self.fix(4, north: 40, hdop: 2, accuracy: 8),
        ]
        let r = GPSFilter(maximumHDOP: 4, maximumAccuracy: 20).apply(fixes)
        #expect(r.fixes.compactMap(\.time) == [0, 2, 4])
        #expect(r.counts.hdop == 1 && r.counts.accuracy == 1)
        #expect(r.counts[.hdop] == 1 && r.counts.dropped == 2)
    }

    @Test func duplicates() {
        let a = Self.fix(0, north: 0), b = Self.fix(1, north: 5)
        var aAgain = a
        aAgain.line = 99
        let r = GPSFilter(dropDuplicates: true).apply([a, aAgain, b, b, a])
        #expect(r.fixes == [a, b, a], "only repeats of the last kept fix are duplicates")
        #expect(r.counts.duplicate == 2)
    }

    @Test func outOfOrderDropsTimeGoingBackAndKeepsEqualTimes() {
        let fixes = [
            Self.fix(10, north: 0), Self.fix(9, north: 1), Self.fix(10, north: 2), Self.fix(11, north: 3),
            Self.fix(10.5, north: 4), Self.fix(nil, north: 5),
        ]
        let r = GPSFilter(dropOutOfOrder: true).apply(fixes)
        #expect(r.fixes.map(\.time) == [10, 10, 11, nil], "equal times are kept; a fix without time cannot be ordered")
        #expect(r.counts.outOfOrder == 2)
    }

    @Test func aTrackStampedWithOneTimeSurvivesTheOrderFilter() {
        let fixes = (0..<5).map { Self.fix(100, north: Double($0)) }
        let r = GPSFilter(dropDuplicates: true, dropOutOfOrder: true).apply(fixes)
        #expect(r.fixes.count == 5)
        #expect(r.counts.dropped == 0)
    }

    @Test func checksRunInDocumentedOrder() {
        // A duplicate that also has bad HDOP counts as HDOP (checked first).
        let a = Self.fix(0, north: 0, hdop: 9)
        let r = GPSFilter(maximumHDOP: 4, dropDuplicates: true).apply([Self.fix(0, north: 0), a])
        #expect(r.counts.hdop == 1 && r.counts.duplicate == 0)
    }

    @Test func streamMatchesApply() {
        var rng = SeededRandom(seed: 7)
        let fixes = (0..<500).map { i in
            Self.fix(Double(i) + rng.double(in: -2...2), north: rng.double(in: 0...100), hdop: rng.double(in: 0.5...6))
        }
        let filter = GPSFilter(minimumDistance: 10, maximumHDOP: 3, dropDuplicates: true, dropOutOfOrder: true)
        var stream = GPSFilter.Stream(filter)
        let kept = fixes.filter { stream.consider($0) == nil }
        let r = filter.apply(fixes)
        #expect(kept == r.fixes)
        #expect(stream.counts == r.counts)
        #expect(r.counts.kept + r.counts.dropped == 500)
        // Every kept fix obeys every rule against the previous kept one.
        for (p, q) in zip(r.fixes, r.fixes.dropFirst()) {
            #expect((q.time ?? 0) > (p.time ?? 0))
            #expect(GPSFilter.haversineDistance(p, q) >= 10)
            #expect((q.hdop ?? 0) <= 3)
        }
    }
}
