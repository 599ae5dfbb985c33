import MapSketchGeometry
import MapSketchTestSupport
import Testing

@testable import MapSketchTools

/// `geometry convert` of big multipoints and polylines reads coordinates into flat storage: the
/// output must be byte for byte that of the general path (JSON tree, `Point`s, the codecs'
/// encoders), and everything the flat path does not take must still go the general way.
@Suite struct FlatConvertTests {
    /// The tool with the flat path for every size (`flat`) or for none.
    func tool(_ out: GeometryFormat?, flat: Bool, input: GeometryFormat? = nil, sr: Int? = nil) -> GeometryTool {
        var t = GeometryTool(
            operation: .convert, inputFormat: input, outputFormat: out, assumedSpatialReference: sr.map { SpatialReference(wkid: $0) })
        t.flatThreshold = flat ? 0 : Int.max
        return t
    }

    /// Output of both paths, or their errors.
    func both(_ text: String, _ out: GeometryFormat?, input: GeometryFormat? = nil, sr: Int? = nil) -> (String, String) {
        func run(_ flat: Bool) -> String {
            do { return try tool(out, flat: flat, input: input, sr: sr).run(text, file: "in.json").output } catch { return "error: \(error)" }
        }
        return (run(true), run(false))
    }

    /// A random coordinate: integers, decimals, tiny and huge magnitudes, negative zero.
    func coordinate(_ r: inout SeededRandom, lonLat: Bool) -> Double {
        switch r.int(in: 0...9) {
        case 0: return Double(r.int(in: -180...180))
        case 1: return lonLat ? -0.0 : r.double(in: -1e300...1e300)
        case 2: return lonLat ? r.double(in: -1e-5...1e-5) : r.double(in: -1e-300...1e-300)
        case 3: return (r.double(in: -179...179) * 1e7).rounded() / 1e7
        default: return r.double(in: lonLat ? -179.9...179.9 : -2e7...2e7)
        }
    }

    func randomGeometry(_ r: inout SeededRandom, lonLat: Bool) -> Geometry {
        let partCount = r.int(in: 0...3)
        var parts: [[Point]] = []
        for _ in 0..<partCount {
            let n = r.int(in: 1...40)
            parts.append((0..<n).map { _ in Point(coordinate(&r, lonLat: lonLat), lonLat ? coordinate(&r, lonLat: true) / 2 : coordinate(&r, lonLat: false)) })
        }
        if r.int(in: 0...2) == 0 { return .multipoint(Multipoint(points: parts.first ?? [])) }
        return .polyline(Polyline(paths: parts))
    }

    /// The `k`-th random geometry (longitude/latitude for even `k`) and its texts: Esri JSON,
    /// and GeoJSON when in longitude/latitude.
    func randomInputs(_ r: inout SeededRandom, _ k: Int) -> (Geometry, [String]) {
        let lonLat = k % 2 == 0
        let g = randomGeometry(&r, lonLat: lonLat)
        let sr: SpatialReference? = lonLat ? .wgs84 : (k % 4 == 1 ? SpatialReference(wkid: 3857) : nil)
        let inputs = [
            EsriJSON.encode(SpatialGeometry(g, spatialReference: sr)),
            lonLat ? GeoJSON.encode(SpatialGeometry(g, spatialReference: .wgs84)) : nil,
        ].compactMap { $0 }
        return (g, inputs)
    }

    @Test func randomLinesAndPointsConvertByteIdenticallyToEveryFormat() throws {
        var r = SeededRandom(seed: 12)
        var flatTaken = 0
        for k in 0..<400 {
            let (g, inputs) = randomInputs(&r, k)
            for text in inputs {
                Array(text.utf8).withUnsafeBufferPointer { buf in
                    guard let flat = FlatLineGeometry.decode(buf, format: nil) else { return }
                    flatTaken += 1
                    #expect(flat.geometry(in: buf) == g, "\(text)")
                    #expect(flat.vertexCount == g.pointCount)
                }
                for out in [nil, GeometryFormat.esriJSON, .geoJSON, .wkt] {
                    let (flat, general) = both(text, out)
                    #expect(flat == general, "\(text) → \(String(describing: out))")
                }
            }
        }
        // Most inputs take the flat path (empty parts and empty multipoints in GeoJSON do not).
        #expect(flatTaken > 500)
    }

