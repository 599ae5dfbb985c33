import MapSketchGeometry
import MapSketchTestSupport
import Testing

/// GDAL's Esri JSON driver test files (autotest/ogr/data/esrijson), with what GDAL's tests expect.
@Suite("Conformance: GDAL esrijson")
struct GDALEsriJSONConformance {
    static func load(_ name: String, options: EsriJSON.DecodingOptions = .init()) throws -> EsriJSON.FeatureSet {
        try EsriJSON.decodeFeatureSet(Fixtures.string("\(fixtureRoot)/gdal-esrijson/\(name)"), options: options)
    }

    @Test func everyFile() throws {
        let files = Fixtures.files(under: "\(fixtureRoot)/gdal-esrijson", suffix: ".json").map(\.lastPathComponent)
        #expect(files.count == 8)
        var passed = 0
        for file in files {
            do {
                try check(file)
                passed += 1
            } catch {
                Issue.record("\(file): \(error)")
            }
        }
        print(
            "gdal-esrijson: \(passed)/\(files.count) files behave as expected (1 is rejected on purpose, 1 needs the trailing-comma flag)"
        )
        #expect(passed == files.count)
    }

    /// Throws when the file does not decode (or fail) as documented.
    func check(_ file: String) throws {
        struct Mismatch: Error, CustomStringConvertible { var description: String }
        func expect(_ ok: Bool, _ what: String) throws { if !ok { throw Mismatch(description: what) } }
        switch file {
        case "esripoint.json":
            let fs = try Self.load(file)
            try expect(fs.geometryType == .point && fs.spatialReference == .wgs84, "header")
            try expect(fs.features.count == 1, "one feature")
            try expect(
                fs.features[0].geometry == SpatialGeometry(.point(Point(2, 49)), spatialReference: .wgs84), "point 2 49"
            )
            try expect(
                fs.features[0].attributes?["fooString"] == "56" && fs.features[0].attributes?["fooDouble"] == 3.4,
                "attributes")
        case "esrizpoint.json":
            // Trailing commas on purpose: strict reading names the spot, the flag accepts it.
            do {
                _ = try Self.load(file)
                throw Mismatch(description: "strict reading should fail")
            } catch let e as JSONError {
                try expect(e == JSONError("trailing comma before ']' is not allowed", line: 31, column: 3), "\(e)")
            }
            let fs = try Self.load(file, options: .init(allowTrailingCommas: true))
            try expect(fs.features[0].geometry?.geometry == .point(Point(x: 2, y: 49, z: 1)), "POINT Z (2 49 1)")
        case "esrihasmnozmultipoint.json":
            let g = try Self.load(file).features[0].geometry?.geometry
            try expect(
                g
                    == .multipoint(
                        Multipoint(
                            points: [Point(x: 2, y: 49, m: 1), Point(x: 3, y: 50, m: 2)], hasZ: false, hasM: true)),
                "MULTIPOINT M ((2 49 1),(3 50 2))")
        case "esrizmmultipoint.json":
            let g = try Self.load(file).features[0].geometry?.geometry
            try expect(
                g
                    == .multipoint(
                        Multipoint(points: [Point(x: 2, y: 49, z: 1, m: 100), Point(x: 3, y: 50, z: 2, m: 100)])),
                "MULTIPOINT ZM")
        case "esriinvalidhaszmultipoint.json":
            // hasZ is true but the points have 2 numbers: rejected with the spot named.
            do {
                _ = try Self.load(file)
                throw Mismatch(description: "should be rejected")
            } catch let e as JSONError {
                try expect(
                    e.description
                        == "36:22: features[0].geometry.points[0]: expected 3 numbers (x, y, z) because hasZ is true, found 2",
                    "\(e)")
            }
        case "esripolygon.json":
            let fs = try Self.load(file)
            guard case .polygon(let p)? = fs.features[0].geometry?.geometry else {
                throw Mismatch(description: "polygon")
            }
            try expect(p.rings.count == 3 && p.rings.allSatisfy { $0.count == 4 }, "3 open rings of 4")
            try expect(p.rings[2] == [Point(-2, 49), Point(-2, 50), Point(-3, 50), Point(-3, 49)], "orientation kept")
            // Rings are classified by Esri winding: rings 0 and 1 are clockwise (exteriors, though 1 lies
            // inside 0), ring 2 is counter-clockwise (a hole) but inside neither, so it stands alone.
            // GDAL, which ignores winding and nests by containment, makes ring 1 a hole of ring 0
            // instead; `simplify` (geometry engine) is the place to repair such input.
            let gj = GeoJSON.jsonValue(wgs84: .polygon(p))
            try expect(
                gj["type"] == "MultiPolygon"
                    && gj["coordinates"]?.arrayValue?.map { $0.arrayValue?.count ?? 0 } == [1, 1, 1], "grouping")
        case "esripolygonempty.json":
            let fs = try Self.load(file)
            try expect(fs.features[0].geometry?.geometry == .polygon(Polygon(rings: [])), "empty polygon")
            try expect(fs.features[0].attributes == JSONObject(), "empty attributes")
        case "esrijsonstartingwithfeaturesgeometry.json":
            let fs = try Self.load(file)
            try expect(
                fs.geometryType == .polygon
                    && fs.metadata.keys == ["objectIdFieldName", "globalIdFieldName", "fields"], "header after features"
            )
            try expect(
                fs.features[0].geometry?.geometry
                    == .polygon(
                        Polygon(rings: [
                            [
                                Point(x: 2, y: 49, z: 1), Point(x: 2, y: 50, z: 2), Point(x: 3, y: 50, z: 3),
                                Point(x: 3, y: 49, z: 4),
                            ]
                        ])), "POLYGON Z")
        default:
            throw Mismatch(description: "no expectation written for \(file)")
        }
        // Whatever decodes must survive an Esri JSON round trip unchanged.
        let options = EsriJSON.DecodingOptions(allowTrailingCommas: true)
        if let fs = try? Self.load(file, options: options) {
            try expect(try EsriJSON.decodeFeatureSet(EsriJSON.encode(fs)) == fs, "round trip")
        }
    }
}

