@_spi(MapSketchInternal) @testable import MapSketch
import MapSketchGeometry
import MapSketchTestSupport
import Testing

/// The public append of many vertices: one edit (one undo step, one geometry-changed event),
/// leaving the store as appending them one at a time does, judged as a whole by the rules.
@Suite @MainActor struct SketchAppendVerticesTests {
    @Test func oneUndoStepAndOneEventForAMillionVertices() throws {
        let h = try SketchHarness(.polyline)
        try h.sketch.appendVertex(Point(-1, 0))
        let points = (0..<1_000_000).map { Point(Double($0), Double($0 % 7)) }
        try h.sketch.appendVertices(points)
        #expect(h.sketch.vertices.vertexCount == 1_000_001)
        #expect(h.sketch.undoCount == 2, "the first vertex, then the million in one step")
        #expect(h.changes.map(\.reason) == [.edit(.insertVertex), .edit(.appendVertices)], "one event for the batch")
        #expect(h.sketch.selection == .vertex(part: 0, index: 1_000_000))
        #expect(h.selections.last?.new == .vertex(part: 0, index: 1_000_000))
        // One undo takes the whole batch away and selects what was selected; one redo puts it back.
        #expect(h.sketch.undo())
        #expect(h.sketch.vertices.vertexCount == 1 && h.sketch.selection == .vertex(part: 0, index: 0))
        #expect(h.sketch.redo())
        #expect(h.sketch.vertices.vertexCount == 1_000_001 && h.sketch.selection == .vertex(part: 0, index: 1_000_000))
        #expect(h.changes.count == 4)
        // An empty batch changes and posts nothing.
        try h.sketch.appendVertices([Point]())
        #expect(h.changes.count == 4 && h.sketch.undoCount == 2)
    }

    @Test func theSketchEndsAsAppendingEachVertexLeavesIt() throws {
        var rng = SeededRandom(seed: 26)
        for type in [GeometryType.multipoint, .polyline, .polygon] {
            for round in 0..<12 {
                let oneByOne = try SketchLayer(geometryType: type)
                let batched = try SketchLayer(geometryType: type)
                for part in 0..<(type == .multipoint ? 1 : rng.int(in: 1...3)) {
                    if part > 0 {
                        try oneByOne.addPart()
                        try batched.addPart()
                    }
                    let points = (0..<rng.int(in: 1...200)).map { _ in
                        rng.int(in: 0...3) == 0
                            ? Point(x: rng.double(in: -1e6...1e6), y: rng.double(in: -1e6...1e6), z: rng.double(in: -9...9))
                            : Point(rng.double(in: -1e6...1e6), rng.double(in: -1e6...1e6))
                    }
                    for p in points { try oneByOne.appendVertex(p) }
                    // Contiguous (an array, a slice) and not (a lazy map).
                    switch round % 3 {
                    case 0: try batched.appendVertices(points)
                    case 1: try batched.appendVertices(points[...])
                    default: try batched.appendVertices(points.indices.lazy.map { points[$0] })
                    }
                }
                #expect(batched.vertices == oneByOne.vertices, "\(type) round \(round)")
                #expect(batched.selection == oneByOne.selection, "\(type) round \(round)")
            }
        }
    }

    @Test func refusedInputAppendsNothing() throws {
        let h = try SketchHarness(.polygon)
        try h.sketch.appendVertices([Point(0, 0), Point(10, 0)])
        #expect(throws: GeometryError.nonFiniteCoordinate(part: 0, index: 3)) {
            try h.sketch.appendVertices([Point(5, 5), Point(.nan, 1), Point(1, 1)])
        }
        #expect(throws: GeometryError.nonFiniteCoordinate(part: 0, index: 2)) {
            try h.sketch.appendVertices([Point(x: 1, y: 1, z: .infinity)])
        }
        let point = try SketchLayer(geometryType: .point)
        #expect(throws: GeometryError.pointHasOneVertex) { try point.appendVertices([Point(1, 1)]) }
        #expect(point.vertices.isEmpty)
        #expect(h.sketch.vertices.vertexCount == 2 && h.sketch.undoCount == 1 && h.changes.count == 1)
    }

    @Test func theRulesJudgeTheBatchAsAWhole() throws {
        // At most 5 vertices: a batch that would pass it is refused whole.
        let capped = try SketchHarness(.polyline)
        capped.sketch.validation = SketchValidation(maximumVertices: 5)
        try capped.sketch.appendVertices([Point(0, 0), Point(1, 0), Point(2, 0)])
        #expect(throws: SketchError.self) { try capped.sketch.appendVertices([Point(3, 0), Point(4, 0), Point(5, 0)]) }
        #expect(capped.sketch.vertices.vertexCount == 3 && capped.sketch.undoCount == 1)
        try capped.sketch.appendVertices([Point(3, 0), Point(4, 0)])
        #expect(capped.sketch.vertices.vertexCount == 5)

        // No self-intersection: a batch whose new segments cross the old ones, or close a ring
        // across it, is refused; one that does not is kept.
        let ring = try SketchHarness(.polygon)
        ring.sketch.validation = SketchValidation(noSelfIntersection: true)
        try ring.sketch.appendVertices([Point(0, 0), Point(100, 0), Point(100, 100)])
        #expect(throws: SketchError.self) { try ring.sketch.appendVertices([Point(0, 100), Point(50, -50)]) }
        #expect(throws: SketchError.self) { try ring.sketch.appendVertices([Point(-50, 50), Point(200, 50), Point(200, 200)]) }
        #expect(ring.sketch.vertices.vertexCount == 3)
        try ring.sketch.appendVertices([Point(50, 150), Point(0, 100)])
        #expect(ring.sketch.validate().isEmpty && ring.sketch.vertices.vertexCount == 5)
    }

    @Test func theRunningMeasuresFollowAppendedBatches() throws {
        var rng = SeededRandom(seed: 2626)
        for type in [GeometryType.polyline, .polygon] {
            let sketch = try SketchLayer(geometryType: type)
            sketch.validation = SketchValidation(minimumArea: 0.001, minimumLength: 0.001)
            for _ in 0..<40 {
                if rng.int(in: 0...5) == 0 { try sketch.addPart() }
                let batch = (0..<rng.int(in: 1...30)).map { _ in Point(rng.double(in: -500...500), rng.double(in: -500...500)) }
                try? sketch.appendVertices(batch)
            }
            let kept = try #require(sketch.editor.measureCache)
            let area = GeometryEngine.area(sketch.geometry)
            let length = GeometryEngine.length(sketch.geometry)
            #expect(abs(kept.length - length) <= 1e-9 * max(1, length), "\(type)")
            if type == .polygon { #expect(abs(kept.area - area) <= 1e-6 * max(1, abs(area))) }
        }
    }
}
