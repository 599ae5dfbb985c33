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

    /// Hardening reproducer: longitude 1e308 projected to an infinite x (printed `Inf` / `null`
    /// with exit 0) and latitudes beyond ±90 were clamped to the pole. Both are refused, naming
    /// the part and vertex and the domain; latitudes up to ±90 are still clamped to the Web
    /// Mercator limit, and longitudes beyond ±180 stay unwrapped.
    @Test func outOfDomainVerticesAreRefused() throws {
        #expect(throws: ProjectionError.vertexOutOfDomain(
            part: 0, vertex: 0, operation: "project", found: "longitude 1e+308",
            expected: "a finite longitude whose Web Mercator x is finite (|longitude| below about 1.6e303)")
        ) {
            try GeometryEngine.project(.point(Point(1e308, 0)), from: .wgs84, to: .webMercator)
        }
        let line = Geometry.polyline(Polyline(paths: [[Point(0, 0), Point(1, 1)], [Point(2, 2), Point(3, 90), Point(4, 90.5)]]))
        #expect(throws: ProjectionError.vertexOutOfDomain(
            part: 1, vertex: 2, operation: "project", found: "latitude 90.5", expected: "a latitude within -90…90")
        ) {
            try GeometryEngine.project(line, from: .wgs84, to: .webMercator)
        }
        #expect(throws: ProjectionError.self) { try GeometryEngine.project(Point(0, -91), from: .wgs84, to: .webMercator) }
        #expect(throws: ProjectionError.self) { try GeometryEngine.project(Point(.nan, 0), from: .wgs84, to: .webMercator) }
        #expect(throws: ProjectionError.self) { try GeometryEngine.project(Point(0, .infinity), from: .webMercator, to: .wgs84) }
        let envelope = Geometry.envelope(Envelope(xmin: 0, ymin: 0, xmax: 10, ymax: 95))
        #expect(throws: ProjectionError.vertexOutOfDomain(
            part: 0, vertex: 1, operation: "project", found: "latitude 95", expected: "a latitude within -90…90")
        ) {
            try GeometryEngine.project(envelope, from: .wgs84, to: .webMercator)
        }
        // Inside the domain: the pole is clamped to the Web Mercator limit, 540° stays unwrapped,
        // the largest projectable longitude gives a finite x, and Web Mercator is projectable
        // everywhere (an overflowing y is latitude 90).
        let pole = try GeometryEngine.project(Point(0, -90), from: .wgs84, to: .webMercator)
        #expect(pole.y == -(try GeometryEngine.project(Point(0, 90), from: .wgs84, to: .webMercator)).y)
        #expect(try GeometryEngine.project(Point(540, 0), from: .wgs84, to: .webMercator).x == 3 * GeometryEngine.webMercatorHalfWidth)
        #expect(try GeometryEngine.project(Point(1.6e303, 0), from: .wgs84, to: .webMercator).x.isFinite)
        let far = try GeometryEngine.project(Point(Double.greatestFiniteMagnitude, 1e308), from: .webMercator, to: .wgs84)
        #expect(far.x.isFinite && far.y == 90)
    }
}
