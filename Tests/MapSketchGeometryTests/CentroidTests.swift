import MapSketchGeometry
import MapSketchTestSupport
import Testing

@Suite struct CentroidTests {
    @Test func polygonsWeighTheirRingsByArea() {
        let square = Geometry.polygon(Polygon(rings: [[Point(0, 0), Point(0, 2), Point(2, 2), Point(2, 0)]]))
        #expect(GeometryEngine.centroid(square) == Point(1, 1))
        // A 4 × 4 square at the origin with a 2 × 2 hole in its upper-right quarter: the mass
        // left is 12, its centroid (16·(2,2) − 4·(3,3)) / 12 = (5/3, 5/3).
        let holed = Geometry.polygon(
            Polygon(rings: [
                [Point(0, 0), Point(0, 4), Point(4, 4), Point(4, 0)],
                [Point(2, 2), Point(4, 2), Point(4, 4), Point(2, 4)],
            ]))
        let c = GeometryEngine.centroid(holed)
        #expect(abs((c?.x ?? 0) - 5.0 / 3) < 1e-15 && abs((c?.y ?? 0) - 5.0 / 3) < 1e-15)
        // Far from the origin the sums stay relative: the same square moved by 10⁷ has its centroid moved by 10⁷.
        let far = Geometry.polygon(Polygon(rings: [[Point(1e7, 1e7), Point(1e7, 1e7 + 2), Point(1e7 + 2, 1e7 + 2), Point(1e7 + 2, 1e7)]]))
        #expect(GeometryEngine.centroid(far) == Point(1e7 + 1, 1e7 + 1))
    }

    @Test func degenerateShapesFallBackADimension() {
        // A zero-area ring: the centroid of its outline (the two segments there and back).
        let flat = Geometry.polygon(Polygon(rings: [[Point(0, 0), Point(4, 0), Point(2, 0)]]))
        #expect(GeometryEngine.centroid(flat) == Point(2, 0))
        // Lines weigh segments by length: a long segment pulls the centroid.
        let l = Geometry.polyline(Polyline(paths: [[Point(0, 0), Point(10, 0), Point(10, 1)]]))
        let c = GeometryEngine.centroid(l)
        #expect(c == Point((10 * 5 + 1 * 10) / 11.0, (1 * 0.5) / 11.0))
        let zeroLength = Geometry.polyline(Polyline(paths: [[Point(3, 3), Point(3, 3)]]))
        #expect(GeometryEngine.centroid(zeroLength) == Point(3, 3))
        #expect(GeometryEngine.centroid(.multipoint(Multipoint(points: [Point(0, 0), Point(4, 2)]))) == Point(2, 1))
        #expect(GeometryEngine.centroid(.point(nil)) == nil)
        #expect(GeometryEngine.centroid(.polyline(Polyline(paths: []))) == nil)
        #expect(GeometryEngine.centroid(.envelope(Envelope(xmin: 0, ymin: 0, xmax: 4, ymax: 2))) == Point(2, 1))
    }

    @Test func storeCentroidsMatchTheGeometryRule() throws {
        var rng = SeededRandom(seed: 8)
        let rings = (0..<3).map { _ in (0..<300).map { _ in rng.point(in: Envelope(xmin: -50, ymin: -50, xmax: 50, ymax: 50)) } }
        let g = Geometry.polygon(Polygon(rings: rings))
        let store = try VertexStore(g)
        #expect(store.centroid() == GeometryEngine.centroid(g))
        #expect(store.centroid(part: 1) == GeometryEngine.centroid(.polygon(Polygon(rings: [rings[1]]))))
        #expect(store.centroid(part: 3) == nil)
    }
}
