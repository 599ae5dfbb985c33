import MapSketchGeometry
import MapSketchTestSupport
import Testing

@Suite struct NormalizeTests {
    @Test func pointsFold() throws {
        #expect(try GeometryEngine.normalizeCentralMeridian(.point(Point(190, 5)), spatialReference: .wgs84) == .point(Point(-170, 5)))
        #expect(try GeometryEngine.normalizeCentralMeridian(.point(Point(-540, 5)), spatialReference: .wgs84) == .point(Point(-180, 5)))
        #expect(try GeometryEngine.normalizeCentralMeridian(.point(Point(180, 5)), spatialReference: .wgs84) == .point(Point(180, 5)))
        let w = GeometryEngine.webMercatorHalfWidth
        let g = try GeometryEngine.normalizeCentralMeridian(.point(Point(w + 1000, 0)), spatialReference: .webMercator)
        guard case .point(let p?) = g else { return }
        #expect(abs(p.x - (-w + 1000)) < 1e-6)
    }

    @Test func polylineIsCutAtTheAntimeridian() throws {
        let track = Geometry.polyline(Polyline(paths: [[Point(170, 0), Point(190, 10), Point(200, 10)]]))
        let n = try GeometryEngine.normalizeCentralMeridian(track, spatialReference: .wgs84)
        #expect(n == .polyline(Polyline(paths: [[Point(170, 0), Point(180, 5)], [Point(-180, 5), Point(-170, 10), Point(-160, 10)]])))
        // Westward across −180, twice around.
        let west = Geometry.polyline(Polyline(paths: [[Point(-170, 0), Point(-190, 0), Point(-550, 0)]]))
        guard case .polyline(let pl) = try GeometryEngine.normalizeCentralMeridian(west, spatialReference: .wgs84) else { return }
        #expect(pl.paths.count == 3)
        #expect(pl.paths.allSatisfy { $0.allSatisfy { $0.x >= -180 && $0.x <= 180 } })
        #expect(abs(GeometryEngine.length(.polyline(pl)) - 380) < 1e-9)
    }

