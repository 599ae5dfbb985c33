@_spi(MapSketchInternal) @testable import MapSketch
import MapSketchGeometry
import MapSketchTestSupport
import Testing

/// The package-level bulk append (a sketch built in one go): the store ends as appending each
/// vertex leaves it, with one event, no undo step, and nothing changed when it cannot apply.
@Suite @MainActor struct SketchBulkAppendTests {
    @Test func theStoreEndsAsAppendingEachVertexLeavesIt() throws {
        var rng = SeededRandom(seed: 12)
        for type in [GeometryType.multipoint, .polyline, .polygon] {
            for round in 0..<20 {
                let oneByOne = try SketchLayer(geometryType: type)
                let bulk = try SketchLayer(geometryType: type)
                let parts = type == .multipoint ? 1 : rng.int(in: 1...3)
                for part in 0..<parts {
                    if part > 0 {
                        try oneByOne.addPart()
                        try bulk.addPart()
                    }
                    let points = (0..<rng.int(in: 0...300)).map { _ in
                        rng.int(in: 0...3) == 0
                            ? Point(x: rng.double(in: -1e7...1e7), y: rng.double(in: -1e7...1e7), z: rng.double(in: -100...100))
                            : Point(rng.double(in: -1e7...1e7), rng.double(in: -1e7...1e7))
                    }
                    for p in points { try oneByOne.appendVertex(p) }
                    // Contiguous (an array, a slice as the GPS ingest passes) and not (a lazy map).
                    switch round % 3 {
                    case 0: #expect(bulk.appendVerticesInBulk(points))
                    case 1: #expect(bulk.appendVerticesInBulk(points[...]))
                    default: #expect(bulk.appendVerticesInBulk(points.indices.lazy.map { points[$0] }))
                    }
                }
                #expect(bulk.vertices == oneByOne.vertices, "\(type) round \(round)")
                #expect(bulk.selection == oneByOne.selection, "\(type) round \(round)")
                #expect(bulk.geometry == oneByOne.geometry)
            }
        }
    }

    @Test func oneEventNoUndoStepTheLastVertexSelected() throws {
        let h = try SketchHarness(.polyline)
        try h.sketch.appendVertex(Point(0, 0))
        #expect(h.sketch.undoCount == 1)
        let points = (1...1000).map { Point(Double($0), Double($0 % 7)) }
        #expect(h.sketch.appendVerticesInBulk(points))
        #expect(h.sketch.vertices.vertexCount == 1001)
        #expect(h.changes.map(\.reason) == [.edit(.insertVertex), .replaced], "one event for the whole batch")
        #expect(h.sketch.selection == .vertex(part: 0, index: 1000))
        #expect(h.selections.last?.new == .vertex(part: 0, index: 1000))
        #expect(h.sketch.undoCount == 0 && h.sketch.redoCount == 0, "the history describes the sketch before: cleared")
        #expect(!h.sketch.undo())
        // An empty batch changes and posts nothing.
        #expect(h.sketch.appendVerticesInBulk([Point]()))
        #expect(h.changes.count == 2)
        // Appending one at a time afterwards is an ordinary, undoable edit.
        try h.sketch.appendVertex(Point(5000, 0))
        #expect(h.sketch.undo())
        #expect(h.sketch.vertices.vertexCount == 1001)
    }

    @Test func refusedWhereItCannotApplyChangingNothing() throws {
        // A non-finite point anywhere in the batch: nothing appended.
        let h = try SketchHarness(.polyline)
        try h.sketch.appendVertex(Point(0, 0))
        #expect(!h.sketch.appendVerticesInBulk([Point(1, 1), Point(.nan, 2), Point(3, 3)]))
        #expect(!h.sketch.appendVerticesInBulk((0..<3).lazy.map { $0 == 1 ? Point(.nan, 2) : Point(1, 1) }))
        #expect(!h.sketch.appendVerticesInBulk([Point(x: 1, y: 1, z: .infinity)]))
        #expect(h.sketch.vertices.vertexCount == 1 && h.sketch.undoCount == 1 && h.changes.count == 1)
        // A point sketch takes one vertex; a validation rule checks every edit.
        let point = try SketchLayer(geometryType: .point)
        #expect(!point.editor.acceptsBulkAppend)
        #expect(!point.appendVerticesInBulk([Point(1, 1)]))
        #expect(point.vertices.isEmpty)
        let ruled = try SketchLayer(geometryType: .polyline)
        ruled.validation = SketchValidation(maximumVertices: 3)
        #expect(!ruled.editor.acceptsBulkAppend)
        #expect(!ruled.appendVerticesInBulk([Point(0, 0), Point(1, 1), Point(2, 2), Point(3, 3)]))
        #expect(ruled.vertices.isEmpty)
        // Nor while a vertex is being dragged.
        let d = try SketchHarness(geometry: .polyline(Polyline(paths: [[Point(0, 0), Point(10, 0)]])))
        try d.sketch.editor.beginDrag(part: 0, index: 1)
        #expect(!d.sketch.editor.acceptsBulkAppend)
        #expect(!d.sketch.appendVerticesInBulk([Point(20, 0)]))
        #expect(d.sketch.vertices.vertexCount == 2)
    }
}
