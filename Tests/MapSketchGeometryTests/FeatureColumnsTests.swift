import Foundation
import MapSketchGeometry
import MapSketchTestSupport
import Testing

/// The columnar readers against the tree readers: every real FeatureSet in the fixtures (and its
/// GeoJSON form) read into columns gives the same geometries and attribute values, row by row;
/// and bad input says where and what was expected.
@Suite struct FeatureColumnsTests {
    static let realSets = [
        "us-ca-carson-0", "us-ca-tuolumne-0", "us-fl-polk-0", "us-mi-kent-0", "us-mo-columbia-0", "us-ms-madison-0",
    ]

    /// Whether a column's value is the tree reader's: equal, or the same number (a column may hold
    /// an integer as a double).
    static func same(_ column: JSONValue?, _ tree: JSONValue?) -> Bool {
        if column == tree { return true }
        if let a = column?.doubleValue, let b = tree?.doubleValue { return a == b }
        return false
    }

    static func expectSameRows(_ columns: FeatureColumns, _ features: [Feature], _ what: String) {
        #expect(columns.count == features.count, "\(what): row count")
        var problems: [String] = []
        for (row, f) in features.enumerated() {
            if columns.geometry[row] != (f.geometry?.geometry ?? .point(nil)) {
                problems.append("\(what) row \(row): geometry")
            }
            for field in columns.fields where !same(field[row], f.attributes?[field.name]) {
                problems.append(
                    "\(what) row \(row) \(field.name): \(String(describing: field[row])) vs \(String(describing: f.attributes?[field.name]))"
                )
            }
            for (name, _) in f.attributes ?? JSONObject() where columns.field(named: name) == nil {
                problems.append("\(what) row \(row): no column \(name)")
            }
        }
        #expect(problems.isEmpty, "\(problems.prefix(3))")
    }

    @Test(arguments: realSets)
    func realFeatureSetsReadAsTheTreeReaderReadsThem(name: String) throws {
        let text = try Fixtures.string("\(fixtureRoot)/pyesridump/\(name).json")
        let tree = try EsriJSON.decodeFeatureSet(text)
        let columns = try EsriJSON.decodeColumns(text)
        #expect(columns.spatialReference == tree.spatialReference)
        Self.expectSameRows(columns, tree.features, name)
        // The `fields` list types the columns.
        let declared: [String: FieldColumn.Kind] = [
            "esriFieldTypeOID": .integer, "esriFieldTypeInteger": .integer, "esriFieldTypeSmallInteger": .integer,
            "esriFieldTypeDouble": .double, "esriFieldTypeString": .string, "esriFieldTypeDate": .date,
        ]
        var seen = Set<String>()
        for f in tree.metadata["fields"]?.arrayValue ?? [] {
            // A field listed twice (us-ca-tuolumne-0 lists "usecode" as a double and as the OID)
            // takes its first declaration.
            guard let field = f["name"]?.stringValue, seen.insert(field).inserted,
                let kind = f["type"]?.stringValue.flatMap({ declared[$0] })
            else { continue }
            let column = try #require(columns.field(named: field))
            #expect(column.kind == kind || (column.kind == .empty && column.count == 0), "\(name) \(field)")
        }
        // The same features as a GeoJSON FeatureCollection.
        let geojson = try GeoJSON.encode(.featureCollection(tree.features.map(asLongitudeLatitude)))
        guard case .featureCollection(let features) = try GeoJSON.decodeDocument(geojson) else {
            Issue.record("not a collection")
            return
        }
        let geo = try GeoJSON.decodeColumns(geojson)
        #expect(geo.spatialReference == .wgs84)
        Self.expectSameRows(geo, features, "\(name).geojson")
    }

    @Test func gdalFilesReadAsTheTreeReaderReadsThem() throws {
        for name in [
            "esripoint", "esripolygon", "esrizpoint", "esrizmmultipoint", "esrihasmnozmultipoint",
            "esrijsonstartingwithfeaturesgeometry",
        ] {
            let options = EsriJSON.DecodingOptions(allowTrailingCommas: name == "esrizpoint")
            let text = try Fixtures.string("\(fixtureRoot)/gdal-esrijson/\(name).json")
            let tree = try EsriJSON.decodeFeatureSet(text, options: options)
            Self.expectSameRows(try EsriJSON.decodeColumns(text, options: options), tree.features, name)
        }
    }

    @Test func membersAfterTheFeaturesStillApply() throws {
        let text =
            #"{"features":[{"geometry":{"points":[[1,2,3,4]]},"attributes":{"d":1315958400000}}],"#
            + #""hasM":true,"hasZ":true,"spatialReference":{"wkid":3857},"fields":[{"name":"d","type":"esriFieldTypeDate"}]}"#
        let columns = try EsriJSON.decodeColumns(text)
        #expect(columns.geometry[0] == .multipoint(Multipoint(points: [Point(x: 1, y: 2, z: 3, m: 4)])))
        #expect(columns.spatialReference == .webMercator)
        #expect(columns.field(named: "d")?.kind == .date && columns.field(named: "d")?.doubles == [1_315_958_400_000])
    }

