import MapSketchGeometry
import MapSketchTestSupport
import Testing

/// Sample geometries of every type, with and without z/m, and empty ones.
enum CodecSamples {
    static let square: [Point] = [Point(0, 0), Point(0, 10), Point(10, 10), Point(10, 0)]  // clockwise
    static let hole: [Point] = [Point(2, 2), Point(4, 2), Point(4, 4), Point(2, 4)]  // counter-clockwise
    static let island: [Point] = [Point(20, 0), Point(20, 5), Point(25, 5), Point(25, 0)]  // clockwise

    static var all: [(String, Geometry)] {
        [
            ("point", .point(Point(1.5, -2.25))),
            ("point z", .point(Point(x: 1, y: 2, z: 3))),
            ("point m", .point(Point(x: 1, y: 2, m: 4))),
            ("point zm", .point(Point(x: 1, y: 2, z: 3, m: 4))),
            ("empty point", .point(nil)),
            ("multipoint", .multipoint(Multipoint(points: [Point(0, 0), Point(1e-7, 123456.789)]))),
            (
                "multipoint zm",
                .multipoint(Multipoint(points: [Point(x: 0, y: 0, z: 1, m: 2), Point(x: 1, y: 1, z: 3, m: 4)]))
            ),
            ("empty multipoint", .multipoint(Multipoint(points: []))),
            ("polyline", .polyline(Polyline(paths: [[Point(0, 0), Point(5, 5), Point(10, 0)]]))),
            (
                "polyline 2 paths z",
                .polyline(
                    Polyline(paths: [
                        [Point(x: 0, y: 0, z: 1), Point(x: 1, y: 1, z: 2)],
                        [Point(x: 5, y: 5, z: 0), Point(x: 6, y: 5, z: -1)],
                    ]))
            ),
            ("polyline m", .polyline(Polyline(paths: [[Point(x: 0, y: 0, m: 1), Point(x: 1, y: 1, m: 2)]]))),
            ("empty polyline", .polyline(Polyline(paths: []))),
            ("polygon", .polygon(Polygon(rings: [square]))),
            ("polygon with hole", .polygon(Polygon(rings: [square, hole]))),
            ("multipolygon with hole", .polygon(Polygon(rings: [square, hole, island]))),
            (
                "polygon zm",
                .polygon(Polygon(rings: [square.enumerated().map { Point(x: $1.x, y: $1.y, z: Double($0), m: 7) }]))
            ),
            ("empty polygon", .polygon(Polygon(rings: []))),
            ("envelope", .envelope(Envelope(xmin: -1, ymin: -2, xmax: 3, ymax: 4))),
        ]
    }
}

@Suite("Esri JSON codec")
struct EsriJSONTests {
    @Test func roundTripsEveryGeometryType() throws {
        for (name, g) in CodecSamples.all {
            for sr in [
                nil, SpatialReference.wgs84, SpatialReference.webMercator, SpatialReference(wkt: "PROJCS[\"x\"]"),
            ] {
                let sg = SpatialGeometry(g, spatialReference: sr)
                let text = EsriJSON.encode(sg)
                let back = try EsriJSON.decode(text)
                #expect(back == sg, "\(name): \(text)")
                #expect(back.spatialReference?.wkid == sr?.wkid && back.spatialReference?.latestWkid == sr?.latestWkid)
                #expect(EsriJSON.encode(back) == text, "\(name): output is stable")
                #expect(try EsriJSON.decode(EsriJSON.encode(sg, style: .pretty)) == sg)
            }
        }
    }

