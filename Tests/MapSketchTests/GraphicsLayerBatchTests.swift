import Foundation
@testable import MapSketch
import MapSketchGeometry
import Testing

/// `GraphicsLayer.add(batches:)`: batches appended as they come, the index built once at the end,
/// the same layer as one `add(columns:)` of every row.
@MainActor
@Suite struct GraphicsLayerBatchTests {
    static func batch(_ range: Range<Int>) -> GraphicColumns {
        GraphicColumns(
            geometry: GeometryColumn(x: range.map { Double($0) }, y: range.map { Double($0 % 100) }),
            attributes: [AttributeColumn("ID", integers: Array(range)), AttributeColumn("KIND", strings: range.map { "k\($0 % 3)" })])
    }

    @Test func batchesMakeTheLayerOneAddMakesAndIndexItOnce() throws {
        let whole = GraphicsLayer()
        try whole.add(columns: Self.batch(0..<10_000))
        let batched = GraphicsLayer()
        try batched.add(columns: Self.batch(0..<100))  // a layer with graphics already
        let before = batched.slots.index.rebuildCount
        var seen: [Range<GraphicID>] = []
        let added = try batched.add { add in
            for start in stride(from: 100, to: 10_000, by: 1_000) {
                seen.append(try add(Self.batch(start..<min(start + 1_000, 10_000))))
                #expect(batched.slots.index.count == 100, "the index waits for the last batch")
            }
        }
        #expect(added == GraphicID(rawValue: 100)..<GraphicID(rawValue: 10_000))
        #expect(seen.first?.lowerBound == added.lowerBound && seen.last?.upperBound == added.upperBound)
        #expect(batched.slots.index.rebuildCount == before + 1 && batched.slots.index.count == 10_000)
        #expect(batched.count == whole.count)
        for id in [0, 99, 100, 5_555, 9_999].map({ GraphicID(rawValue: $0) }) {
            #expect(batched.graphic(id) == whole.graphic(id))
        }
        #expect(
            batched.hitTest(mapPoint: Point(5_555, 55), tolerance: 0.5, resolution: 1)
                == whole.hitTest(mapPoint: Point(5_555, 55), tolerance: 0.5, resolution: 1))
        #expect(batched.hitTest(mapPoint: Point(5_555, 55), tolerance: 0.5, resolution: 1) == [GraphicID(rawValue: 5_555)])
    }

    @Test func aFailureKeepsTheBatchesAddedBeforeItIndexed() throws {
        struct Stop: Error {}
        let layer = GraphicsLayer()
        #expect(throws: Stop.self) {
            try layer.add { add in
                _ = try add(Self.batch(0..<500))
                throw Stop()
            }
        }
        #expect(layer.count == 500 && layer.slots.index.count == 500)
        #expect(layer.hitTest(mapPoint: Point(250, 50), tolerance: 0.5, resolution: 1) == [GraphicID(rawValue: 250)])
        // A bad batch adds nothing; the ones before stay.
        var bad = Self.batch(500..<600)
        bad.attributes[0] = AttributeColumn("ID", integers: [1])
        #expect(throws: GraphicsLayerError.self) {
            try layer.add { add in
                _ = try add(Self.batch(1_000..<1_100))
                _ = try add(bad)
            }
        }
        #expect(layer.count == 600 && layer.slots.index.count == 600)
    }

    @Test func reservingCapacityLetsABulkLoadGrowNoBuffer() throws {
        let layer = GraphicsLayer()
        try layer.add { add in
            _ = try add(Self.batch(0..<1_000))
            layer.reserveCapacity(20_000)
            #expect(layer.slots.shapes.capacity == 20_000)
            #expect(layer.slots.columns.allSatisfy { $0.storage.integers.capacity >= 20_000 || $0.storage.stringIDs.capacity >= 20_000 })
            for start in stride(from: 1_000, to: 20_000, by: 1_000) { _ = try add(Self.batch(start..<start + 1_000)) }
        }
        #expect(layer.slots.shapes.capacity == 20_000, "no doubling past the reservation")
        #expect(layer.count == 20_000 && layer.graphic(GraphicID(rawValue: 19_999))?.attributes["ID"] == .integer(19_999))
        layer.reserveCapacity(10)  // never shrinks
        #expect(layer.slots.shapes.capacity == 20_000)
    }
}
