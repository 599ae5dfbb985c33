import MapSketchGeometry
import MapSketchTestSupport
import Testing

@Suite struct DistanceTests {
    let square = Polygon(rings: [[Point(0, 0), Point(0, 10), Point(10, 10), Point(10, 0)], [Point(4, 4), Point(6, 4), Point(6, 6), Point(4, 6)]])

    @Test func distanceToEachKind() {
        #expect(GeometryEngine.distance(from: Point(3, 4), to: .point(Point(0, 0))) == 5)
        #expect(GeometryEngine.distance(from: Point(2, 2), to: .polygon(square)) == 0)
        #expect(GeometryEngine.distance(from: Point(5, 5), to: .polygon(square)) == 1)  // in the hole
        #expect(GeometryEngine.distance(from: Point(13, 14), to: .polygon(square)) == 5)
        #expect(GeometryEngine.distance(from: Point(5, 3), to: .polyline(Polyline(paths: [[Point(0, 0), Point(10, 0)]]))) == 3)
        #expect(GeometryEngine.distance(from: Point(5, 3), to: .polyline(Polyline(paths: []))) == .infinity)
    }

    @Test func nearestVertexAndSegment() throws {
        let v = try #require(GeometryEngine.nearestVertex(to: Point(9, 9.5), in: .polygon(square)))
        #expect(v.part == 0 && v.index == 2 && v.point == Point(10, 10))
        // The closing segment of the exterior runs from (10 0) back to (0 0): index 3.
        let s = try #require(GeometryEngine.nearestSegment(to: Point(5, -1), in: .polygon(square)))
        #expect(s.part == 0 && s.index == 3 && s.point == Point(5, 0) && s.distance == 1)
        let h = try #require(GeometryEngine.nearestSegment(to: Point(5, 4.5), in: .polygon(square)))
        #expect(h.part == 1 && h.index == 0)
        #expect(GeometryEngine.nearestSegment(to: Point(0, 0), in: .multipoint(Multipoint(points: [Point(1, 1)]))) == nil)
    }

    @Test func containsIsOddEven() {
        #expect(GeometryEngine.contains(square, Point(1, 1)))
        #expect(!GeometryEngine.contains(square, Point(5, 5)))
        #expect(GeometryEngine.contains(square, Point(0, 5)))  // boundary
        #expect(!GeometryEngine.contains(square, Point(11, 5)))
        // A bow-tie: both lobes are inside.
        let bow = Polygon(rings: [[Point(0, 0), Point(10, 10), Point(10, 0), Point(0, 10)]])
        #expect(GeometryEngine.contains(bow, Point(1, 5)) && GeometryEngine.contains(bow, Point(9, 5)))
        #expect(!GeometryEngine.contains(bow, Point(5, 1)))
    }

    @Test func intersectsWithTolerance() {
        let line = Geometry.polyline(Polyline(paths: [[Point(0, 0), Point(10, 0)]]))
        #expect(GeometryEngine.intersects(line, Point(5, 0.5), tolerance: 1))
        #expect(!GeometryEngine.intersects(line, Point(5, 1.5), tolerance: 1))
        #expect(GeometryEngine.intersects(.polygon(square), Point(2, 2), tolerance: 0))
        #expect(GeometryEngine.intersects(.envelope(Envelope(xmin: 0, ymin: 0, xmax: 1, ymax: 1)), Point(1.5, 0.5), tolerance: 0.5))
    }

    /// Agreement with a brute-force distance on random input.
    @Test func randomAgreement() {
        var rng = SeededRandom(seed: 17)
        for _ in 0..<200 {
            let path = (0..<8).map { _ in rng.point(in: Envelope(xmin: 0, ymin: 0, xmax: 100, ymax: 100)) }
            let p = rng.point(in: Envelope(xmin: -20, ymin: -20, xmax: 120, ymax: 120))
            var brute = Double.infinity
            for i in 0..<(path.count - 1) {
                for k in 0...1000 {
                    let t = Double(k) / 1000
                    let q = Point(path[i].x + t * (path[i + 1].x - path[i].x), path[i].y + t * (path[i + 1].y - path[i].y))
                    brute = min(brute, ((q.x - p.x) * (q.x - p.x) + (q.y - p.y) * (q.y - p.y)).squareRoot())
                }
            }
            let d = GeometryEngine.distance(from: p, to: .polyline(Polyline(paths: [path])))
            #expect(d <= brute + 1e-9 && d >= brute - 0.2)
        }
    }
}