    @Test func typesFollowTheValues() throws {
        let text = """
            {"type":"FeatureCollection","features":[
            {"type":"Feature","geometry":null,"properties":{"i":1,"n":1,"s":"a","m":1,"b":true,"o":{"x":[1]},"big":9007199254740993}},
            {"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"i":2,"n":2.5,"s":null,"m":"one","dup":1,"dup":2,"big":0.5}},
            {"type":"Feature","properties":null,"geometry":{"type":"LineString","coordinates":[[0,0],[1,1]]}}]}
            """
        let c = try GeoJSON.decodeColumns(text)
        #expect(c.count == 3)
        #expect(c.geometry[0] == .point(nil) && c.geometry[1] == .point(Point(1, 2)))
        #expect(c.field(named: "i")?.kind == .integer && c.field(named: "i")?.integers == [1, 2, 0])
        #expect(
            c.field(named: "n")?.kind == .double && c.field(named: "n")?.doubles == [1, 2.5, 0],
            "an integer among doubles converts exactly")
        #expect(c.field(named: "big")?.kind == .boxed, "an integer past 2^53 cannot be a double")
        let s = try #require(c.field(named: "s"))
        #expect(s.kind == .string && s[0] == "a" && s.isNull(1) && s.isAbsent(2) && !s.isAbsent(1))
        #expect(c.field(named: "m")?.kind == .boxed && c.field(named: "m")?[1] == "one")
        #expect(c.field(named: "o")?[0] == .object(["x": [1]]))
        #expect(
            c.field(named: "dup")?[1] == .integer(2) && c.field(named: "dup")?.isAbsent(0) == true,
            "the last value of a repeated key wins")
        #expect(c.field(named: "b")?.kind == .bool && c.field(named: "b")?.isAbsent(1) == true)
    }

    @Test func errorsSayWhereAndWhatWasExpected() throws {
        func message(_ text: String, esri: Bool = false) -> String {
            do {
                _ = esri ? try EsriJSON.decodeColumns(text) : try GeoJSON.decodeColumns(text)
                return "no error"
            } catch {
                return "\(error)"
            }
        }
        #expect(
            message(
                #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[1,"x"]}}]}"#
            )
                == #"1:103: features[0].geometry.coordinates[1]: expected a number, found a string"#)
        #expect(
            message(#"{"type":"FeatureCollection","features":[{"type":"Feat"}]}"#)
                == #"1:49: features[0].type: expected a Feature, found "Feat""#)
        #expect(
            message(#"{"type":"Feature","features":[]}"#)
                == #"1:9: type: expected a FeatureCollection, found "Feature""#)
        #expect(message(#"{"features":[]}"#) == #"1:1: expected a "type" member: a GeoJSON FeatureCollection"#)
        #expect(
            message("{\"type\":\"FeatureCollection\",\n\"features\":[{\"properties\":{\"a\":1,}}]}")
                == "2:34: trailing comma before '}' is not allowed")
        #expect(
            message(
                #"{"type":"FeatureCollection","features":[{"geometry":{"type":"GeometryCollection","geometries":[]}}]}"#
            )
                == #"1:61: features[0].geometry.type: a GeometryCollection as a Feature's geometry is not supported"#)
        // Where both readers read the same thing, they say the same.
        for text in [
            #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[1,"x"]}}]}"#,
            #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Polygon","coordinates":[[[0,0],[1]]]}}]}"#,
            "{\"type\":\"FeatureCollection\",\n\"features\":[{\"type\":\"Feature\",\"geometry\":null,\"properties\":{\"a\":[1,]}}]}",
        ] {
            #expect(
                message(text)
                    == "\(String(describing: (try? GeoJSON.decodeDocument(text)).map { _ in "no error" } ?? treeError(text)))"
            )
        }
        #expect(
            message(#"{"type":"FeatureCollection","features":[]} x"#)
                == "1:44: expected end of input after the JSON value, found 'x'")
        #expect(
            message(#"{"fields":[],"features":[{"geometry":{"x":1}}]}"#, esri: true)
                == #"1:38: features[0].geometry: missing required field "y""#)
        #expect(message(#"{"hasZ":1,"features":[]}"#, esri: true) == "1:9: hasZ: expected a boolean, found a number")
        #expect(
            message(#"{"displayFieldName":"x"}"#, esri: true)
                == #"1:1: expected a "features" member: an Esri JSON FeatureSet"#)
        #expect(
            message("{\"features\":[{\"attributes\":{\"a\":\"unterminated}}]}", esri: true).contains(
                "unterminated string"))
    }

    func treeError(_ text: String) -> String {
        do {
            _ = try GeoJSON.decodeDocument(text)
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    @Test func filesAreMappedAndErrorsNameThem() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("feature-columns-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let good = dir.appendingPathComponent("good.geojson").path
        let bad = dir.appendingPathComponent("bad.geojson").path
        try
            #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"a":1}}]}"#
            .write(toFile: good, atomically: true, encoding: .utf8)
        try "{\"type\":\"FeatureCollection\",\n\"features\":[{\"type\":\"Feature\",\"properties\":{\"a\":tru}}]}"
            .write(toFile: bad, atomically: true, encoding: .utf8)
        #expect(try GeoJSON.decodeColumns(contentsOfFile: good).field(named: "a")?.integers == [1])
        #expect(throws: InputError(file: bad, line: 2, column: 49, message: "invalid literal, expected 'true'")) {
            try GeoJSON.decodeColumns(contentsOfFile: bad)
        }
        #expect(throws: InputError.self) {
            try EsriJSON.decodeColumns(contentsOfFile: dir.appendingPathComponent("missing.json").path)
        }
    }
}
