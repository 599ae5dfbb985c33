import MapSketchGeometry
import MapSketchTestSupport
import Testing

@Suite struct ProjectTests {
    @Test func knownValues() throws {
        let p = try GeometryEngine.project(Point(180, 0), from: .wgs84, to: .webMercator)
        #expect(abs(p.x - GeometryEngine.webMercatorHalfWidth) < 1e-6)
        #expect(abs(p.y) < 1e-6)
        // The Web Mercator square: latitude 85.05112878 maps to ≈ the half width.
        let top = try GeometryEngine.project(Point(0, 85.05112878), from: .wgs84, to: SpatialReference(wkid: 3857))
        #expect(abs(top.y - GeometryEngine.webMercatorHalfWidth) < 1)
        // Latitudes beyond the limit are clamped.
        let pole = try GeometryEngine.project(Point(0, 90), from: .wgs84, to: .webMercator)
        #expect(pole.y == top.y)
        // (1°, 45°): x = R·π/180, y = R·ln(tan 67.5°) = 5621521.486192 (EPSG:3857 reference values).
        let q = try GeometryEngine.project(Point(1, 45), from: .wgs84, to: .webMercator)
        #expect(abs(q.x - 111_319.490_793_273_57) < 1e-6)
        #expect(abs(q.y - 5_621_521.486_192_07) < 1e-4)
    }

    @Test func roundTripAndZM() throws {
        var rng = SeededRandom(seed: 3)
        for _ in 0..<500 {
            let p = Point(x: rng.double(in: -180...180), y: rng.double(in: -85...85), z: 12, m: 3)
            let q = try GeometryEngine.project(p, from: .wgs84, to: .webMercator)
            let r = try GeometryEngine.project(q, from: SpatialReference(wkid: 102100), to: .wgs84)
            #expect(abs(r.x - p.x) < 1e-9 && abs(r.y - p.y) < 1e-9)
            #expect(r.z == 12 && r.m == 3)
        }
        let line = Geometry.polyline(Polyline(paths: [[Point(0, 0), Point(10, 10)]]))
        let projected = try GeometryEngine.project(line, from: .wgs84, to: .webMercator)
        #expect(projected.pointCount == 2)
        #expect(try GeometryEngine.project(line, from: .wgs84, to: .wgs84) == line)
    }

    @Test func unsupportedPairsThrow() {
        let utm = SpatialReference(wkid: 32633)
        #expect(throws: ProjectionError.unsupportedTransformation(from: .wgs84, to: utm)) {
            try GeometryEngine.project(Point(0, 0), from: .wgs84, to: utm)
        }
    }
}
