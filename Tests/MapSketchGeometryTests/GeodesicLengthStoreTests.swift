import MapSketchGeometry
import MapSketchTestSupport
import Testing

@Suite struct GeodesicLengthStoreTests {
    @Test func aVertexStoreMeasuresAsItsGeometryToTheBit() throws {
        var rng = SeededRandom(seed: 77)
        for type in [GeometryType.polyline, .polygon, .multipoint] {
            for _ in 0..<40 {
                var store = try VertexStore(type: type)
                for _ in 0..<rng.int(in: 0...3) {
                    if type != .multipoint || store.partCount == 0 { _ = try store.addPart() }
                    for _ in 0..<rng.int(in: 0...300) {
                        try store.append(Point(rng.double(in: -179...179), rng.double(in: -80...80)))
                    }
                }
                for sr in [SpatialReference.wgs84, .webMercator] {
                    let fromGeometry = try GeometryEngine.geodesicLength(store.geometry, spatialReference: sr)
                    let fromStore = try GeometryEngine.geodesicLength(store, spatialReference: sr)
                    #expect(fromStore.bitPattern == fromGeometry.bitPattern, "\(type) \(sr)")
                }
            }
        }
        #expect(throws: ProjectionError.self) {
            try GeometryEngine.geodesicLength(VertexStore(type: .polyline), spatialReference: SpatialReference(wkid: 2056))
        }
    }
}