    @Test func writesTheDocumentedShape() {
        let p = SpatialGeometry(.polygon(Polygon(rings: [CodecSamples.square])), spatialReference: .webMercator)
        #expect(
            EsriJSON.encode(p)
                == #"{"rings":[[[0,0],[0,10],[10,10],[10,0],[0,0]]],"spatialReference":{"wkid":102100,"latestWkid":3857}}"#
        )
        #expect(EsriJSON.encode(SpatialGeometry(.point(nil))) == #"{"x":null}"#)
        #expect(
            EsriJSON.encode(SpatialGeometry(.point(Point(x: 1, y: 2, z: 3, m: 4)))) == #"{"x":1,"y":2,"z":3,"m":4}"#)
        let m = SpatialGeometry(.polyline(Polyline(paths: [[Point(x: 0, y: 0, m: 1), Point(x: 1, y: 1, m: 2)]])))
        #expect(EsriJSON.encode(m) == #"{"hasM":true,"paths":[[[0,0,1],[1,1,2]]]}"#)
        let e = SpatialGeometry(.envelope(Envelope(xmin: 1, ymin: 2, xmax: 3, ymax: 4)))
        #expect(EsriJSON.encode(e) == #"{"xmin":1,"ymin":2,"xmax":3,"ymax":4}"#)
    }

    @Test func readsVertexLayouts() throws {
        let zm = try EsriJSON.decode(#"{"hasZ":true,"hasM":true,"points":[[1,2,3,4]]}"#)
        #expect(zm.geometry == .multipoint(Multipoint(points: [Point(x: 1, y: 2, z: 3, m: 4)])))
        let mOnly = try EsriJSON.decode(#"{"hasM":true,"paths":[[[1,2,5],[3,4,6]]]}"#)
        #expect(
            mOnly.geometry
                == .polyline(
                    Polyline(paths: [[Point(x: 1, y: 2, m: 5), Point(x: 3, y: 4, m: 6)]], hasZ: false, hasM: true)))
        let noFlags = try EsriJSON.decode(#"{"paths":[[[1,2,5],[3,4,6]]]}"#)
        #expect(noFlags.geometry == .polyline(Polyline(paths: [[Point(x: 1, y: 2, z: 5), Point(x: 3, y: 4, z: 6)]])))
        let nullZ = try EsriJSON.decode(#"{"hasZ":true,"points":[[1,2,null],[3,4,5]]}"#)
        #expect(
            nullZ.geometry
                == .multipoint(Multipoint(points: [Point(1, 2), Point(x: 3, y: 4, z: 5)], hasZ: true, hasM: false)))
        #expect(try EsriJSON.decode(EsriJSON.encode(nullZ)) == nullZ)
    }

    @Test func emptyPointConventions() throws {
        #expect(try EsriJSON.decode(#"{"x":null}"#).geometry == .point(nil))
        #expect(try EsriJSON.decode(#"{"x":"NaN","y":"NaN"}"#).geometry == .point(nil))
        #expect(
            try EsriJSON.decode(#"{"x":null,"spatialReference":{"wkid":4326}}"#)
                == SpatialGeometry(.point(nil), spatialReference: .wgs84))
        #expect(try EsriJSON.decode(#"{"x":1,"y":2,"z":"NaN","m":null}"#).geometry == .point(Point(1, 2)))
    }

    @Test func ringsDropTheClosingVertexAndKeepOrientation() throws {
        // Counter-clockwise exterior: kept as given (not repaired).
        let g = try EsriJSON.decode(#"{"rings":[[[0,0],[10,0],[10,10],[0,0]],[[1,1],[2,1],[2,2]]]}"#)
        guard case .polygon(let p) = g.geometry else {
            Issue.record("not a polygon")
            return
        }
        #expect(p.rings == [[Point(0, 0), Point(10, 0), Point(10, 10)], [Point(1, 1), Point(2, 1), Point(2, 2)]])
        #expect(EsriJSON.encode(g) == #"{"rings":[[[0,0],[10,0],[10,10],[0,0]],[[1,1],[2,1],[2,2],[1,1]]]}"#)
        // A duplicated closing vertex: exactly one is dropped, and the ring survives a round trip.
        let dup = #"{"rings":[[[0,0],[0,1],[1,1],[0,0],[0,0]]]}"#
        #expect(EsriJSON.encode(try EsriJSON.decode(dup)) == dup)
    }

    @Test func degenerateRingsKeptOrDropped() throws {
        let text = #"{"rings":[[[0,0],[0,10],[10,10],[0,0]],[[1,1],[2,2],[1,1]],[]]}"#
        guard case .polygon(let kept) = try EsriJSON.decode(text).geometry else { return }
        #expect(kept.rings.map(\.count) == [3, 2, 0])
        guard case .polygon(let dropped) = try EsriJSON.decode(text, options: .init(dropDegenerateRings: true)).geometry
        else { return }
        #expect(dropped.rings.map(\.count) == [3])
    }

    @Test func spatialReferences() throws {
        let a = try EsriJSON.decode(#"{"x":1,"y":2,"spatialReference":{"wkid":102100,"latestWkid":3857}}"#)
        #expect(a.spatialReference?.wkid == 102100 && a.spatialReference?.latestWkid == 3857)
        let b = try EsriJSON.decode(#"{"x":1,"y":2,"spatialReference":{"latestWkid":3857}}"#)
        #expect(b.spatialReference == .webMercator)
        let c = try EsriJSON.decode(#"{"x":1,"y":2,"spatialReference":{"wkt":"GEOGCS[\"x\"]"}}"#)
        #expect(c.spatialReference?.wkt == "GEOGCS[\"x\"]")
        #expect(try EsriJSON.decode(#"{"x":1,"y":2,"spatialReference":{}}"#).spatialReference == nil)
    }

    @Test func featureSetsInheritTheSetsSpatialReferenceAndKeepMetadata() throws {
        let text = """
            {"displayFieldName":"NAME","geometryType":"esriGeometryPolyline","spatialReference":{"wkid":4326},
             "fields":[{"name":"NAME","type":"esriFieldTypeString"}],
             "features":[{"geometry":{"paths":[[[0,0],[1,1]]]},"attributes":{"NAME":"a","OBJECTID":7}},
                         {"geometry":{},"attributes":{"NAME":"b"}},
                         {"geometry":null}]}
            """
        let fs = try EsriJSON.decodeFeatureSet(text)
        #expect(fs.features.count == 3)
        #expect(fs.geometryType == .polyline && fs.spatialReference == .wgs84)
        #expect(fs.metadata.keys == ["displayFieldName", "fields"])
        #expect(fs.features[0].geometry?.spatialReference == .wgs84)
        #expect(fs.features[0].attributes?.keys == ["NAME", "OBJECTID"])
        #expect(fs.features[1].geometry?.geometry == .polyline(Polyline(paths: [])))
        #expect(fs.features[2].geometry == nil && fs.features[2].attributes == nil)
        #expect(fs.features[0].withID().id == .integer(7))
        let again = try EsriJSON.decodeFeatureSet(EsriJSON.encode(fs))
        #expect(again == fs)
    }

    @Test func featureSetFlagsApplyToItsGeometries() throws {
        let text =
            #"{"hasZ":true,"hasM":true,"geometryType":"esriGeometryPolyline","features":[{"geometry":{"paths":[[[0,0,1,2],[1,1,3,4]]]}},{"geometry":{"spatialReference":{"wkid":3857},"paths":[]}}]}"#
        let fs = try EsriJSON.decodeFeatureSet(text)
        #expect(fs.hasZ && fs.hasM)
        #expect(
            fs.features[0].geometry?.geometry
                == .polyline(Polyline(paths: [[Point(x: 0, y: 0, z: 1, m: 2), Point(x: 1, y: 1, z: 3, m: 4)]])))
        #expect(
            fs.features[1].geometry
                == SpatialGeometry(
                    .polyline(Polyline(paths: [], hasZ: true, hasM: true)), spatialReference: .webMercator))
        // A feature in another spatial reference than the set keeps its own on write.
        #expect(try EsriJSON.decodeFeatureSet(EsriJSON.encode(fs)) == fs)
    }

    /// The format's encoder gives exactly the bytes of the JSONValue tree (documents, the pretty style).
    @Test func streamingOutputEqualsTheTree() {
        let mixed = Geometry.polyline(
            Polyline(paths: [[Point(x: 0, y: 0, z: 1), Point(1, 1)], [Point(x: 2, y: 2, m: 5)]]))
        for (name, g) in CodecSamples.all + [("mixed z/m", mixed)] {
            for sr in [nil, SpatialReference.webMercator, SpatialReference(wkt: "X[\"\\\"]")] {
                let sg = SpatialGeometry(g, spatialReference: sr)
                #expect(EsriJSON.encode(sg) == JSONWriter.string(EsriJSON.jsonValue(sg)), "\(name)")
            }
        }
    }

    @Test func outputIsByteIdenticalAcrossRuns() {
        for (_, g) in CodecSamples.all {
            let sg = SpatialGeometry(g, spatialReference: .wgs84)
            #expect(EsriJSON.encode(sg) == EsriJSON.encode(SpatialGeometry(g, spatialReference: .wgs84)))
            #expect(EsriJSON.encode(sg, style: .pretty) == EsriJSON.encode(sg, style: .pretty))
        }
        let pretty = EsriJSON.encode(
            SpatialGeometry(.polyline(Polyline(paths: [[Point(0, 0), Point(0.1, 2)]]))), style: .pretty)
        #expect(pretty == "{\n  \"paths\": [\n    [\n      [0, 0],\n      [0.1, 2]\n    ]\n  ]\n}")
    }

    /// Bad input → an error naming the field path, line:column and what was expected.
    @Test(arguments: [
        (#"{"rings":[[[0,0],[1,"a"],[2,2]]]}"#, "1:21: rings[0][1][1]: expected a number, found a string"),
        (
            "{\n  \"paths\": [[[0, 0], [1]]]\n}",
            "2:22: paths[0][1]: expected a vertex [x, y, …] with at least 2 numbers, found 1"
        ),
        (#"{"x":1}"#, #"1:1: missing required field "y""#),
        (
            #"{"x":1,"y":"NaN"}"#,
            #"1:12: y: coordinate is NaN: only an empty point ({"x": null} or "x": "NaN") may use NaN"#
        ),
        (
            #"{"points":[[0,0,"Infinity"]]}"#,
            #"1:17: points[0][2]: coordinate is Infinity: only an empty point ({"x": null} or "x": "NaN") may use NaN"#
        ),
        (#"{"x":1,"y":NaN}"#, "1:12: NaN and Infinity are not valid JSON numbers"),
        (#"{"x":1e999,"y":0}"#, "1:6: number 1e999 is out of range for a 64-bit float"),
        (
            #"{"hasZ":true,"points":[[0,0]]}"#,
            "1:24: points[0]: expected 3 numbers (x, y, z) because hasZ is true, found 2"
        ),
        (#"{"points":[[0,0,1,2,3]]}"#, "1:12: points[0]: expected at most 4 numbers (x, y, z, m) in a vertex, found 5"),
        (
            #"{"foo":1}"#,
            #"1:1: expected an Esri JSON geometry: an object with "x", "points", "paths", "rings" or "xmin""#
        ),
        (#"{"curveRings":[]}"#, "1:1: curved geometries (curvePaths, curveRings) are not supported"),
        (#"{"xmin":null,"ymin":0,"xmax":1,"ymax":1}"#, "1:9: xmin: empty envelopes (null bounds) are not supported"),
        (#"{"paths":{}}"#, "1:10: paths: expected an array, found an object"),
        (#"{"hasZ":"yes","paths":[]}"#, "1:9: hasZ: expected a boolean, found a string"),
        (
            #"{"x":1,"y":2,"spatialReference":{"wkid":4326.5}}"#,
            "1:41: spatialReference.wkid: expected an integer, found 4326.5"
        ),
        (#"[1]"#, "1:1: expected an object, found an array"),
        (#"{"geometry":null}"#, "1:13: geometry: the feature has no geometry"),
        (#"{"features":[]}"#, "1:1: expected one geometry, found a feature set (decode it with EsriJSON.decodeFeatureSet)"),
        (#"{"geometries":[]}"#, "1:1: expected one geometry, found a geometry list (decode it with EsriJSON.decodeGeometries)"),
        (#"{"rings":[[[0,0],[1,1],]]}"#, "1:24: trailing comma before ']' is not allowed"),
    ])
    func errors(text: String, message: String) {
        do {
            _ = try EsriJSON.decode(text)
            Issue.record("expected an error for \(text)")
        } catch {
            #expect("\(error)" == message)
        }
    }

    @Test func featureSetErrorsNameTheFeature() {
        let text = """
            {"features": [
              {"geometry": {"x": 1, "y": 2}},
              {"geometry": {"paths": [[[0, 0], [1, true]]]}}
            ]}
            """
        #expect(
            throws: JSONError(
                "expected a number, found a boolean",
                path: [.key("features"), .index(1), .key("geometry"), .key("paths"), .index(0), .index(1), .index(1)],
                line: 3, column: 40)
        ) {
            try EsriJSON.decodeFeatureSet(text)
        }
        #expect(throws: JSONError.self) {
            try EsriJSON.decodeFeatureSet(#"{"features":[], "geometryType":"esriGeometryCircle"}"#)
        }
    }

    @Test func trailingCommasWithTheLeniencyFlag() throws {
        let text = #"{"rings":[[[0,0],[0,1],[1,1],],],}"#
        #expect(throws: JSONError("trailing comma before ']' is not allowed", line: 1, column: 30)) {
            try EsriJSON.decode(text)
        }
        let g = try EsriJSON.decode(text, options: .init(allowTrailingCommas: true))
        #expect(g.geometry == .polygon(Polygon(rings: [[Point(0, 0), Point(0, 1), Point(1, 1)]])))
    }

    @Test func decodesGeometryLists() throws {
        let list = try EsriJSON.decodeGeometries(#"[{"x":1,"y":2},{"points":[[0,0]]}]"#)
        #expect(list.map(\.geometry.type) == [.point, .multipoint])
        let service = try EsriJSON.decodeGeometries(
            #"{"geometryType":"esriGeometryPoint","spatialReference":{"wkid":3338},"geometries":[{"x":1,"y":2},{}]}"#)
        #expect(service.map(\.geometry) == [.point(Point(1, 2)), .point(nil)])
        #expect(service.allSatisfy { $0.spatialReference?.wkid == 3338 })
        #expect(
            throws: JSONError(
                "unknown geometryType \"esriGeometryCircle\": expected esriGeometryPoint, esriGeometryMultipoint, "
                    + "esriGeometryPolyline, esriGeometryPolygon or esriGeometryEnvelope",
                path: [.key("geometryType")], line: 1, column: 17)
        ) {
            try EsriJSON.decodeGeometries(#"{"geometryType":"esriGeometryCircle","geometries":[]}"#)
        }
    }

    @Test func randomGeometriesRoundTripExactly() throws {
        var rng = SeededRandom(seed: 7)
        for _ in 0..<200 {
            var paths: [[Point]] = []
            for _ in 0..<rng.int(in: 1...3) {
                paths.append(
                    (0..<rng.int(in: 2...20)).map { _ in
                        Point(
                            x: rng.double(in: -1e7...1e7), y: rng.double(in: -1e-3...1e-3),
                            z: rng.double(in: -100...100))
                    })
            }
            let g = SpatialGeometry(.polyline(Polyline(paths: paths)), spatialReference: .webMercator)
            #expect(try EsriJSON.decode(EsriJSON.encode(g)) == g)
        }
    }
}
