import MapSketchGeometry
import MapSketchTestSupport
import Testing

/// `FlatCoordinates` runs simplify, normalize, project and the GeoJSON WGS 84 step over flat x, y
/// storage: each must give exactly — bit for bit, errors included — what `GeometryEngine` gives
/// for the same multipoint or polyline.
@Suite struct FlatCoordinatesTests {
    /// The bit patterns of a geometry's coordinates and its part sizes: equality here is byte
    /// equality of any output written from it (−0 and 0 differ).
    func bits(_ f: FlatCoordinates) -> ([UInt64], [Int], GeometryType) { (f.xy.map(\.bitPattern), f.partSizes, f.type) }

    func flat(_ g: Geometry) throws -> FlatCoordinates {
        try #require(FlatCoordinates(g), "\(g)")
    }

    /// Expects the flat result to be the engine's: the same coordinates bit for bit, or the same
    /// error; counts results (`outcomes[0]`) and errors (`outcomes[1]`).
    func expectSame(
        _ got: Result<FlatCoordinates, any Error>, _ expected: Result<FlatCoordinates, any Error>, _ g: Geometry, _ outcomes: inout [Int]
    ) {
        switch (got, expected) {
        case (.success(let a), .success(let b)):
            #expect(bits(a) == bits(b), "\(g)")
            outcomes[0] += 1
        case (.failure(let a), .failure(let b)):
            #expect("\(a)" == "\(b)", "\(g)")
            outcomes[1] += 1
        default: Issue.record("\(got) vs \(expected) for \(g)")
        }
    }

    /// A random path or point set rich in what the operations treat specially: exact repeats,
    /// near repeats (a fraction of `scale` away, or the next double), runs of one vertex
    /// (zero-length parts), −0, and the given x range.
    func randomPart(_ r: inout SeededRandom, n: Int, scale: Double, x: ClosedRange<Double>, y: ClosedRange<Double>) -> [Point] {
        var pts: [Point] = []
        for _ in 0..<n {
            let last = pts.last
            switch (last, r.int(in: 0...9)) {
            case (let p?, 0): pts.append(p)
            case (let p?, 1): pts.append(Point(p.x + scale * r.double(in: -0.9...0.9), p.y + scale * r.double(in: -0.9...0.9)))
            case (let p?, 2): pts.append(Point(p.x.nextUp, p.y))
            case (let p?, 3): pts.append(Point(p.x + scale, p.y))  // exactly the tolerance away: kept
            case (_, 4): pts.append(Point(-0.0, r.int(in: 0...1) == 0 ? -0.0 : 0.0))
            case (_?, 5): pts.append(pts[r.int(in: 0...(pts.count - 1))])  // an earlier vertex again
            default: pts.append(Point(r.double(in: x), r.double(in: y)))
            }
        }
        return pts
    }

    func randomGeometry(_ r: inout SeededRandom, scale: Double, x: ClosedRange<Double>, y: ClosedRange<Double>) -> Geometry {
        if r.int(in: 0...2) == 0 {
            let n = r.int(in: 0...200)
            // Points on a lattice a fraction of the scale wide: many near and equal ones, hash chains.
            if r.int(in: 0...1) == 0 {
                let step = scale * [0.3, 0.5, 0.999, 1][r.int(in: 0...3)]
                return .multipoint(Multipoint(points: (0..<n).map { _ in Point(Double(r.int(in: -6...6)) * step, Double(r.int(in: -6...6)) * step) }))
            }
            return .multipoint(Multipoint(points: randomPart(&r, n: n, scale: scale, x: x, y: y)))
        }
        let parts = (0..<r.int(in: 0...5)).map { _ in
            r.int(in: 0...4) == 0
                ? Array(repeating: Point(r.double(in: x), r.double(in: y)), count: r.int(in: 1...4))  // zero-length part
                : randomPart(&r, n: r.int(in: 1...60), scale: scale, x: x, y: y)
        }
        return .polyline(Polyline(paths: parts))
    }

    @Test func simplifyIsTheEnginesOnRandomLinesAndPoints() throws {
        var r = SeededRandom(seed: 1201)
        for k in 0..<3000 {
            let tolerance = [0, 1e-9, SpatialReference.wgs84.xyTolerance, 0.001, 0.25, 1, -1, .infinity][k % 8]
            let scale = tolerance > 0 && tolerance.isFinite ? tolerance : 0.001
            let g = randomGeometry(&r, scale: scale, x: -scale * 20...scale * 20, y: -scale * 20...scale * 20)
            var f = try flat(g)
            f.simplify(tolerance: tolerance)
            let expected = try flat(GeometryEngine.simplify(g, tolerance: tolerance))
            #expect(bits(f) == bits(expected), "tolerance \(tolerance): \(g)")
            #expect(f.geometry == expected.geometry)
        }
    }

