import MapSketchGeometry
import MapSketchGeometryTool
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

    /// The fidelity issue: `validate` said "at vertex 0 (5.0 5.0)" where segments 0 and 2 cross
    /// at (5 5); it names both segments and the crossing point, in the message and as fields.
    @Test func validateNamesBothSegmentsAndTheCrossing() throws {
        let r = try GeometryTool(operation: .validate).run("POLYGON ((0 0, 10 10, 10 0, 0 10, 0 0))", file: "t.wkt")
        #expect(
            r.output == #"{"valid":false,"issues":[{"rule":"selfIntersection","part":0,"vertex":0,"segments":[{"part":0,"segment":0},{"part":0,"segment":2}],"at":[5,5],"message":"selfIntersection: segment 0 of part 0 crosses segment 2 of part 0 at (5 5)"}]}"# + "\n")
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

    /// Hardening reproducers 1 and 2 through the tool: a point at 1e300 folds instead of
    /// trapping; a segment spanning 1e20 degrees is refused with file:line:column.
    @Test func normalizeFoldsFarPointsAndRefusesWorldWideSegments() throws {
        let r = try GeometryTool(operation: .normalize, assumedSpatialReference: .wgs84).run(#"{"x":1e300,"y":0}"#, file: "p.json")
        #expect(r.output == #"{"x":0,"y":0,"spatialReference":{"wkid":4326}}"# + "\n")
        let m = try GeometryTool(operation: .normalize, assumedSpatialReference: .webMercator).run(#"{"x":4e26,"y":0}"#, file: "p.json")
        #expect(m.output.hasPrefix(#"{"x":10179152.908760257,"y":0,"#))
        #expect(throws: GeometryToolError(
            file: "l.wkt", line: 2, column: 1,
            message: "normalizeCentralMeridian: part 0 vertex 0: expected a segment at most one world width (360) wide in x, found one spanning 100000000 (it wraps the whole world)")
        ) {
            try GeometryTool(operation: .normalize, assumedSpatialReference: .wgs84).run("POINT (1 2)\nLINESTRING (0 0, 1e8 0)\n", file: "l.wkt")
        }
    }

    /// Hardening reproducer 10 through the tool: longitude 1e308 printed `Inf` with exit 0, and
    /// latitude 95 was clamped to the pole; both are input errors now.
    @Test func projectRefusesVerticesOutsideTheDomain() {
        let tool = GeometryTool(operation: .project, assumedSpatialReference: .wgs84, targetSpatialReference: .webMercator)
        #expect(throws: GeometryToolError(
            file: "p.wkt", line: 1, column: 1,
            message: "project: part 0 vertex 0: expected a finite longitude whose Web Mercator x is finite (|longitude| below about 1.6e303), found longitude 1e+308")
        ) {
            try tool.run("POINT (1e308 0)", file: "p.wkt")
        }
        #expect(throws: GeometryToolError(
            file: "l.json", line: 1, column: 1,
            message: "project: part 0 vertex 1: expected a latitude within -90…90, found latitude 95")
        ) {
            try tool.run(#"{"paths":[[[0,0],[10,95]]]}"#, file: "l.json")
        }
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
        // Numbers that fit longitude/latitude are not taken for them: --sr says what they are.
        #expect(
            throws: GeometryToolError(
                file: "p.wkt", line: 1, column: 1,
                message: "GeoJSON output is WGS 84 longitude/latitude (RFC 7946), and the input states no spatial reference: give --sr 4326 if its coordinates are longitudes and latitudes, or the WKID they are in (--sr 3857 for Web Mercator meters) to project them")
        ) {
            try GeometryTool(operation: .convert, outputFormat: .geoJSON).run("POINT (13.45 52.51)", file: "p.wkt")
        }
        let degrees = try GeometryTool(operation: .convert, outputFormat: .geoJSON, assumedSpatialReference: .wgs84).run("POINT (13.45 52.51)", file: "p.wkt")
        #expect(degrees.output == #"{"type":"Point","coordinates":[13.45,52.51]}"# + "\n")
        // The issue's case: `replay --format wkt` output in Web Mercator meters, 50 m east of the
        // origin, was written as the point at 50° east; with --sr 3857 it is projected.
        let fifty = try GeometryTool(operation: .convert, outputFormat: .geoJSON, assumedSpatialReference: .webMercator).run("LINESTRING (50 0, 0 0)", file: "r.wkt")
        #expect(fifty.output == #"{"type":"LineString","coordinates":[[0.00044915764205976077,0],[0,0]]}"# + "\n")
        #expect(throws: GeometryToolError.self) {
            try GeometryTool(operation: .convert, outputFormat: .geoJSON).run("LINESTRING (50 0, 0 0)", file: "r.wkt")
        }
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