    @Test func otherOperationsGiveTheSameOutputFromTheFlatReader() throws {
        // simplify, normalize, project and validate read big lines and multipoints without the
        // JSON tree: their output and errors must be those of the general path.
        var r = SeededRandom(seed: 31)
        var flatTaken = 0
        let operations: [(GeometryTool.Operation, GeometryFormat?, SpatialReference?)] = [
            (.simplify, nil, nil), (.normalize, nil, nil), (.project, .esriJSON, SpatialReference(wkid: 3857)),
            (.project, .wkt, .wgs84), (.validate, nil, nil),
        ]
        for k in 0..<160 {
            let (_, inputs) = randomInputs(&r, k)
            for text in inputs {
                if Array(text.utf8).withUnsafeBufferPointer({ FlatLineGeometry.decode($0, format: nil) }) != nil { flatTaken += 1 }
                for (operation, out, to) in operations {
                    func run(_ flat: Bool) -> String {
                        var t = GeometryTool(operation: operation, outputFormat: out, targetSpatialReference: to)
                        t.flatThreshold = flat ? 0 : Int.max
                        do {
                            let result = try t.run(text, file: "in.json")
                            return "\(result.exitCode) \(result.output)"
                        } catch { return "error: \(error)" }
                    }
                    #expect(run(true) == run(false), "\(operation) \(text)")
                }
            }
        }
        #expect(flatTaken > 200)
    }

    @Test func shapesTheFlatPathDoesNotTakeGoTheGeneralWay() throws {
        let cases = [
            #"{"type":"LineString","coordinates":[[1,2,3],[4,5,6]]}"#,  // z
            #"{"paths":[[[1,2,null],[3,4,null]]],"hasZ":true}"#,
            #"{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}"#,
            #"{"rings":[[[0,0],[1,0],[1,1],[0,0]]]}"#,
            #"{"type":"LineString","coordinates":[[1,2],[3,4]],"bbox":[1,2,3,4]}"#,
            #"{"type":"LineString","crs":{"type":"name","properties":{"name":"EPSG:3857"}},"coordinates":[[1,2],[3,4]]}"#,
            #"{"paths":[[[1,2],[3,4]]],"paths":[[[5,6],[7,8]]]}"#,  // repeated key: the last wins
            #"{"type":"MultiLineString","coordinates":[[],[[1,2],[3,4]]]}"#,
        ]
        for text in cases {
            #expect(Array(text.utf8).withUnsafeBufferPointer { FlatLineGeometry.decode($0, format: nil) } == nil, "\(text)")
            for out in [nil, GeometryFormat.esriJSON, .geoJSON, .wkt] {
                let (flat, general) = both(text, out)
                #expect(flat == general, "\(text)")
            }
        }
    }