    @Test func simplifyOfAMultipointKeepsTheFirstOfEachCluster() throws {
        // 0.6 apart: the second is within a tolerance of 1 of the first, the third of the second
        // only (dropped points do not stand for anyone), so the third is kept.
        var f = try flat(.multipoint(Multipoint(points: [Point(0, 0), Point(0.6, 0), Point(1.2, 0), Point(0, 0), Point(-0.0, 0)])))
        f.simplify(tolerance: 1)
        #expect(f.geometry == .multipoint(Multipoint(points: [Point(0, 0), Point(1.2, 0)])))
        // A zero tolerance drops equal points only, −0 equal to 0.
        var z = try flat(.multipoint(Multipoint(points: [Point(-0.0, 1), Point(0, 1), Point(1e-300, 1)])))
        z.simplify(tolerance: 0)
        #expect(bits(z) == bits(try flat(.multipoint(Multipoint(points: [Point(-0.0, 1), Point(1e-300, 1)])))))
        // Huge and tiny magnitudes: cells at infinity and next to zero.
        let extreme = Geometry.multipoint(Multipoint(points: [Point(1e308, -1e308), Point(1e308, -1e308), Point(-1e308, 1e308), Point(.leastNonzeroMagnitude, 0)]))
        for tolerance in [0, 1e-300, 0.001] {
            var e = try flat(extreme)
            e.simplify(tolerance: tolerance)
            #expect(bits(e) == bits(try flat(GeometryEngine.simplify(extreme, tolerance: tolerance))))
        }
    }

    @Test func simplifyOfABigMultipointMatchesTheEngine() throws {
        // Enough points to grow long chains and wrap the table's probes.
        var r = SeededRandom(seed: 77)
        let pts = (0..<60_000).map { _ in Point(Double(r.int(in: 0...400)) * 0.0007, Double(r.int(in: 0...400)) * 0.0007) }
        let g = Geometry.multipoint(Multipoint(points: pts))
        var f = try flat(g)
        f.simplify(tolerance: 0.001)
        let expected = try flat(GeometryEngine.simplify(g, tolerance: 0.001))
        #expect(bits(f) == bits(expected))
        #expect(f.vertexCount > 1000 && f.vertexCount < 60_000)
    }

    @Test func normalizeIsTheEnginesOnRandomLinesAndPoints() throws {
        var r = SeededRandom(seed: 1202)
        var outcomes = [0, 0]
        for k in 0..<3000 {
            let sr: SpatialReference = k % 3 == 2 ? SpatialReference(wkid: 3857) : (k % 3 == 1 ? .webMercator : .wgs84)
            let half = sr.isWGS84 ? 180 : GeometryEngine.webMercatorHalfWidth
            // Within a few worlds, steps mostly below a world width (some wider: refused).
            let g = randomGeometry(&r, scale: half / 3, x: -half * 4...half * 4, y: -80...80)
            var f = try flat(g)
            let expected = Result { try flat(GeometryEngine.normalizeCentralMeridian(g, spatialReference: sr)) }
            let got = Result { () throws -> FlatCoordinates in
                try f.normalizeCentralMeridian(spatialReference: sr)
                return f
            }
            expectSame(got, expected, g, &outcomes)
        }
        #expect(outcomes[0] > 300 && outcomes[1] > 100, "\(outcomes) results and errors")
    }

    @Test func normalizeErrorsAreTheEngines() throws {
        let cases: [(Geometry, SpatialReference)] = [
            (.polyline(Polyline(paths: [[Point(0, 0), Point(1, 1)], [Point(0, 0), Point(0x1p51, 0)]])), .wgs84),
            (.polyline(Polyline(paths: [[Point(0, 0), Point(1, 1)], [Point(0, 0), Point(361, 0), Point(0x1p51, 0)]])), .wgs84),
            (.polyline(Polyline(paths: [[Point(0, 0), Point(1, 1)]])), SpatialReference(wkid: 2193)),
            (.multipoint(Multipoint(points: [Point(1e300, 0), Point(-541, 2)])), .wgs84),
            (.polyline(Polyline(paths: [[Point(179, 1e308), Point(181, -1e308)]])), .wgs84),
        ]
        for (g, sr) in cases {
            var f = try flat(g)
            let got = Result { () throws -> FlatCoordinates in
                try f.normalizeCentralMeridian(spatialReference: sr)
                return f
            }
            let expected = Result { try flat(GeometryEngine.normalizeCentralMeridian(g, spatialReference: sr)) }
            var ignored = [0, 0]
            expectSame(got, expected, g, &ignored)
        }
        var f = try flat(cases[0].0)
        #expect(throws: ProjectionError.self) { try f.normalizeCentralMeridian(spatialReference: .wgs84) }
        #expect(f == (try flat(cases[0].0)), "unchanged after an error")
    }

