import MapSketchGeometry
import MapSketchTestSupport
import Testing

@Suite struct MeasureTests {
    @Test func planarLengthAndArea() throws {
        let sq = try WKT.decode("POLYGON ((0 0, 0 10, 10 10, 10 0, 0 0), (2 2, 8 2, 8 8, 2 8, 2 2))")
        #expect(GeometryEngine.area(sq) == 64)
        #expect(GeometryEngine.length(sq) == 40 + 24)
        // Reversed orientation gives a negative area.
        let ccw = Geometry.polygon(Polygon(rings: [[Point(0, 0), Point(10, 0), Point(10, 10), Point(0, 10)]]))
        #expect(GeometryEngine.area(ccw) == -100)
        #expect(GeometryEngine.length(try WKT.decode("LINESTRING (0 0, 3 4, 3 10)")) == 11)
        #expect(GeometryEngine.area(.envelope(Envelope(xmin: 0, ymin: 0, xmax: 2, ymax: 3))) == 6)
        #expect(GeometryEngine.length(.point(Point(1, 1))) == 0)
    }

    /// Vincenty's own test line (Flinders Peak → Buninyong), and one degree on the equator.
    @Test func geodesicKnownValues() throws {
        let flinders = Point(144 + 25 / 60.0 + 29.52440 / 3600, -(37 + 57 / 60.0 + 3.72030 / 3600))
        let buninyong = Point(143 + 55 / 60.0 + 35.38390 / 3600, -(37 + 39 / 60.0 + 10.15610 / 3600))
        let d = try GeometryEngine.geodesicLength(.polyline(Polyline(paths: [[flinders, buninyong]])), spatialReference: .wgs84)
        #expect(abs(d - 54_972.271) < 0.001)
        let eq = GeometryEngine.geodesicDistance(Point(0, 0), Point(1, 0))
        #expect(abs(eq - 111_319.490_793) < 1e-3)
        // Web Mercator input is converted first.
        let wm = try GeometryEngine.project(Geometry.polyline(Polyline(paths: [[Point(0, 0), Point(1, 0)]])), from: .wgs84, to: .webMercator)
        #expect(abs(try GeometryEngine.geodesicLength(wm, spatialReference: .webMercator) - eq) < 1e-6)
    }

    @Test func nearlyAntipodalFallsBack() {
        // Vincenty fails to converge here; half the meridian circumference is 20003931.46 m.
        let d = GeometryEngine.geodesicDistance(Point(0, 0), Point(179.9, 0.1))
        #expect(d > 19_990_000 && d < 20_010_000)
        let pole = GeometryEngine.geodesicDistance(Point(0, 0), Point(180, 0))
        #expect(abs(pole - 20_003_931.46) < 1)
    }

    @Test func geodesicRejectsOtherSpatialReferences() {
        #expect(throws: ProjectionError.self) {
            try GeometryEngine.geodesicLength(.point(Point(0, 0)), spatialReference: SpatialReference(wkid: 27700))
        }
    }
}