    @Test func errorsAreTheGeneralPathsWithTheirLocations() throws {
        let cases: [(String, String)] = [
            (#"{"type":"LineString","coordinates":[[1,2],[3,"x"]]}"#, "in.json:1:46:"),
            ("{\"paths\":[[[1,2],\n[3,4],\n[5 6]]]}", "in.json:3:4:"),
            (#"{"paths":[[[1,2],[3,1e999]]]}"#, "in.json:1"),
            (#"{"type":"LineString","coordinates":[[1,2],[3,4]]"#, "in.json:1"),
            (#"{"type":"Linestring","coordinates":[[1,2],[3,4]]}"#, "unknown geometry type"),
        ]
        for (text, expected) in cases {
            let (flat, general) = both(text, .wkt)
            #expect(flat == general, "\(text)")
            #expect(flat.hasPrefix("error: ") && flat.contains(expected), "\(text): \(flat)")
        }
        // --sr contradicting the input's own is the same error on both paths.
        let (flat, general) = both(#"{"paths":[[[1,2],[3,4]]],"spatialReference":{"wkid":4326}}"#, nil, sr: 3857)
        #expect(flat == general && flat.contains("contradicts"), "\(flat)")
        // GeoJSON output of a Web Mercator line needs a projection: the general path does it.
        let (projectedFlat, projectedGeneral) = both(#"{"paths":[[[0,0],[111319.49079327357,0]]],"spatialReference":{"wkid":3857}}"#, .geoJSON)
        #expect(projectedFlat == projectedGeneral && projectedFlat.contains("[1,0]"), "\(projectedFlat)")
    }

    @Test func aBigLineRoundTripsThroughEveryFormatByteIdentically() throws {
        var r = SeededRandom(seed: 7)
        let n = 60_000
        var text = #"{"type":"LineString","coordinates":["#
        for k in 0..<n {
            if k > 0 { text += "," }
            text += "[\(JSONWriter.format((r.double(in: -179...179) * 1e7).rounded() / 1e7)),\(JSONWriter.format((r.double(in: -89...89) * 1e7).rounded() / 1e7))]"
        }
        text += "]}"
        let defaultTool = GeometryTool(operation: .convert)
        #expect(defaultTool.flatThreshold <= text.utf8.count, "a line this size takes the flat path by default")
        let geoJSON = try defaultTool.run(text + "\n", file: "big.json").output
        #expect(geoJSON == text + "\n")
        for out in [GeometryFormat.esriJSON, .wkt] {
            let converted = try GeometryTool(operation: .convert, outputFormat: out).run(text, file: "big.json").output
            let (_, general) = both(text, out)
            #expect(converted == general)
            let back = try GeometryTool(operation: .convert, outputFormat: .geoJSON).run(converted, file: "big").output
            #expect(back == text + "\n")
        }
    }

    /// Seeded mutants of flat-path inputs (bytes replaced, inserted, deleted): whatever each
    /// becomes — another valid geometry, another shape, an error — both paths print the same.
    @Test func mutantsGiveTheSameOutputOrErrorOnBothPaths() throws {
        let seeds = [
            #"{"type":"LineString","coordinates":[[1.5,-2],[3e2,4.25],[-0.0,1E-3]]}"#,
            #"{"type":"MultiLineString","coordinates":[[[1,2],[3,4]],[[5,6],[7,8],[9,10]]]}"#,
            #"{"type":"MultiPoint","coordinates":[[10,20],[30,40]]}"#,
            #"{"paths":[[[1,2],[3,4]],[[5,6],[7,8]]],"spatialReference":{"wkid":3857},"hasZ":false}"#,
            #"{"points":[[1,2],[3,4]],"spatialReference":{"wkid":4326}}"#,
        ]
        let alphabet = Array("0123456789-+.eE[],: \n\t\"{}ntrufalsx".utf8)
        var r = SeededRandom(seed: 1212)
        var flatTaken = 0
        for k in 0..<1500 {
            var bytes = Array(seeds[k % seeds.count].utf8)
            for _ in 0...r.int(in: 0...2) {
                let at = r.int(in: 0...(bytes.count - 1))
                let b = alphabet[r.int(in: 0...(alphabet.count - 1))]
                switch r.int(in: 0...4) {
                case 3, 4:  // a digit for a digit: mostly still a flat shape, with other numbers
                    if let d = bytes[at...].firstIndex(where: { (0x30...0x39).contains($0) }) {
                        bytes[d] = UInt8(0x30 + r.int(in: 0...9))
                    }
                case 0: bytes[at] = b
                case 1: bytes.insert(b, at: at)
                default: bytes.remove(at: at)
                }
            }
            let text = String(decoding: bytes, as: UTF8.self)
            if bytes.withUnsafeBufferPointer({ FlatLineGeometry.decode($0, format: nil) }) != nil { flatTaken += 1 }
            for out in [nil, GeometryFormat.wkt] {
                let (flat, general) = both(text, out)
                #expect(flat == general, "\(text)")
            }
        }
        #expect(flatTaken > 150, "mutants that are still flat shapes")
    }
}
