import MapSketchGeometry
import Testing

/// RFC 7946 output: GeoJSON coordinates are WGS 84 longitude/latitude whatever the geometry's
/// spatial reference.
@Suite struct GeoJSONWGS84Tests {
    @Test func webMercatorIsProjectedAndWGS84KeptAsIs() throws {
        let lonLat = Geometry.polyline(Polyline(paths: [[Point(13.45, 52.51), Point(x: -122.35, y: 47.62, z: 56)]]))
        let metres = try GeometryEngine.project(lonLat, from: .wgs84, to: .webMercator)
        let out = try GeoJSON.inWGS84(SpatialGeometry(metres, spatialReference: .webMercator))
        #expect(out.spatialReference == .wgs84)
        for (a, b) in zip(out.geometry.parts[0], lonLat.parts[0]) {
            #expect(abs(a.x - b.x) < 1e-9 && abs(a.y - b.y) < 1e-9)
            #expect(a.z == b.z, "z is kept")
        }
        let same = SpatialGeometry(lonLat, spatialReference: .wgs84)
        #expect(try GeoJSON.inWGS84(same) == same)
        #expect(try GeoJSON.encodeWGS84(SpatialGeometry(metres, spatialReference: .webMercator)).contains("13.45"))
    }

    @Test func whatCannotBeLongitudeLatitudeIsAnError() {
        #expect(throws: GeoJSONOutputError.cannotProject(from: SpatialReference(wkid: 2056))) {
            try GeoJSON.inWGS84(
                SpatialGeometry(.point(Point(2_600_000, 1_200_000)), spatialReference: SpatialReference(wkid: 2056)))
        }
        #expect(throws: GeoJSONOutputError.notLongitudeLatitude(x: 1_498_048, y: 6_893_118)) {
            try GeoJSON.inWGS84(SpatialGeometry(.point(Point(1_498_048, 6_893_118))))
        }
        #expect(throws: Never.self) { try GeoJSON.inWGS84(SpatialGeometry(.point(Point(13.45, 52.51)))) }
    }
}
