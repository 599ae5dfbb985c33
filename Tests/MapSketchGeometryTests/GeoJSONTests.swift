import MapSketchGeometry
import MapSketchTestSupport
import Testing

@Suite("GeoJSON codec")
struct GeoJSONTests {
    /// decode(encode(g)) == g for every type; m is dropped (GeoJSON has no m), envelopes come back
    /// as polygons.
    @Test func roundTripsEveryGeometryType() throws {
        for (name, g) in CodecSamples.all {
            let sg = SpatialGeometry(g, spatialReference: .wgs84)
            let text = try GeoJSON.encode(sg)
            let back = try GeoJSON.decode(text)
            let expected: Geometry
            switch g {
            case .envelope(let e):
                expected = .polygon(
                    Polygon(rings: [
                        [Point(e.xmin, e.ymin), Point(e.xmin, e.ymax), Point(e.xmax, e.ymax), Point(e.xmax, e.ymin)]
                    ]))
            default:
                expected = g.mapPoints { Point(x: $0.x, y: $0.y, z: $0.z) }.droppingMFlag
            }
            #expect(back.spatialReference == .wgs84)
            #expect(back.geometry.sameRings(as: expected), "\(name): \(text) → \(back.geometry)")
            #expect(try GeoJSON.encode(back) == text, "\(name): output is stable")
            #expect(try GeoJSON.decode(GeoJSON.encode(sg, options: .init(style: .pretty))) == back)
        }
    }

