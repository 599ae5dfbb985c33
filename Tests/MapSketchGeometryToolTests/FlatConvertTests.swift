import MapSketchGeometry
import MapSketchTestSupport
import Testing

@testable import MapSketchGeometryTool

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
            lonLat ? GeoJSON.encode(wgs84: g) : nil,
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

    /// A random vertex sequence rich in what the operations treat specially: exact repeats,
    /// near repeats (closer than `near`, or the next double), earlier vertices again (multipoint
    /// duplicates), −0, and coordinates from `x` and `y`.
    func specialPart(_ r: inout SeededRandom, n: Int, near: Double, x: ClosedRange<Double>, y: ClosedRange<Double>) -> [Point] {
        var pts: [Point] = []
        for _ in 0..<n {
            switch (pts.last, r.int(in: 0...9)) {
            case (let p?, 0): pts.append(p)
            case (let p?, 1): pts.append(Point(p.x + near * r.double(in: -0.9...0.9), p.y + near * r.double(in: -0.9...0.9)))
            case (let p?, 2): pts.append(Point(p.x.nextUp, p.y))
            case (_?, 3): pts.append(pts[r.int(in: 0...(pts.count - 1))])
            case (_, 4): pts.append(Point(-0.0, 0))
            default: pts.append(Point(r.double(in: x), r.double(in: y)))
            }
        }
        return pts
    }

    /// The `k`-th input of the operations test: a multipoint or polyline in one of three
    /// coordinate kinds — longitude/latitude crossing the antimeridian, Web Mercator meters
    /// crossing it, or wild values (latitudes beyond ±90, huge longitudes) — with zero-length
    /// and one-vertex parts, as Esri JSON (with one of several spatial references, or none) and
    /// GeoJSON, some indented or after another geometry so the big one is not at 1:1.
    func operationInputs(_ r: inout SeededRandom, _ k: Int) -> [String] {
        let kind = k % 3
        let (x, y, near): (ClosedRange<Double>, ClosedRange<Double>, Double) =
            switch kind {
            case 0: (150...210, -80...80, SpatialReference.wgs84.xyTolerance)
            case 1: (1.9e7...2.1e7, -2e7...2e7, 0.001)
            default: (-1e306...1e306, -100...100, 0.001)
            }
        let g: Geometry
        if r.int(in: 0...2) == 0 {
            g = .multipoint(Multipoint(points: specialPart(&r, n: r.int(in: 0...60), near: near, x: x, y: y)))
        } else {
            g = .polyline(
                Polyline(
                    paths: (0..<r.int(in: 0...4)).map { _ in
                        switch r.int(in: 0...5) {
                        case 0: Array(repeating: Point(r.double(in: x), r.double(in: y)), count: r.int(in: 1...3))  // zero length
                        case 1: [Point(r.double(in: x), r.double(in: y))]  // one vertex
                        default: specialPart(&r, n: r.int(in: 2...40), near: near, x: x, y: y)
                        }
                    }))
        }
        let srs: [SpatialReference?] = [
            nil, .wgs84, .webMercator, SpatialReference(wkid: 3857), SpatialReference(wkid: 2193), SpatialReference(wkt: #"PROJCS["local"]"#),
        ]
        let sr = kind == 0 ? [nil, .wgs84][r.int(in: 0...1)] : srs[r.int(in: 0...(srs.count - 1))]
        let place = ["", "   ", "{\"points\":[[1,2]]}\n", "POINT (1 2)\n  "][r.int(in: 0...3)]
        return [
            place + EsriJSON.encode(SpatialGeometry(g, spatialReference: sr)),
            place + GeoJSON.encode(wgs84: g),
        ]
    }

    @Test func everyOperationFormatAndSpatialReferenceGivesTheSameBytesOnBothPaths() throws {
        // simplify, normalize and project run on flat coordinates and validate reads the text:
        // output, exit code and errors (message, line, column) must be the general path's for
        // every input format (detected, given, or given wrongly), output format, --sr and --to.
        var r = SeededRandom(seed: 1206)
        var outcomes: [String: Int] = [:]
        let targets: [SpatialReference?] = [.webMercator, .wgs84, SpatialReference(wkid: 3857), SpatialReference(wkid: 2193), nil]
        let assumed: [SpatialReference?] = [nil, nil, .wgs84, .webMercator, SpatialReference(wkid: 2193)]
        for k in 0..<240 {
            for text in operationInputs(&r, k) {
                for operation in [GeometryTool.Operation.simplify, .normalize, .project, .validate] {
                    for out in [nil, GeometryFormat.esriJSON, .geoJSON, .wkt] {
                        let sr = assumed[r.int(in: 0...(assumed.count - 1))]
                        let to = targets[r.int(in: 0...(targets.count - 1))]
                        let given = [nil, nil, GeometryFormat.esriJSON, .geoJSON][r.int(in: 0...3)]
                        func run(_ flat: Bool) -> String {
                            var t = GeometryTool(
                                operation: operation, inputFormat: given, outputFormat: out, assumedSpatialReference: sr, targetSpatialReference: to)
                            t.flatThreshold = flat ? 0 : Int.max
                            do {
                                let result = try t.run(text, file: "in.json")
                                return "\(result.exitCode) \(result.output)"
                            } catch { return "error: \(error)" }
                        }
                        let flat = run(true)
                        #expect(
                            flat == run(false),
                            "\(operation) --in \(String(describing: given)) --format \(String(describing: out)) --sr \(String(describing: sr)) --to \(String(describing: to)) \(text)")
                        outcomes[flat.hasPrefix("error") ? "\(operation) error" : "\(operation) \(flat.prefix(1))", default: 0] += 1
                    }
                }
            }
        }
        // Both results and errors of each operation were compared, and invalid lines too.
        for key in ["simplify 0", "simplify error", "normalize 0", "normalize error", "project 0", "project error", "validate 0", "validate 1"] {
            #expect(outcomes[key, default: 0] >= 40, "\(key): \(outcomes)")
        }
    }

    @Test func theFlatPathTakesBigLinesAndPointsForEveryOperation() throws {
        // The comparison above is only worth something if the flat path runs: a geometry it
        // writes has no JSON tree behind it, so check that applyFlat takes these inputs itself.
        let texts = [
            #"{"type":"LineString","coordinates":[[179,1],[181,2],[179,3]]}"#,
            #"{"points":[[1,2],[1,2],[3,4]],"spatialReference":{"wkid":3857}}"#,
            #"{"paths":[[[1,2],[1,2]],[[0,0],[5,5]]],"spatialReference":{"wkid":4326}}"#,
        ]
        for text in texts {
            for operation in [GeometryTool.Operation.simplify, .normalize, .project, .validate] {
                var t = GeometryTool(operation: operation, outputFormat: .wkt, targetSpatialReference: .webMercator)
                t.flatThreshold = 0
                var piece = GeometryTextSplitter.Piece(text: Array(text.utf8), line: 1, column: 1, stop: nil)
                var written = ""
                let taken = try t.applyFlat(&piece, file: "in.json") { written += $0 }
                #expect(taken != nil && written.hasSuffix("\n") && piece.text.isEmpty, "\(operation) \(text)")
            }
        }
        func flatTool(_ operation: GeometryTool.Operation, _ out: GeometryFormat? = nil) -> GeometryTool {
            var t = GeometryTool(operation: operation, outputFormat: out)
            t.flatThreshold = 0
            return t
        }
        let normalized = try flatTool(.normalize, .wkt).run(texts[0], file: "in.json").output
        #expect(normalized == "MULTILINESTRING ((179 1, 180 1.5), (-180 1.5, -179 2, -180 2.5), (180 2.5, 179 3))\n")
        let simplified = try flatTool(.simplify).run(texts[1], file: "in.json").output
        #expect(simplified == #"{"points":[[1,2],[3,4]],"spatialReference":{"wkid":3857}}"# + "\n")
        let validated = try flatTool(.validate).run(texts[2], file: "in.json")
        #expect(validated.exitCode == 1 && validated.output.contains(#""part":0"#))
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
            // WKT states no spatial reference: --sr 4326 says the numbers are degrees.
            let back = try GeometryTool(operation: .convert, outputFormat: .geoJSON, assumedSpatialReference: .wgs84).run(converted, file: "big").output
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
