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
}
