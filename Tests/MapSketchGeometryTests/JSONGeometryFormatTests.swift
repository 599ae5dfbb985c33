import MapSketchGeometry
import Testing

@Suite("GeometryFormat front door")
struct GeometryFormatTests {
    @Test(arguments: [
        (#"{"type":"Point","coordinates":[1,2]}"#, GeometryFormat.geoJSON),
        (#"{"type":"FeatureCollection","features":[]}"#, .geoJSON),
        (#"{"x":1,"y":2}"#, .esriJSON),
        (#"{"points":[[1,2]]}"#, .esriJSON),
        (#"{"paths":[]}"#, .esriJSON),
        (#"{"rings":[],"spatialReference":{"wkid":4326}}"#, .esriJSON),
        (#"{"xmin":0,"ymin":0,"xmax":1,"ymax":1}"#, .esriJSON),
        (#"{"features":[{"geometry":{"x":1,"y":2}}]}"#, .esriJSON),
        (#"[{"paths":[]}]"#, .esriJSON),
        (#"{"type":"Point","coordinates":[1,2],}"#, .geoJSON),
        ("POINT (1 2)", .wkt),
        ("  \n polygon EMPTY", .wkt),
        ("", .wkt),
    ])
    func detects(text: String, format: GeometryFormat) {
        #expect(GeometryFormat.detect(text) == format)
    }

    @Test func decodesAndEncodesThroughEveryFormat() throws {
        let g = SpatialGeometry(.polyline(Polyline(paths: [[Point(0, 0), Point(1.5, 2)]])), spatialReference: .wgs84)
        for format in GeometryFormat.allCases {
            let text = try format.encode(g)
            #expect(GeometryFormat.detect(text) == format, "\(format): \(text)")
            // WKT carries no spatial reference.
            let expected = format == .wkt ? SpatialGeometry(g.geometry) : g
            #expect(try format.decode(text) == expected, "\(format)")
        }
        #expect(try GeometryFormat.wkt.encode(g) == "LINESTRING (0 0, 1.5 2)")
        #expect(try GeometryFormat.esriJSON.encode(g) == #"{"paths":[[[0,0],[1.5,2]]],"spatialReference":{"wkid":4326}}"#)
        #expect(try GeometryFormat.geoJSON.encode(g) == #"{"type":"LineString","coordinates":[[0,0],[1.5,2]]}"#)
    }

    @Test func convertsBetweenFormats() throws {
        let esri =
            #"{"rings":[[[0,0],[0,10],[10,10],[10,0],[0,0]],[[2,2],[4,2],[4,4],[2,4],[2,2]]],"spatialReference":{"wkid":4326}}"#
        let g = try GeometryFormat.detect(esri).decode(esri)
        let geo = try GeometryFormat.geoJSON.encode(g)
        #expect(
            geo
                == #"{"type":"Polygon","coordinates":[[[0,0],[10,0],[10,10],[0,10],[0,0]],[[2,2],[2,4],[4,4],[4,2],[2,2]]]}"#
        )
        #expect(try GeometryFormat.esriJSON.encode(try GeometryFormat.geoJSON.decode(geo)) == esri)
    }

    /// WKT states no spatial reference: GeoJSON output needs one (its numbers are not taken for
    /// degrees because they fit); stated WGS 84, they are written as they are.
    @Test func convertsWKTToTheJSONFormats() throws {
        let g = try GeometryFormat.wkt.decode("POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0), (2 2, 2 4, 4 4, 4 2, 2 2))")
        #expect(throws: GeoJSONOutputError.noSpatialReference) { try GeometryFormat.geoJSON.encode(g) }
        #expect(
            try GeometryFormat.geoJSON.encode(SpatialGeometry(g.geometry, spatialReference: .wgs84))
                == #"{"type":"Polygon","coordinates":[[[0,0],[10,0],[10,10],[0,10],[0,0]],[[2,2],[2,4],[4,4],[4,2],[2,2]]]}"#
        )
        #expect(
            try GeometryFormat.esriJSON.encode(g)
                == #"{"rings":[[[0,0],[0,10],[10,10],[10,0],[0,0]],[[2,2],[4,2],[4,4],[2,4],[2,2]]]}"#)
    }

    @Test func decodesLines() throws {
        let esri = "\u{FEFF}{\"x\":1,\"y\":2}\r\n\n  \n{\"paths\":[[[0,0],[1,1]]]}\n"
        #expect(try GeometryFormat.esriJSON.decodeLines(esri).map(\.geometry.type) == [.point, .polyline])
        let geo = "{\"type\":\"Point\",\"coordinates\":[1,2]}\n{\"type\":\"Point\",\"coordinates\":[1,\"x\"]}"
        #expect(
            throws: JSONError(
                "expected a number, found a string", path: [.key("coordinates"), .index(1)], line: 2, column: 34)
        ) {
            try GeometryFormat.geoJSON.decodeLines(geo)
        }
        let wkt = "POINT (1 2)\n\nLINESTRING (0 0, 1 1)\nPOINT (1 x)"
        do {
            _ = try GeometryFormat.wkt.decodeLines(wkt)
            Issue.record("expected an error")
        } catch let e as WKTError {
            #expect(e.line == 4)
        }
        #expect(try GeometryFormat.wkt.decodeLines("POINT (1 2)\nLINESTRING (0 0, 1 1)").count == 2)
    }

    @Test func errorsComeThrough() {
        #expect(throws: JSONError("expected a number, found a string", path: [.key("y")], line: 1, column: 12)) {
            try GeometryFormat.esriJSON.decode(#"{"x":1,"y":"2"}"#)
        }
    }

    /// Hardening reproducer 8: consecutive Windows line ends split JSON Lines (and WKT lines)
    /// as Unix ones do; before, `a\r\nb\r\n` was one line and failed at line 2 column 1.
    @Test func crlfLinesSplitLikeUnixLines() throws {
        let esri = "\u{FEFF}{\"x\":1,\"y\":2}\r\n{\"x\":3,\"y\":4}\r\n\r\n{\"paths\":[[[0,0],[1,1]]]}\r\n"
        #expect(try GeometryFormat.esriJSON.decodeLines(esri).map(\.geometry.type) == [.point, .point, .polyline])
        #expect(try GeometryFormat.wkt.decodeLines("POINT (1 2)\r\nPOINT (3 4)\r\n").count == 2)
        #expect(throws: JSONError("expected a number, found a string", path: [.key("y")], line: 3, column: 12)) {
            try GeometryFormat.esriJSON.decodeLines("{\"x\":1,\"y\":2}\r\n\r\n{\"x\":1,\"y\":\"2\"}\r\n")
        }
        do {
            _ = try GeometryFormat.wkt.decodeLines("POINT (1 2)\r\nPOINT (1 x)\r\n")
            Issue.record("expected an error")
        } catch let e as WKTError {
            #expect(e.line == 2 && e.column == 10)
        }
    }

    /// Hardening item 13: strings quoted from JSON input are escaped and cut short.
    @Test func quotedStringsAreEscapedAndShort() {
        let esc = #"{"type":"\u001b[2JCircle","coordinates":[1,2]}"#
        #expect(throws: JSONError(
            "unknown geometry type \"\\u001B[2JCircle\": expected Point, MultiPoint, LineString, MultiLineString, Polygon or MultiPolygon",
            path: [.key("type")], line: 1, column: 9)
        ) {
            try GeometryFormat.geoJSON.decode(esc)
        }
        let long = #"{"type":""# + String(repeating: "A", count: 100_000) + #"","coordinates":[1,2]}"#
        do {
            _ = try GeometryFormat.geoJSON.decode(long)
            Issue.record("expected an error")
        } catch let e as JSONError {
            #expect(e.message.hasPrefix("unknown geometry type \"" + String(repeating: "A", count: 40) + "…\": expected"))
            #expect(e.message.count < 200)
        } catch {
            Issue.record("\(error)")
        }
    }
}
