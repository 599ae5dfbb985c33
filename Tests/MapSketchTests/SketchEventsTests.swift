import MapSketch
import MapSketchGeometry
import Testing

@Suite @MainActor struct SketchEventsTests {
    @Test func everyObserverHearsEveryChangeUntilRemoved() throws {
        let sketch = try SketchLayer(geometryType: .polyline)
        var a: [Int] = []
        var b: [Int] = []
        let ta = sketch.onGeometryChanged { a.append($0.sequence) }
        sketch.onGeometryChanged { b.append($0.sequence) }
        try sketch.appendVertex(Point(0, 0))
        try sketch.appendVertex(Point(1, 0))
        sketch.undo()
        #expect(sketch.removeObserver(ta))
        #expect(!sketch.removeObserver(ta), "a token works once")
        sketch.redo()
        #expect(a == [1, 2, 3])
        #expect(b == [1, 2, 3, 4])
        #expect(sketch.geometryChangeCount == 4)
    }

    @Test func nothingHappensNothingIsPosted() throws {
        let sketch = try SketchLayer(geometryType: .polyline)
        var n = 0
        sketch.onGeometryChanged { _ in n += 1 }
        sketch.undo()
        sketch.redo()
        sketch.clear()
        _ = try? sketch.removeVertex(part: 0, index: 0)
        #expect(n == 0)
    }

    @Test func asyncStreamDeliversChangesInOrder() async throws {
        let sketch = try SketchLayer(geometryType: .polygon)
        let (stream, token) = sketch.geometryChangeStream()
        try sketch.appendVertex(Point(0, 0))
        try sketch.appendVertex(Point(0, 1))
        sketch.undo()
        sketch.redo()
        try sketch.setGeometry(.polygon(Polygon(rings: [])))
        sketch.removeObserver(token)  // finishes the stream
        var reasons: [SketchGeometryChange.Reason] = []
        for await change in stream { reasons.append(change.reason) }
        #expect(reasons == [.edit(.insertVertex), .edit(.insertVertex), .undo, .redo, .replaced])
    }

    @Test func selectionStreamAndHandlers() async throws {
        let sketch = try SketchLayer(geometry: .polyline(Polyline(paths: [[Point(0, 0), Point(1, 0)]])))
        var seen: [SketchSelectionChange] = []
        sketch.onSelectionChanged { seen.append($0) }
        try sketch.select(.vertex(part: 0, index: 1))
        try sketch.select(.vertex(part: 0, index: 1))
        try sketch.removeSelectedVertex()
        sketch.undo()
        #expect(seen == [
            SketchSelectionChange(old: .none, new: .vertex(part: 0, index: 1)),
            SketchSelectionChange(old: .vertex(part: 0, index: 1), new: .vertex(part: 0, index: 0)),
            SketchSelectionChange(old: .vertex(part: 0, index: 0), new: .vertex(part: 0, index: 1)),
        ])
    }

    @Test func aHandlerMayEditAndRegisterDuringAnEvent() throws {
        let sketch = try SketchLayer(geometryType: .multipoint)
        var late = 0
        sketch.onGeometryChanged { change in
            if change.sequence == 1 {
                sketch.onGeometryChanged { _ in late += 1 }
                try? sketch.appendVertex(Point(9, 9))
            }
        }
        try sketch.appendVertex(Point(1, 1))
        #expect(sketch.geometry == .multipoint(Multipoint(points: [Point(1, 1), Point(9, 9)])))
        #expect(sketch.geometryChangeCount == 2)
        #expect(late == 1)
    }
}
