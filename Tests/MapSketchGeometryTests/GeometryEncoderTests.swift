@testable import MapSketchGeometry
import MapSketchTestSupport
import Testing

/// The one encoder of each format over every vertex source: the same geometry held as a tree's
/// parts, as flat coordinates and as a sketch's chunked parts gives the same bytes.
@Suite struct GeometryEncoderTests {
    /// The bytes of `GeometryEncoder.write` of `source`, through a sink seeing `chunkSize` bytes
    /// at a time.
    static func encoded<S: VertexSource>(
        _ source: S, _ type: GeometryType, _ format: GeometryFormat, z: Bool = false, m: Bool = false,
        sr: SpatialReference? = nil, chunkSize: Int = ByteOutput.chunkBytes, offloadChunk: Int? = nil
    ) throws -> String {
        var bytes: [UInt8] = []
        // Offloaded chunks formatted up front (another thread in use), taken in order.
        var offload: OffloadedChunks?
        if let chunk = offloadChunk {
            var queued: [[UInt8]] = []
            try GeometryEncoder.formatOffloaded(
                source, format: GeometryEncoder.vertexFormat(format, type: type, z: z, m: m), chunk: chunk) { queued.append($0) }
            let box = Queue(queued)
            offload = OffloadedChunks(chunk: chunk) { box.take() }
        }
        try ByteOutput.streaming(chunkSize: chunkSize, to: { bytes += $0 }) { o in
            try GeometryEncoder.write(source, type: type, as: format, z: z, m: m, spatialReference: sr, into: &o, offload: offload)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    final class Queue: @unchecked Sendable {
        var items: [[UInt8]]
        init(_ items: [[UInt8]]) { self.items = items.reversed() }
        func take() -> [UInt8]? { items.popLast() }
    }

    /// Random parts: empty parts, non-finite coordinates and z/m on all, some or no vertices.
    static func randomParts(_ r: inout SeededRandom, type: GeometryType, finite: Bool, zm: Bool) -> [[Point]] {
        let count = type == .multipoint ? r.int(in: 0...1) : r.int(in: 0...4)
        let zMode = zm ? r.int(in: 0...2) : 0, mMode = zm ? r.int(in: 0...2) : 0
        return (0..<count).map { _ in
            (0..<r.int(in: (type == .multipoint ? 1 : 0)...30)).map { _ in
                var p = r.int(in: 0...3) == 0 ? Point(Double(r.int(in: -3...3)), Double(r.int(in: -3...3))) : Point(r.double(in: -1e7...1e7), r.double(in: -1e5...1e5))
                if !finite, r.int(in: 0...9) == 0 { p.x = [.nan, .infinity, -.infinity][r.int(in: 0...2)] }
                if zMode == 1 || (zMode == 2 && r.int(in: 0...1) == 0) { p.z = r.double(in: -10...10) }
                if mMode == 1 || (mMode == 2 && r.int(in: 0...1) == 0) { p.m = finite ? 7 : .nan }
                return p
            }
        }
    }

    static func store(_ parts: [[Point]], _ type: GeometryType) throws -> VertexStore {
        var s = try VertexStore(type: type)
        for part in parts {
            if type != .multipoint { _ = try s.addPart() }
            for p in part { try s.append(p) }
        }
        return s
    }

    @Test func treeFlatAndChunkedGiveTheSameBytesInEveryFormat() throws {
        var r = SeededRandom(seed: 77)
        var compared = 0
        for round in 0..<300 {
            for type in [GeometryType.multipoint, .polyline, .polygon] {
                let zm = round % 2 == 0, finite = round % 3 != 0
                let parts = Self.randomParts(&r, type: type, finite: finite, zm: zm)
                // A sketch holds finite vertices only.
                let store = finite ? try Self.store(parts, type) : nil
                let (z, m) = (zm && round % 4 == 0, zm && round % 8 == 0)
                for format in GeometryFormat.allCases where type != .polygon || format == .esriJSON {
                    let sr: SpatialReference? = format == .esriJSON && round % 5 == 0 ? .webMercator : nil
                    let tree = try Self.encoded(parts, type, format, z: z, m: m, sr: sr)
                    if let store {
                        #expect(try Self.encoded(store, type, format, z: z, m: m, sr: sr, chunkSize: 1 + round % 40) == tree, "chunked \(type) \(format)")
                    }
                    #expect(try Self.encoded(parts, type, format, z: z, m: m, sr: sr, offloadChunk: 1 + round % 3) == tree, "offloaded \(type) \(format)")
                    compared += 2
                    // Flat coordinates: two-dimensional, no empty part.
                    guard !zm, parts.allSatisfy({ !$0.isEmpty }), type != .polygon else { continue }
                    let flat = FlatCoordinates(type: type, xy: parts.flatMap { $0.flatMap { [$0.x, $0.y] } }, partSizes: parts.map(\.count))
                    #expect(try Self.encoded(flat, type, format, sr: sr, chunkSize: 1 + round % 7) == tree, "flat \(type) \(format)")
                    compared += 1
                }
            }
        }
        #expect(compared > 2000)
    }

    @Test func theTreeCodecsAreTheEncoder() throws {
        // Esri JSON with its written flags, GeoJSON with each vertex's own z, WKT with the flags.
        let parts = [[Point(x: 1, y: 2, z: 3), Point(x: .nan, y: 0.5, m: 4)], [], [Point(-0.0, 1e21)]]
        let line = Polyline(paths: parts, hasZ: true, hasM: false)
        #expect(EsriJSON.encode(SpatialGeometry(.polyline(line), spatialReference: .wgs84))
            == (try Self.encoded(parts, .polyline, .esriJSON, z: true, m: true, sr: .wgs84)))
        #expect(GeoJSON.encode(wgs84: .polyline(line)) == (try Self.encoded(parts, .polyline, .geoJSON, z: true)))
        #expect(WKT.encode(.polyline(line)) == (try Self.encoded(parts, .polyline, .wkt, z: true)))
        #expect(try Self.encoded(parts, .polyline, .wkt, z: true) == "MULTILINESTRING Z ((1 2 3, NaN 0.5 NaN), EMPTY, (0 1e+21 NaN))")
        #expect(
            try Self.encoded(parts, .polyline, .esriJSON, z: true, m: true)
                == #"{"hasZ":true,"hasM":true,"paths":[[[1,2,3,null],[null,0.5,null,4]],[],[[0,1e+21,null,null]]]}"#)
    }

    @Test func emptyGeometriesInEveryFormat() throws {
        let none: [[Point]] = []
        #expect(try Self.encoded(none, .multipoint, .esriJSON) == #"{"points":[]}"#)
        #expect(try Self.encoded([[]] as [[Point]], .multipoint, .esriJSON) == #"{"points":[]}"#)
        #expect(try Self.encoded(none, .polyline, .geoJSON) == #"{"type":"LineString","coordinates":[]}"#)
        #expect(try Self.encoded(none, .multipoint, .wkt, z: true) == "MULTIPOINT Z EMPTY")
        #expect(try Self.encoded([[]] as [[Point]], .polyline, .wkt) == "LINESTRING EMPTY")
        #expect(try Self.encoded(none, .polyline, .wkt) == "MULTILINESTRING EMPTY")
        #expect(try Self.encoded([[], []] as [[Point]], .polygon, .esriJSON) == #"{"rings":[[],[]]}"#)
    }

    @Test func ringsAreClosedAndGeoJSONIsProjectedAsWritten() throws {
        let ring = [[Point(0, 0), Point(0, 1), Point(1, 1)]]
        #expect(try Self.encoded(ring, .polygon, .esriJSON) == #"{"rings":[[[0,0],[0,1],[1,1],[0,0]]]}"#)
        let mercator = [[Point(0, 0), Point(111_319.49079327357, 0)]]
        var o = ByteOutput()
        let projection = try #require(try GeoJSON.wgs84Projection(from: .webMercator))
        try GeometryEncoder.write(mercator, type: .polyline, as: .geoJSON, spatialReference: nil, projection: projection, into: &o)
        #expect(String(decoding: o.out, as: UTF8.self) == #"{"type":"LineString","coordinates":[[0,0],[1,0]]}"#)
    }

    @Test func aFailingSinkStopsTheOutputAndIsThrownAtTheEnd() throws {
        struct Full: Error {}
        var calls = 0
        let long = [(0..<5000).map { Point(Double($0), 1) }]
        #expect(throws: Full.self) {
            try ByteOutput.streaming(chunkSize: 100, to: { _ in
                calls += 1
                throw Full()
            }) { o in try GeometryEncoder.write(long, type: .polyline, as: .wkt, spatialReference: nil, into: &o) }
        }
        #expect(calls == 1, "nothing more goes to a failed sink")
    }
}