    /// The format's encoder gives exactly the bytes of the JSONValue tree (documents, the pretty style).
    @Test func streamingOutputEqualsTheTree() {
        let twoHoles = Geometry.polygon(
            Polygon(rings: [
                CodecSamples.island, CodecSamples.hole, CodecSamples.square, [Point(6, 6), Point(8, 6), Point(8, 8)],
            ]))
        let degenerate = Geometry.polygon(Polygon(rings: [[Point(0, 0), Point(1, 1)], [], CodecSamples.square]))
        for (name, g) in CodecSamples.all + [("two holes", twoHoles), ("degenerate", degenerate)] {
            for orientation in [GeoJSON.RingOrientation.rfc7946, .asStored] {
                let o = GeoJSON.EncodingOptions(ringOrientation: orientation)
                #expect(
                    GeoJSON.encode(wgs84: g, options: o)
                        == JSONWriter.string(GeoJSON.jsonValue(wgs84: g, options: o)), "\(name)")
            }
        }
    }

    @Test func writesRFC7946Orientation() {
        // Esri: exterior clockwise, hole counter-clockwise.
        let g = Geometry.polygon(Polygon(rings: [CodecSamples.square, CodecSamples.hole]))
        #expect(
            GeoJSON.encode(wgs84: g)
                == #"{"type":"Polygon","coordinates":[[[0,0],[10,0],[10,10],[0,10],[0,0]],[[2,2],[2,4],[4,4],[4,2],[2,2]]]}"#
        )
        #expect(
            GeoJSON.encode(wgs84: g, options: .init(ringOrientation: .asStored))
                == #"{"type":"Polygon","coordinates":[[[0,0],[0,10],[10,10],[10,0],[0,0]],[[2,2],[4,2],[4,4],[2,4],[2,2]]]}"#
        )
    }

    @Test func readsAndOrientsToTheEsriConvention() throws {
        // An RFC polygon (exterior CCW, hole CW) and a non-RFC one (exterior CW, hole CCW) read alike.
        let rfc = try GeoJSON.decode(
            #"{"type":"Polygon","coordinates":[[[0,0],[10,0],[10,10],[0,10],[0,0]],[[2,2],[2,4],[4,4],[4,2],[2,2]]]}"#)
        let esriWound = try GeoJSON.decode(
            #"{"type":"Polygon","coordinates":[[[0,0],[0,10],[10,10],[10,0],[0,0]],[[2,2],[4,2],[4,4],[2,4],[2,2]]]}"#)
        let expected = Polygon(rings: [CodecSamples.square, CodecSamples.hole])
        #expect(rfc.geometry == .polygon(expected))
        #expect(esriWound.geometry == .polygon(expected))
    }

    @Test func groupsHolesIntoTheirExteriors() throws {
        // Rings in mixed order: island, hole of the square, square.
        let g = SpatialGeometry(
            .polygon(Polygon(rings: [CodecSamples.island, CodecSamples.hole, CodecSamples.square])))
        let v = GeoJSON.jsonValue(wgs84: g.geometry)
        #expect(v["type"] == "MultiPolygon")
        let polys = try #require(v["coordinates"]?.arrayValue)
        #expect(polys.count == 2)
        #expect(polys[0].arrayValue?.count == 1)  // the island alone
        #expect(polys[1].arrayValue?.count == 2)  // the square and its hole
        #expect(coords(polys[1][1]?[0]) == [2, 2])
        // Nested: a hole inside an island inside a lake inside land goes to the innermost exterior.
        let land = [Point(0, 0), Point(0, 100), Point(100, 100), Point(100, 0)]
        let lake = [Point(10, 10), Point(90, 10), Point(90, 90), Point(10, 90)]
        let island = [Point(20, 20), Point(20, 80), Point(80, 80), Point(80, 20)]
        let pond = [Point(30, 30), Point(70, 30), Point(70, 70), Point(30, 70)]
        let nested = GeoJSON.jsonValue(wgs84: .polygon(Polygon(rings: [land, lake, island, pond])))
        let np = try #require(nested["coordinates"]?.arrayValue)
        #expect(np.count == 2)
        #expect(coords(np[0][1]?[0]) == [10, 10] && coords(np[1][1]?[0]) == [30, 30])
        // A hole contained by no exterior becomes its own polygon.
        let lone = GeoJSON.jsonValue(wgs84: .polygon(Polygon(rings: [CodecSamples.square, CodecSamples.island.reversed()])))
        #expect(lone["type"] == "MultiPolygon" && lone["coordinates"]?.arrayValue?.count == 2)
    }

    @Test func multiPolygonReadsIntoOnePolygon() throws {
        let text = #"{"type":"MultiPolygon","coordinates":[[[[0,0],[1,0],[1,1],[0,0]]],[[[5,5],[6,5],[6,6],[5,5]]]]}"#
        guard case .polygon(let p) = try GeoJSON.decode(text).geometry else {
            Issue.record("not a polygon")
            return
        }
        #expect(p.rings == [[Point(0, 0), Point(1, 1), Point(1, 0)], [Point(5, 5), Point(6, 6), Point(6, 5)]])
        #expect(GeoJSON.encode(wgs84: .polygon(p)) == text)
    }

    @Test func featuresAndCollections() throws {
        let text = """
            {"type":"FeatureCollection","features":[
              {"type":"Feature","id":"a1","geometry":{"type":"Point","coordinates":[1,2,3]},"properties":{"z":1,"a":[true,null]}},
              {"type":"Feature","id":7,"geometry":null,"properties":null},
              {"type":"Feature","geometry":{"type":"LineString","coordinates":[]},"properties":{}}
            ]}
            """
        guard case .featureCollection(let fs) = try GeoJSON.decodeDocument(text) else {
            Issue.record("not a feature collection")
            return
        }
        #expect(fs.count == 3)
        #expect(fs[0].id == "a1" && fs[1].id == 7 && fs[2].id == nil)
        #expect(fs[0].attributes?.keys == ["z", "a"])
        #expect(fs[0].geometry?.geometry == .point(Point(x: 1, y: 2, z: 3)))
        #expect(fs[1].geometry == nil && fs[1].attributes == nil)
        #expect(fs[2].geometry?.geometry == .polyline(Polyline(paths: [])))
        let out = try GeoJSON.encode(.featureCollection(fs))
        #expect(
            out
                == #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2,3]},"properties":{"z":1,"a":[true,null]},"id":"a1"},{"type":"Feature","geometry":null,"properties":null,"id":7},{"type":"Feature","geometry":null,"properties":{}}]}"#
        )
    }

    @Test func geometryCollections() throws {
        let text =
            #"{"type":"GeometryCollection","geometries":[{"type":"Point","coordinates":[1,2]},{"type":"LineString","coordinates":[[0,0],[1,1]]}]}"#
        let doc = try GeoJSON.decodeDocument(text)
        guard case .geometryCollection(let gs) = doc else {
            Issue.record("not a collection")
            return
        }
        #expect(gs.map(\.geometry.type) == [.point, .polyline])
        #expect(try GeoJSON.encode(doc) == text)
        #expect(
            throws: JSONError(
                "expected one geometry, found a GeometryCollection (decode it with GeoJSON.decodeDocument)", line: 1,
                column: 1)
        ) {
            try GeoJSON.decode(text)
        }
    }

    @Test func legacyCRS() throws {
        let a = try GeoJSON.decode(
            #"{"type":"Point","coordinates":[1,2],"crs":{"type":"name","properties":{"name":"urn:ogc:def:crs:EPSG::3857"}}}"#
        )
        #expect(a.spatialReference == .webMercator)
        let b = try GeoJSON.decode(
            #"{"type":"Point","coordinates":[1,2],"crs":{"type":"name","properties":{"name":"urn:ogc:def:crs:OGC:1.3:CRS84"}}}"#
        )
        #expect(b.spatialReference == .wgs84)
    }

    @Test(arguments: [
        (#"{"coordinates":[1,2]}"#, #"1:1: missing required field "type""#),
        (
            #"{"type":"Circle","coordinates":[1,2]}"#,
            "1:9: type: unknown geometry type \"Circle\": expected Point, MultiPoint, LineString, MultiLineString, Polygon or MultiPolygon"
        ),
        (#"{"type":"Point"}"#, #"1:1: missing required field "coordinates""#),
        (
            #"{"type":"Point","coordinates":[1]}"#,
            "1:31: coordinates: expected a position [x, y] or [x, y, z], found 1 numbers"
        ),
        (
            #"{"type":"Point","coordinates":[1,2,3,4,5]}"#,
            "1:31: coordinates: expected a position with at most 4 numbers, found 5"
        ),
        (
            "{\"type\":\"LineString\",\n \"coordinates\":[[0,0],[1,\"1\"]]}",
            "2:26: coordinates[1][1]: expected a number, found a string"
        ),
        (
            #"{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],"x"]]}"#,
            "1:53: coordinates[0][3]: expected an array, found a string"
        ),
        (#"{"type":"Feature","properties":{}}"#, #"1:1: missing required field "geometry""#),
        (#"{"type":"Feature","geometry":null,"properties":{}}"#, "1:30: geometry: the Feature has no geometry"),
        (
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[0,0]},"properties":[]}"#,
            "1:80: properties: expected an object, found an array"
        ),
        (#"{"type":"Feature","id":[1],"geometry":null}"#, "1:24: id: expected a string or a number, found an array"),
        (
            #"{"type":"FeatureCollection","features":[]}"#,
            "1:1: expected one geometry, found a FeatureCollection (decode it with GeoJSON.decodeDocument)"
        ),
        (
            #"{"type":"Point","coordinates":[1,2],"crs":{"type":"link"}}"#,
            "1:51: crs.type: only named crs members are supported (\"type\": \"name\")"
        ),
        (#"{"type":"Point","coordinates":[NaN,2]}"#, "1:32: NaN and Infinity are not valid JSON numbers"),
    ])
    func errors(text: String, message: String) {
        do {
            _ = try GeoJSON.decode(text)
            Issue.record("expected an error for \(text)")
        } catch {
            #expect("\(error)" == message)
        }
    }

    @Test func featureCollectionErrorsNameTheFeature() {
        let text =
            #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":null},{"type":"Feature","geometry":{"type":"Point","coordinates":["a",1]}}]}"#
        #expect(
            throws: JSONError(
                "expected a number, found a string",
                path: [.key("features"), .index(1), .key("geometry"), .key("coordinates"), .index(0)], line: 1,
                column: 136)
        ) {
            try GeoJSON.decodeDocument(text)
        }
    }

    @Test func degenerateRingsKeptOrDropped() throws {
        let text = #"{"type":"Polygon","coordinates":[[[0,0],[0,10],[10,10],[0,0]],[[1,1],[2,2],[1,1]]]}"#
        guard case .polygon(let kept) = try GeoJSON.decode(text).geometry,
            case .polygon(let dropped) = try GeoJSON.decode(text, options: .init(dropDegenerateRings: true)).geometry
        else {
            Issue.record("not polygons")
            return
        }
        #expect(kept.rings.map(\.count) == [3, 2])
        #expect(dropped.rings.map(\.count) == [3])
    }

    @Test func randomPolygonsRoundTrip() throws {
        var rng = SeededRandom(seed: 99)
        for _ in 0..<100 {
            // Disjoint boxes, each with a hole, in a row: exteriors clockwise, holes counter-clockwise.
            var rings: [[Point]] = []
            for k in 0..<rng.int(in: 1...4) {
                let x0 = Double(k) * 100 + rng.double(in: 0...10)
                let y0 = rng.double(in: -50...50)
                let w = rng.double(in: 20...80)
                rings.append([Point(x0, y0), Point(x0, y0 + w), Point(x0 + w, y0 + w), Point(x0 + w, y0)])
                rings.append([
                    Point(x0 + 5, y0 + 5), Point(x0 + 10, y0 + 5), Point(x0 + 10, y0 + 10), Point(x0 + 5, y0 + 10),
                ])
            }
            let g = SpatialGeometry(.polygon(Polygon(rings: rings)), spatialReference: .wgs84)
            #expect(try GeoJSON.decode(GeoJSON.encode(g)) == g)
        }
    }
}

/// The numbers of a position, whatever their JSON number kind.
private func coords(_ v: JSONValue?) -> [Double]? { v?.arrayValue?.compactMap(\.doubleValue) }

extension Geometry {
    /// The geometry with hasM cleared (what a GeoJSON round trip gives back).
    fileprivate var droppingMFlag: Geometry {
        switch self {
        case .multipoint(var g):
            g.hasM = false
            return .multipoint(g)
        case .polyline(var g):
            g.hasM = false
            return .polyline(g)
        case .polygon(var g):
            g.hasM = false
            return .polygon(g)
        default: return self
        }
    }

    /// Equality, except that a polygon's rings may start at another vertex of the same ring.
    fileprivate func sameRings(as other: Geometry) -> Bool {
        guard case .polygon(let a) = self, case .polygon(let b) = other else { return self == other }
        guard a.rings.count == b.rings.count, a.hasZ == b.hasZ else { return false }
        return zip(a.rings, b.rings).allSatisfy { ra, rb in
            guard ra.count == rb.count else { return false }
            if ra.isEmpty { return true }
            return (0..<ra.count).contains { s in (0..<ra.count).allSatisfy { ra[($0 + s) % ra.count] == rb[$0] } }
        }
    }
}