/// Esri geometry-api-java test data: a large Interstate 10 polyline and a multipoint list.
@Suite("Conformance: esri geometry-api-java data")
struct GeometryAPIJavaConformance {
    @Test func interstate10Polyline() throws {
        let text = try Fixtures.string(
            "\(fixtureRoot)/esri-geometry-api-java/INTERSTATE10_102009_POLYLINE_GEOMETRY2.TXT")
        let list = try EsriJSON.decodeGeometries(text)
        #expect(list.count == 1)
        guard case .polyline(let pl) = try #require(list.first).geometry else {
            Issue.record("not a polyline")
            return
        }
        // Count the vertices independently from the raw JSON.
        let raw = try JSONParser.parse(text)
        let rawPaths = try #require(raw[0]?["paths"]?.arrayValue)
        #expect(pl.paths.count == rawPaths.count)
        #expect(pl.paths.map(\.count) == rawPaths.map { $0.arrayValue?.count ?? -1 })
        #expect(pl.paths[0][0] == Point(-1860932.82127223, -388270.616031549))
        #expect(pl.paths.last?.last == Point(-234306.079537844, -1109870.6101174))
        #expect(!pl.hasZ && !pl.hasM)
        let again = try EsriJSON.decode(EsriJSON.encode(list[0]))
        #expect(again == list[0])
        print(
            "esri-geometry-api-java INTERSTATE10: \(pl.pointCount) vertices in \(pl.paths.count) paths, round trip exact"
        )
    }

    @Test func alaskaMultipoints() throws {
        let text = try Fixtures.string("\(fixtureRoot)/esri-geometry-api-java/AK_3338_MULTIPOINTS_JSON_GEOMETRY.TXT")
        let list = try EsriJSON.decodeGeometries(text)
        #expect(list.count == 1)
        let g = try #require(list.first)
        #expect(g.spatialReference?.wkid == 3338)
        guard case .multipoint(let mp) = g.geometry else {
            Issue.record("not a multipoint")
            return
        }
        #expect(mp.points.count == 16)
        #expect(mp.points.first == Point(-422460.131402843, 994009.192353492))
        #expect(mp.points.last == Point(-448745.674369452, 1033832.34834033))
        #expect(try EsriJSON.decode(EsriJSON.encode(g)) == g)
    }

    @Test func areasAndLengthsPolygons() throws {
        let text = try Fixtures.string("\(fixtureRoot)/esri-geometry-api-java/AreasAndLengths.txt")
        let list = try EsriJSON.decodeGeometries(text)
        #expect(list.map(\.geometry.type) == [.polygon, .polygon])
        guard case .polygon(let a) = list[0].geometry, case .polygon(let b) = list[1].geometry else { return }
        #expect(a.rings.map(\.count) == [3, 3])
        #expect(b.rings.map(\.count) == [4])
    }
}

/// Real ArcGIS REST query pages saved by pyesridump.
@Suite("Conformance: pyesridump query pages")
struct PyEsriDumpPages {
    @Test func everyPage() throws {
        let files = Fixtures.files(under: "\(fixtureRoot)/pyesridump", suffix: "-0.json")
        #expect(files.count == 6)
        var features = 0
        for url in files {
            let text = try Fixtures.string("\(fixtureRoot)/pyesridump/\(url.lastPathComponent)")
            let raw = try #require(try JSONParser.parse(text).objectValue)
            let fs = try EsriJSON.decodeFeatureSet(text)
            let rawFeatures = try #require(raw["features"]?.arrayValue)
            #expect(fs.features.count == rawFeatures.count)
            let type = EsriJSON.geometryType(named: raw["geometryType"]?.stringValue ?? "")
            #expect(fs.geometryType == type)
            for (f, r) in zip(fs.features, rawFeatures) {
                if r["geometry"] == nil {
                    #expect(f.geometry == nil)  // us-ca-carson has a feature without geometry
                } else {
                    #expect(f.geometry?.geometry.type == type)
                    #expect(f.geometry?.spatialReference == fs.spatialReference)
                }
                #expect(f.attributes?.keys == r["attributes"]?.objectValue?.keys, "attribute order kept")
                #expect(f.attributes.map(JSONValue.object) == r["attributes"], "attribute values kept exactly")
            }
            // Esri round trip is exact; GeoJSON keeps every feature, attribute and vertex (the
            // coordinates declared longitude/latitude, so written as they are).
            #expect(try EsriJSON.decodeFeatureSet(EsriJSON.encode(fs)) == fs)
            let gj = try GeoJSON.encode(.featureCollection(fs.features.map { asLongitudeLatitude($0.withID()) }))
            guard case .featureCollection(let back) = try GeoJSON.decodeDocument(gj) else {
                Issue.record("not a feature collection")
                continue
            }
            #expect(back.count == fs.features.count)
            for (a, b) in zip(fs.features, back) {
                #expect(a.attributes == b.attributes)
                #expect(
                    Set(a.geometry?.geometry.parts.flatMap { $0 } ?? [])
                        == Set(b.geometry?.geometry.parts.flatMap { $0 } ?? []))
                #expect(a.geometry?.geometry.pointCount == b.geometry?.geometry.pointCount)
            }
            features += fs.features.count
        }
        print(
            "pyesridump query pages: \(files.count)/6 pages, \(features) features decoded, round-tripped through Esri JSON and GeoJSON"
        )
    }
}
