import MapSketchGeometry
import MapSketchTestSupport
import Testing

@Suite struct IsSimpleTests {
    @Test func geometryForms() throws {
        #expect(GeometryEngine.isSimple(try WKT.decode("LINESTRING (0 0, 10 0, 10 10, 0 10, 0 0)")))
        #expect(!GeometryEngine.isSimple(try WKT.decode("LINESTRING (0 0, 10 10, 10 0, 0 10)")))
        #expect(!GeometryEngine.isSimple(try WKT.decode("MULTIPOINT ((1 1), (2 2), (1 1))")))
        #expect(GeometryEngine.isSimple(try WKT.decode("MULTILINESTRING ((0 0, 5 5), (5 5, 10 0))")))
        // A path ending in the interior of another is not simple.
        #expect(!GeometryEngine.isSimple(try WKT.decode("MULTILINESTRING ((0 0, 10 0), (5 0, 5 5))")))
        // Polygons: each ring on its own.
        #expect(GeometryEngine.isSimple(try WKT.decode("POLYGON ((0 0, 0 10, 10 10, 10 0, 0 0), (2 2, 8 2, 8 8, 2 8, 2 2))")))
        #expect(!GeometryEngine.isSimple(try WKT.decode("POLYGON ((0 0, 10 10, 10 0, 0 10, 0 0))")))
    }

    /// Whatever simplify returns is simple.
    @Test func simplifyOutputIsSimple() {
        var rng = SeededRandom(seed: 8)
        for _ in 0..<100 {
            let path = (0..<12).map { _ in Point(Double(rng.int(in: 0...9)), Double(rng.int(in: 0...9))) }
            #expect(GeometryEngine.isSimple(GeometryEngine.simplify(.polygon(Polygon(rings: [path])))))
        }
    }
}
