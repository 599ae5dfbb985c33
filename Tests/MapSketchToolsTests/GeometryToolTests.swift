import MapSketchGeometry
import MapSketchTools
import Testing

@Suite struct GeometryToolTests {
    @Test func simplifyRepairsABowTieInWKT() throws {
        let r = try GeometryTool(operation: .simplify).run("POLYGON ((0 0, 10 10, 10 0, 0 10, 0 0))", file: "t.wkt")
        #expect(r.exitCode == 0)
        let g = try WKT.decode(r.output)
        #expect(GeometryEngine.isValid(g))
        #expect(abs(GeometryEngine.area(g) - 50) < 1e-9, "two triangles of 25")
    }

    @Test func jsonLinesGiveOneResultPerLineInOrder() throws {
        let input = """
            {"x":1,"y":2,"spatialReference":{"wkid":4326}}

            {"x":-1,"y":-2,"spatialReference":{"wkid":4326}}
            """
        let r = try GeometryTool(operation: .convert, outputFormat: .wkt).run(input, file: "pts.jsonl")
        #expect(r.output == "POINT (1 2)\nPOINT (-1 -2)\n")
    }

    @Test func aPrettyPrintedGeometryIsReadWhole() throws {
        let input = """
            {
              "paths": [[[0, 0], [1, 1]]],
              "spatialReference": {"wkid": 4326}
            }
            """
        let r = try GeometryTool(operation: .convert, outputFormat: .geoJSON).run(input, file: "line.json")
        #expect(r.output == #"{"type":"LineString","coordinates":[[0,0],[1,1]]}"# + "\n")
    }

