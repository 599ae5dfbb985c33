import MapSketchGeometry
import MapSketchTestSupport
@testable import MapSketchReplay
import Testing

@Suite struct GeometryStreamWriterTests {
    /// What the writer gives for `store`, through a sink that sees small pieces.
    static func streamed(_ store: VertexStore, _ sr: SpatialReference?, _ format: GeometryFormat) throws -> String {
        var bytes: [UInt8] = []
        try GeometryStreamWriter.write(store, spatialReference: sr, format: format) { bytes += $0 }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func writesWhatTheCodecsWriteForEveryTypeAndFormat() throws {
        var rng = SeededRandom(seed: 5)
        var checked = 0
        for type in [GeometryType.multipoint, .polyline, .polygon, .point] {
            for round in 0..<40 {
                var store = try VertexStore(type: type, hasZ: round % 7 == 1, hasM: round % 11 == 2)
                let parts = type == .multipoint || type == .point ? min(1, rng.int(in: 0...2)) : rng.int(in: 0...3)
                // z on every vertex, on none, or on some; m likewise (rarer).
                let zMode = rng.int(in: 0...2), mMode = rng.int(in: 0...4)
                for _ in 0..<parts {
                    if type != .multipoint, type != .point { _ = try store.addPart() }
                    for _ in 0..<(type == .point ? 1 : rng.int(in: 0...(round < 2 ? 2000 : 40))) {
                        var p = Point(rng.double(in: -2e7...2e7), rng.double(in: -2e7...2e7))
                        if round % 5 == 0 { p = Point(Double(rng.int(in: -9...9)), Double(rng.int(in: -9...9))) }
                        if zMode == 1 || (zMode == 2 && rng.int(in: 0...1) == 0) { p.z = rng.double(in: -100...4000) }
                        if mMode == 1 || (mMode == 2 && rng.int(in: 0...1) == 0) { p.m = rng.double(in: 0...1e6) }
                        try store.append(p)
                    }
                }
                for format in GeometryFormat.allCases {
                    for sr in [SpatialReference.webMercator, .wgs84, nil] as [SpatialReference?] {
                        // The geometry as written: z and m only where every vertex has them.
                        let g = SpatialGeometry(WrittenDimensions(store).applied(to: store.geometry), spatialReference: sr)
                        // GeoJSON is RFC 7946: WGS 84, projected, or the codec's error.
                        if format == .geoJSON, case .failure(let error) = Result(catching: { () throws(GeoJSONOutputError) in try format.encode(g) }) {
                            #expect(throws: error) { try Self.streamed(store, sr, format) }
                            checked += 1
                            continue
                        }
                        let expected = try format.encode(g) + "\n"
                        let got = try Self.streamed(store, sr, format)
                        #expect(got == expected, "\(type) \(format) round \(round): \(got.prefix(200)) vs \(expected.prefix(200))")
                        checked += 1
                    }
                }
            }
        }
        #expect(checked == 4 * 40 * 3 * 3)
    }

    @Test func aLargeTrackReachesTheSinkInPieces() throws {
        var store = try VertexStore(type: .polyline)
        for i in 0..<20_000 { try store.append(Point(x: Double(i) * 1.5, y: 2, z: 3)) }
        var pieces = 0
        var largest = 0
        try GeometryStreamWriter.write(store, spatialReference: .webMercator, format: .esriJSON) {
            pieces += 1
            largest = max(largest, $0.count)
        }
        #expect(pieces > 3)
        #expect(largest < GeometryStreamWriter.bufferSize + 1024)
    }
}

/// Long parts are formatted on two threads, a chunk each in turn: the bytes are still the
/// codecs', in order, whatever the part's length against the chunk size.
@Suite struct GeometryStreamWriterParallelTests {
    @Test func longPartsWriteWhatTheCodecsWrite() throws {
        var rng = SeededRandom(seed: 77)
        let chunk = GeometryStreamWriter.parallelChunk
        let lengths = [2 * chunk - 1, 2 * chunk, 2 * chunk + 1, 3 * chunk + 100, 4 * chunk + 7]
        // Under a sanitizer (5 to 15× slower), the rounds that differ in kind: a part one short of
        // two chunks without z, exactly two with z, the longest with z and m.
        for (round, length) in lengths.enumerated() where SanitizerRuntime.active == nil || [0, 1, 4].contains(round) {
            for type in [GeometryType.multipoint, .polyline, .polygon] {
                var store = try VertexStore(type: type)
                let parts = type == .multipoint ? 1 : 1 + round % 2
                for k in 0..<parts {
                    if type != .multipoint { _ = try store.addPart() }
                    for i in 0..<(k == 0 ? length : 40) {
                        var p = Point(rng.double(in: -2e7...2e7), rng.double(in: -2e7...2e7))
                        if round % 2 == 1 || i % 3 == 0 { p.z = rng.double(in: -100...4000) }
                        if round == 4 && i % 5 == 0 { p.m = rng.double(in: 0...1e6) }
                        try store.append(p)
                    }
                }
                for format in GeometryFormat.allCases where !(type == .polygon && format != .esriJSON) {
                    let g = SpatialGeometry(WrittenDimensions(store).applied(to: store.geometry), spatialReference: .webMercator)
                    let expected = try format.encode(g) + "\n"
                    let got = try GeometryStreamWriterTests.streamed(store, .webMercator, format)
                    #expect(got == expected, "\(type) \(format) \(length) vertices")
                }
            }
        }
    }

    /// A sink that fails mid-way: the error comes out and the helper thread stops.
    @Test func aFailingSinkStopsTheWriting() throws {
        struct Full: Error {}
        var store = try VertexStore(type: .polyline)
        for i in 0..<(5 * GeometryStreamWriter.parallelChunk) { try store.append(Point(Double(i), 1)) }
        var total = 0
        try GeometryStreamWriter.write(store, spatialReference: .webMercator, format: .esriJSON) { _ in total += 1 }
        #expect(total > 10)
        for failAt in [1, 2, 3, total / 2, total - 1, total] {
            var calls = 0
            #expect(throws: Full.self) {
                try GeometryStreamWriter.write(store, spatialReference: .webMercator, format: .esriJSON) { _ in
                    calls += 1
                    if calls == failAt { throw Full() }
                }
            }
        }
    }
}