/// The tool reading a stream: geometries cut where they end, results written as they are made,
/// reading stopped at the first byte no geometry can hold.
@Suite struct GeometryToolStreamingTests {
    /// Feeds `chunks` one per read and records reads and writes in order.
    final class Recorder {
        var events: [String] = []
        var chunks: [[UInt8]]
        var bytesRead = 0
        init(_ chunks: [String]) { self.chunks = chunks.map { Array($0.utf8) } }

        func read(_ buffer: UnsafeMutableRawBufferPointer) -> Int {
            guard !chunks.isEmpty else { return 0 }
            let c = chunks.removeFirst()
            precondition(c.count <= buffer.count)
            c.withUnsafeBytes { buffer.copyMemory(from: $0) }
            events.append("read")
            bytesRead += c.count
            return c.count
        }
    }

    @Test func resultsAreWrittenAsGeometriesEnd() throws {
        let r = Recorder(["{\"x\":1,\"y\":2}\n{\"x\":3,", "\"y\":4}\nPOINT", " (5 6)\n"])
        var out: [String] = []
        let code = try GeometryTool(operation: .convert, outputFormat: .wkt).run(
            file: "s", read: r.read, write: { r.events.append("write"); out.append($0) })
        #expect(code == 0)
        #expect(out == ["POINT (1 2)", "\n", "POINT (3 4)", "\n", "POINT (5 6)", "\n"])
        #expect(r.events == ["read", "write", "write", "read", "write", "write", "read", "write", "write"])
    }

