import MapSketchGeometry
import Testing

/// The examples of the module's documentation catalog (MapSketchGeometry.md) and of
/// ``GeometryEngine``, run as written, with the results their comments state.
@Suite struct DocumentationExampleTests {
    @Test func catalogOverview() throws {
        var builder = try GeometryBuilder(type: .polygon)
        try builder.append(Point(0, 0))
        try builder.append(Point(0, 10))
        try builder.append(Point(10, 10))
        let polygon = builder.geometry

        #expect(GeometryEngine.area(polygon) == 50)
        #expect(try GeometryFormat.wkt.encode(SpatialGeometry(polygon)) == "POLYGON ((0 0, 0 10, 10 10, 0 0))")
        let track = try GeoJSON.decode(#"{"type":"LineString","coordinates":[[170,0],[190,10]]}"#)
        let folded = try GeometryEngine.normalizeCentralMeridian(track.geometry, spatialReference: .wgs84)
        #expect(folded == .polyline(Polyline(paths: [[Point(170, 0), Point(180, 5)], [Point(-180, 5), Point(-170, 10)]])))
    }

    @Test func geometryEngineOverview() throws {
        let bowTie = try WKT.decode("POLYGON ((0 0, 10 10, 10 0, 0 10, 0 0))")
        #expect(!GeometryEngine.isValid(bowTie))
        let fixed = GeometryEngine.simplify(bowTie)
        #expect(WKT.encode(fixed) == "MULTIPOLYGON (((0 0, 0 10, 5 5, 0 0)), ((5 5, 10 10, 10 0, 5 5)))")
        #expect(GeometryEngine.area(fixed) == 50)
    }

    @Test func spatialIndexOverview() {
        let envelopes = (0..<100).map { Envelope(xmin: Double($0), ymin: 0, xmax: Double($0) + 0.5, ymax: 0.5) }
        var index = SpatialIndex()
        index.bulkLoad(count: envelopes.count) { envelopes[$0] }
        index.insert(envelopes.count, box: Envelope(xmin: 0, ymin: 0, xmax: 1, ymax: 1))
        var found: [Int] = []
        index.search(Envelope(xmin: 0.5, ymin: 0.5, xmax: 2, ymax: 2)) { id in
            found.append(id)
            return true
        }
        #expect(found.sorted() == [0, 1, 2, 100])
    }
}