    @Test func polygonIsCutAndShifted() throws {
        // A square spanning 170…190 becomes two squares: 170…180 and −180…−170.
        let sq = Geometry.polygon(Polygon(rings: [[Point(170, 0), Point(170, 10), Point(190, 10), Point(190, 0)]]))
        let n = try GeometryEngine.normalizeCentralMeridian(sq, spatialReference: .wgs84)
        #expect(WKT.encode(n) == "MULTIPOLYGON (((-180 0, -180 10, -170 10, -170 0, -180 0)), ((170 0, 170 10, 180 10, 180 0, 170 0)))")
        #expect(GeometryEngine.area(n) == GeometryEngine.area(sq))
        // A polygon entirely in the next world is only shifted.
        let far = Geometry.polygon(Polygon(rings: [[Point(200, 0), Point(200, 10), Point(210, 10), Point(210, 0)]]))
        #expect(try GeometryEngine.normalizeCentralMeridian(far, spatialReference: .wgs84)
            == .polygon(Polygon(rings: [[Point(-160, 0), Point(-160, 10), Point(-150, 10), Point(-150, 0)]])))
    }

    @Test func randomTracksStayInRangeAndKeepLength() throws {
        var rng = SeededRandom(seed: 11)
        for _ in 0..<100 {
            var x = rng.double(in: -170...170), y = 0.0
            var path = [Point(x, y)]
            for _ in 0..<20 {
                x += rng.double(in: -60...60)
                y += rng.double(in: -5...5)
                path.append(Point(x, y))
            }
            let g = Geometry.polyline(Polyline(paths: [path]))
            let n = try GeometryEngine.normalizeCentralMeridian(g, spatialReference: .wgs84)
            #expect(n.parts.allSatisfy { $0.allSatisfy { $0.x >= -180 && $0.x <= 180 } })
            #expect(abs(GeometryEngine.length(n) - GeometryEngine.length(g)) < 1e-9 * GeometryEngine.length(g))
        }
    }

    @Test func unsupportedSpatialReferenceThrows() {
        #expect(throws: ProjectionError.unsupportedSpatialReference(SpatialReference(wkid: 2193), operation: "normalizeCentralMeridian")) {
            try GeometryEngine.normalizeCentralMeridian(.point(Point(0, 0)), spatialReference: SpatialReference(wkid: 2193))
        }
    }

    /// Hardening reproducer: a point far beyond the world (1e300 in 4326, 3.7e26 in 3857)
    /// trapped converting its world index to `Int`. It folds exactly: the expected values are
    /// Python's `math.fmod(x, width)` brought into −half…half.
    @Test func farPointsFoldExactly() throws {
        let cases: [(Double, Double)] = [(1e300, 0), (3.7e26, 40), (1.5e308, -96), (-2.5e20, -160)]
        for (x, expected) in cases {
            #expect(try GeometryEngine.normalizeCentralMeridian(.point(Point(x, 1)), spatialReference: .wgs84) == .point(Point(expected, 1)))
        }
        let mercator: [(Double, Double)] = [(4e26, 10179152.908760257), (-3.7e26, 4717867.166886777)]
        for (x, expected) in mercator {
            #expect(try GeometryEngine.normalizeCentralMeridian(.point(Point(x, 1)), spatialReference: .webMercator) == .point(Point(expected, 1)))
        }
        let mp = try GeometryEngine.normalizeCentralMeridian(
            .multipoint(Multipoint(points: [Point(1e300, 0), Point(-Double.greatestFiniteMagnitude, 2)])), spatialReference: .wgs84)
        #expect(mp.parts.flatMap { $0 }.allSatisfy { $0.x >= -180 && $0.x <= 180 })
    }

    /// Hardening reproducer: `LINESTRING (0 0, 1e20 0)` made one cut per world crossed. A
    /// segment wider than one world is refused, naming the part and vertex; so is a path vertex
    /// beyond 2^50, where whole worlds can no longer be counted.
    @Test func segmentsWiderThanOneWorldAreRefused() {
        let wide = Geometry.polyline(Polyline(paths: [[Point(0, 0), Point(1, 1)], [Point(0, 0), Point(10, 0), Point(1e8, 0)]]))
        #expect(throws: ProjectionError.segmentWiderThanWorld(part: 1, vertex: 1, span: 1e8 - 10, worldWidth: 360)) {
            try GeometryEngine.normalizeCentralMeridian(wide, spatialReference: .wgs84)
        }
        #expect(throws: ProjectionError.vertexOutOfDomain(
            part: 0, vertex: 1, operation: "normalizeCentralMeridian", found: "x 1e+20", expected: "x within ±1125899906842624 (2^50)")
        ) {
            try GeometryEngine.normalizeCentralMeridian(.polyline(Polyline(paths: [[Point(0, 0), Point(1e20, 0)]])), spatialReference: .wgs84)
        }
        // A ring's closing segment counts too.
        let ring = Geometry.polygon(Polygon(rings: [[Point(-200, 0), Point(-200, 10), Point(0, 10), Point(200, 10), Point(200, 0)]]))
        #expect(throws: ProjectionError.segmentWiderThanWorld(part: 0, vertex: 4, span: 400, worldWidth: 360)) {
            try GeometryEngine.normalizeCentralMeridian(ring, spatialReference: .wgs84)
        }
        let w = GeometryEngine.webMercatorHalfWidth
        #expect(throws: ProjectionError.self) {
            try GeometryEngine.normalizeCentralMeridian(.polyline(Polyline(paths: [[Point(-w, 0), Point(w + 1, 0)]])), spatialReference: .webMercator)
        }
        // Exactly one world wide is still folded (it crosses one antimeridian).
        let one = Geometry.polyline(Polyline(paths: [[Point(-190, 0), Point(170, 0)]]))
        #expect(throws: Never.self) { try GeometryEngine.normalizeCentralMeridian(one, spatialReference: .wgs84) }
        #expect(ProjectionError.segmentWiderThanWorld(part: 1, vertex: 1, span: 1e8 - 10, worldWidth: 360).description
            == "normalizeCentralMeridian: part 1 vertex 1: expected a segment at most one world width (360) wide in x, found one spanning 99999990 (it wraps the whole world)")
    }

    /// A polygon spanning 3.5 worlds with short edges: each world's piece is clipped once per
    /// edge, and under the odd-even rule longitudes covered an even number of times cancel —
    /// the band [0, 1260] × [0, 1] covers −180…0 three times and 0…180 four times, so what is
    /// left is [−180, 0] × [0, 1].
    @Test func aPolygonAcrossManyWorldsFoldsByParity() throws {
        let top = stride(from: 0.0, through: 1260, by: 90).map { Point($0, 1) }
        let bottom = stride(from: 1260.0, through: 0, by: -90).map { Point($0, 0) }
        let band = Geometry.polygon(Polygon(rings: [top + bottom]))
        let n = try GeometryEngine.normalizeCentralMeridian(band, spatialReference: .wgs84)
        #expect(abs(GeometryEngine.area(n) - 180) < 1e-9)
        #expect(n.parts.flatMap { $0 }.allSatisfy { $0.x >= -180 && $0.x <= 180 })
        #expect(GeometryEngine.isValid(n, mode: .esriSimple))
    }

    @Test func anEnvelopeWiderThanTheWorldCoversItAll() throws {
        let e = Geometry.envelope(Envelope(xmin: -400, ymin: -10, xmax: 400, ymax: 10))
        #expect(try GeometryEngine.normalizeCentralMeridian(e, spatialReference: .wgs84)
            == .envelope(Envelope(xmin: -180, ymin: -10, xmax: 180, ymax: 10)))
    }
}