    /// Hardening reproducer 7: `geometry convert < /dev/zero` read all of stdin first (3.7 GB in
    /// 8 s). A NUL cannot start a geometry: the error is at 1:1 after the first chunk.
    @Test func anEndlessStreamOfNULsStopsAtTheFirstByte() throws {
        var reads = 0
        #expect(throws: GeometryToolError(
            file: "<stdin>", line: 1, column: 1,
            message: #"expected a geometry keyword (POINT, LINESTRING, POLYGON, …), found '\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000…'"#)
        ) {
            try GeometryTool(operation: .convert).run(
                file: "<stdin>",
                read: { buffer in
                    reads += 1
                    buffer.initializeMemory(as: UInt8.self, repeating: 0)
                    return buffer.count
                },
                write: { _ in })
        }
        #expect(reads == 1)
    }

    /// Other endless inputs stop as early: a word longer than any WKT keyword, nesting past 512,
    /// a control character in a JSON string, a byte outside JSON and WKT.
    @Test func endlessHostileStreamsStopEarly() throws {
        let cases: [(String, Int, Int, String)] = [
            ("x", 1, 1, "expected a geometry keyword (POINT, LINESTRING, POLYGON, …), found 'XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX…'"),
            ("[", 1, 513, "nesting deeper than 512 levels"),
            ("POINT (", 1, 8, "expected a number, found 'POINT'"),
        ]
        for (unit, line, column, message) in cases {
            var reads = 0
            let pattern = Array(unit.utf8)
            do {
                _ = try GeometryTool(operation: .convert).run(
                    file: "f",
                    read: { buffer in
                        reads += 1
                        for k in 0..<buffer.count { buffer[k] = pattern[k % pattern.count] }
                        return buffer.count - buffer.count % pattern.count
                    },
                    write: { _ in })
                Issue.record("\(unit): no error")
            } catch let e as GeometryToolError {
                #expect(e == GeometryToolError(file: "f", line: line, column: column, message: message), "\(unit)")
            }
            #expect(reads == 1, "\(unit): read \(reads) chunks")
        }
        #expect(throws: GeometryToolError(file: "f", line: 1, column: 7, message: "unescaped control character U+0000 in string")) {
            try GeometryTool(operation: .convert).run("{\"x\":\"\u{0}\",\"y\":1}", file: "f")
        }
        #expect(throws: GeometryToolError(file: "f", line: 2, column: 1, message: "expected a geometry keyword (POINT, LINESTRING, POLYGON, …), found '<gpx>'")) {
            try GeometryTool(operation: .convert).run("POINT (1 2)\n<gpx>\n", file: "f")
        }
    }

    /// Hardening reproducer 8: Windows line ends in JSON Lines and multi-line WKT, and a
    /// byte-order mark before WKT, read as Unix text does, with the right positions.
    @Test func windowsLineEndsAndAByteOrderMarkReadAsUnixText() throws {
        let tool = GeometryTool(operation: .convert, outputFormat: .wkt)
        #expect(try tool.run("{\"x\":1,\"y\":2}\r\n{\"x\":3,\"y\":4}\r\n", file: "f").output == "POINT (1 2)\nPOINT (3 4)\n")
        #expect(try tool.run("POLYGON ((0 0,\r\n 0 1, 1 1,\r\n 0 0))\r\nPOINT (1 2)\r\n", file: "f").output
            == "POLYGON ((0 0, 0 1, 1 1, 0 0))\nPOINT (1 2)\n")
        #expect(try tool.run("\u{FEFF}POINT (1 2)\r\n", file: "f").output == "POINT (1 2)\n")
        #expect(throws: GeometryToolError(file: "f", line: 3, column: 12, message: "y: expected a number, found a string")) {
            try tool.run("{\"x\":1,\"y\":2}\r\n\r\n{\"x\":1,\"y\":\"2\"}\r\n", file: "f")
        }
        #expect(throws: GeometryToolError(file: "f", line: 3, column: 4, message: "expected a number, found 'x'")) {
            try tool.run("POLYGON ((0 0,\r\n 0 1,\r\n 1 x, 0 0))\r\n", file: "f")
        }
    }

    @Test func geometriesMaySpanLinesAndStartAnywhereOnTheirLine() throws {
        let tool = GeometryTool(operation: .convert, outputFormat: .wkt)
        let input = "{\n  \"x\": 1,\n  \"y\": 2\n}\n\t  POINT (3 4)\nLINESTRING (0 0,\n 1 1)\n"
        #expect(try tool.run(input, file: "f").output == "POINT (1 2)\nPOINT (3 4)\nLINESTRING (0 0, 1 1)\n")
        #expect(throws: GeometryToolError(file: "f", line: 2, column: 15, message: "y: expected a number, found a string")) {
            try tool.run("POINT (0 0)\n   {\"x\":1,\"y\":\"2\"}", file: "f")
        }
        #expect(throws: GeometryToolError(file: "f", line: 1, column: 14, message: "expected end of input after the JSON value, found '{'")) {
            try tool.run("{\"x\":1,\"y\":2}{\"x\":1,\"y\":2}\n", file: "f")
        }
        #expect(throws: GeometryToolError(file: "f", line: 2, column: 1, message: "part 0 vertex 1: expected finite coordinates, found (inf 2.0)")) {
            try tool.run("POINT (1 2)\nLINESTRING (0 0, 1e400 2)", file: "f")
        }
    }
}