    @Test func projectIsTheEnginesOnRandomLinesAndPoints() throws {
        var r = SeededRandom(seed: 1203)
        var outcomes = [0, 0]
        let pairs: [(SpatialReference, SpatialReference)] = [
            (.wgs84, .webMercator), (.webMercator, .wgs84), (SpatialReference(wkid: 3857), .webMercator), (.wgs84, .wgs84),
            (.wgs84, SpatialReference(wkid: 2193)),
        ]
        for k in 0..<2000 {
            let (from, to) = pairs[k % pairs.count]
            // Mostly in the domain; some latitudes beyond ±90 and longitudes whose x overflows.
            let wide = k % 4 == 0
            let g = randomGeometry(&r, scale: 1e-6, x: wide ? -1e305...1e305 : -200...200, y: wide ? -95...95 : -89...89)
            var f = try flat(g)
            let got = Result { () throws -> FlatCoordinates in
                try f.project(from: from, to: to)
                return f
            }
            let expected = Result { try flat(GeometryEngine.project(g, from: from, to: to)) }
            expectSame(got, expected, g, &outcomes)
        }
        #expect(outcomes[0] > 300 && outcomes[1] > 100, "\(outcomes) results and errors")
    }

    @Test func inWGS84IsGeoJSONs() throws {
        var r = SeededRandom(seed: 1204)
        var outcomes = [0, 0]
        let srs: [SpatialReference?] = [nil, .wgs84, .webMercator, SpatialReference(wkid: 2193), SpatialReference(wkt: "LOCAL_CS[\"x\"]")]
        for k in 0..<1000 {
            let sr = srs[k % srs.count]
            let g = randomGeometry(&r, scale: 1, x: k % 2 == 0 ? -180...180 : -3e7...3e7, y: -90...90)
            var f = try flat(g)
            let got = Result { () throws -> FlatCoordinates in
                try f.inWGS84(from: sr)
                return f
            }
            let expected = Result { try flat(GeoJSON.inWGS84(SpatialGeometry(g, spatialReference: sr)).geometry) }
            expectSame(got, expected, g, &outcomes)
        }
        #expect(outcomes[0] > 300 && outcomes[1] > 100, "\(outcomes) results and errors")
    }

    @Test func writingIsTheEncodersInEveryFormat() throws {
        var r = SeededRandom(seed: 1205)
        for k in 0..<600 {
            let g = randomGeometry(&r, scale: 0.01, x: -180...180, y: -90...90)
            let f = try flat(g)
            let sr: SpatialReference? = [nil, .wgs84, .webMercator][k % 3]
            for (out, expected) in [
                (GeometryFormat.esriJSON, EsriJSON.encode(SpatialGeometry(g, spatialReference: sr))),
                (.geoJSON, GeoJSON.encode(wgs84: g)),
                (.wkt, WKT.encode(g)),
            ] {
                var bytes: [UInt8] = []
                try f.write(as: out, spatialReference: out == .geoJSON ? .wgs84 : sr, chunkSize: 1 + k % 50) { bytes += $0 }
                #expect(String(decoding: bytes, as: UTF8.self) == expected, "\(out)")
            }
        }
    }

    @Test func validateFromTheTextIsTheEngines() throws {
        let texts = [
            #"{"paths":[[[1,2],[1,2]],[[0,0],[1,1]],[[5,5]],[[3,3],[3,3],[3,3]],[[0,0],[0,0],[0,1]]]}"#,
            #"{"points":[[1,2],[1,2]]}"#,
            #"{"type":"LineString","coordinates":[[-0.0,0],[0,0]]}"#,
            #"{"type":"MultiLineString","coordinates":[[[1,2],[3,4]],[[7,7]]]}"#,
            #"{"paths":[]}"#,
        ]
        for text in texts {
            try Array(text.utf8).withUnsafeBufferPointer { buf in
                let flat = try #require(FlatLineGeometry.decode(buf, format: nil), "\(text)")
                #expect(flat.validate(in: buf) == GeometryEngine.validate(flat.geometry(in: buf)), "\(text)")
            }
        }
    }
}