    @Test func badLineReportsFileLineAndColumn() {
        let input = "{\"x\":1,\"y\":2}\n{\"x\":1,\"y\":}\n"
        #expect(throws: GeometryToolError(
            file: "pts.jsonl", line: 2, column: 12,
            message: "expected a JSON value (object, array, string, number, true, false or null), found '}'")
        ) {
            try GeometryTool(operation: .convert).run(input, file: "pts.jsonl")
        }
    }

    @Test func nonFiniteCoordinatesAreRejected() {
        #expect(throws: GeometryToolError.self) {
            try GeometryTool(operation: .convert).run("POINT (1e400 2)", file: "p.wkt")
        }
        #expect(throws: GeometryToolError.self) {
            try GeometryTool(operation: .convert).run(#"{"x":"Infinity","y":2}"#, file: "p.json")
        }
    }

    @Test func validateReportsRulePartAndVertexAndFailsTheExitCode() throws {
        let r = try GeometryTool(operation: .validate).run("POLYGON ((0 0, 10 10, 10 0, 0 10, 0 0))", file: "t.wkt")
        #expect(r.exitCode == 1)
        #expect(r.output.hasPrefix(#"{"valid":false,"issues":[{"rule":"selfIntersection","part":0,"#))
        let ok = try GeometryTool(operation: .validate).run("POLYGON ((0 0, 0 10, 10 10, 10 0, 0 0))", file: "s.wkt")
        #expect(ok == GeometryTool.Result(output: "{\"valid\":true}\n", exitCode: 0))
    }

    @Test func projectNeedsASourceAndATarget() throws {
        #expect(throws: GeometryToolError(
            file: "p.wkt", line: 1, column: 1, message: "expected a spatial reference (in the input or --sr), found none")
        ) {
            try GeometryTool(operation: .project, targetSpatialReference: .webMercator).run("POINT (1 2)", file: "p.wkt")
        }
        let r = try GeometryTool(
            operation: .project, outputFormat: .esriJSON, assumedSpatialReference: .wgs84,
            targetSpatialReference: .webMercator
        ).run("POINT (0 0)", file: "p.wkt")
        #expect(r.output == #"{"x":0,"y":0,"spatialReference":{"wkid":102100,"latestWkid":3857}}"# + "\n")
    }

    @Test func normalizeSplitsAtTheAntimeridian() throws {
        let r = try GeometryTool(operation: .normalize, assumedSpatialReference: .wgs84)
            .run("LINESTRING (170 0, 190 10)", file: "l.wkt")
        #expect(r.output == "MULTILINESTRING ((170 0, 180 5), (-180 5, -170 10))\n")
    }

    @Test func emptyInputIsAnError() {
        #expect(throws: GeometryToolError.self) { try GeometryTool(operation: .convert).run("  \n", file: "e") }
    }

    // MARK: GeoJSON is WGS 84 (RFC 7946)

    @Test func srOnGeoJSONInputIsAnErrorNeverASilentNoOp() throws {
        let metres = #"{"type":"Point","coordinates":[1498048.03,6893118.10]}"#
        #expect(throws: GeometryToolError(
            file: "in.geojson", line: 1, column: 1,
            message: "--sr wkid:102100 does not apply to GeoJSON input: GeoJSON coordinates are WGS 84 longitude/latitude (RFC 7946); remove --sr, or give the input as Esri JSON or WKT")
        ) {
            try GeometryTool(operation: .project, assumedSpatialReference: .webMercator, targetSpatialReference: .wgs84).run(metres, file: "in.geojson")
        }
        // --sr 4326 says what GeoJSON already is: accepted.
        let same = try GeometryTool(operation: .convert, assumedSpatialReference: .wgs84).run(#"{"type":"Point","coordinates":[13.45,52.51]}"#, file: "in.geojson")
        #expect(same.output == #"{"type":"Point","coordinates":[13.45,52.51]}"# + "\n")
        // Esri JSON that states its spatial reference: --sr must agree.
        #expect(throws: GeometryToolError.self) {
            try GeometryTool(operation: .convert, assumedSpatialReference: .webMercator).run(#"{"x":1,"y":2,"spatialReference":{"wkid":4326}}"#, file: "e.json")
        }
    }

    @Test func geoJSONOutputIsProjectedToWGS84() throws {
        // Esri JSON in Web Mercator written as GeoJSON: longitude/latitude, not meters.
        let esri = #"{"x":1497247.1511695294,"y":6892870.55449914,"spatialReference":{"wkid":3857}}"#
        let r = try GeometryTool(operation: .convert, outputFormat: .geoJSON).run(esri, file: "e.json")
        let p = try #require(try GeoJSON.decode(r.output).geometry.parts.first?.first)
        #expect(abs(p.x - 13.45) < 1e-9 && abs(p.y - 52.51) < 1e-9)
        // WKT with --sr 3857 likewise; without --sr, meters cannot be GeoJSON.
        let wkt = try GeometryTool(operation: .convert, outputFormat: .geoJSON, assumedSpatialReference: .webMercator).run("POINT (1497247.1511695294 6892870.55449914)", file: "p.wkt")
        #expect(wkt.output == r.output)
        #expect(throws: GeometryToolError.self) {
            try GeometryTool(operation: .convert, outputFormat: .geoJSON).run("POINT (1497247 6892870)", file: "p.wkt")
        }
        #expect(try GeometryTool(operation: .convert, outputFormat: .geoJSON).run("POINT (13.45 52.51)", file: "p.wkt").output == #"{"type":"Point","coordinates":[13.45,52.51]}"# + "\n")
    }

    @Test func projectingGeoJSONToAnotherSpatialReferenceNeedsAnotherFormat() throws {
        let lonLat = #"{"type":"Point","coordinates":[13.45,52.51]}"#
        #expect(throws: GeometryToolError.self) {
            try GeometryTool(operation: .project, targetSpatialReference: .webMercator).run(lonLat, file: "in.geojson")
        }
        let esri = try GeometryTool(operation: .project, outputFormat: .esriJSON, targetSpatialReference: .webMercator).run(lonLat, file: "in.geojson")
        #expect(esri.output.contains(#""spatialReference":{"wkid":102100,"latestWkid":3857}"#))
        #expect(!esri.output.contains("13.45"))
        // Projecting to what it already is gives it back.
        #expect(try GeometryTool(operation: .project, targetSpatialReference: .wgs84).run(lonLat, file: "in.geojson").output == lonLat + "\n")
    }
}
