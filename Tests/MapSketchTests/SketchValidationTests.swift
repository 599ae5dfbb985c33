@_spi(MapSketchInternal) @testable import MapSketch
import MapSketchGeometry
import MapSketchTestSupport
import Testing

/// Validation hooks: built-in rules and the closure, consulted before an edit commits; a
/// rejected edit leaves geometry and history (redo included) as they were and is posted.
@Suite @MainActor struct SketchValidationTests {
    static let square = Geometry.polygon(Polygon(rings: [[Point(-100, -100), Point(-100, 100), Point(100, 100), Point(100, -100)]]))

    final class Rejections {
        var all: [SketchEditRejection] = []
    }

    func watch(_ h: SketchHarness) -> Rejections {
        let r = Rejections()
        h.sketch.onEditRejected { r.all.append($0) }
        return r
    }

    @Test func maximumVerticesRefusesTheVertexTooMany() throws {
        let h = try SketchHarness(.polyline)
        h.sketch.validation = SketchValidation(maximumVertices: 3)
        let r = watch(h)
        for x in [100.0, 200, 300, 350] { h.tapScreen(sp(x, 100)) }
        #expect(h.sketch.vertices.vertexCount == 3 && h.sketch.undoCount == 3)
        #expect(r.all.map(\.rule) == [.maximumVertices])
        #expect(r.all.first?.kind == .insertVertex)
        #expect(r.all.first?.reason == "the edit would leave 4 vertices; at most 3 are allowed")
        // A call throws the same rejection; moving and removing are still fine.
        #expect(throws: SketchError.self) { try h.sketch.insertVertex(Point(0, 0), part: 0, at: 0) }
        try h.sketch.moveVertex(part: 0, index: 0, to: Point(-150, 50))
        #expect(r.all.count == 2)
    }

    @Test func aRejectedEditKeepsTheRedoSteps() throws {
        let h = try SketchHarness(geometry: .polyline(Polyline(paths: [[Point(0, 0), Point(10, 0)]])))
        try h.sketch.insertVertex(Point(20, 0), part: 0, at: 2)
        #expect(h.sketch.undo())
        h.sketch.validation = SketchValidation(maximumVertices: 2)
        let selection = h.sketch.selection
        #expect(throws: SketchError.self) { try h.sketch.insertVertex(Point(5, 5), part: 0, at: 1) }
        #expect(h.sketch.redoCount == 1 && h.sketch.undoCount == 0)
        #expect(h.sketch.selection == selection)
        #expect(h.sketch.geometry == .polyline(Polyline(paths: [[Point(0, 0), Point(10, 0)]])))
    }

    @Test func noSelfIntersectionRefusesACrossingTapAndACrossingMove() throws {
        let h = try SketchHarness(.polyline)
        h.sketch.validation = SketchValidation(noSelfIntersection: true)
        let r = watch(h)
        for p in [sp(100, 200), sp(300, 200), sp(200, 100)] { h.tapScreen(p) }
        h.tapScreen(sp(200, 300))  // from (200, 100) down across the first segment
        #expect(h.sketch.vertices.vertexCount == 3)
        #expect(r.all.map(\.reason) == ["segment 2 of part 0 would cross segment 0 of part 0 at (0 0)"])
        // Moving vertex 2 below the first segment makes segment 1 cross nothing (it shares vertex 1).
        try h.sketch.moveVertex(part: 0, index: 2, to: Point(0, -100))
        // Back on the first segment: touching it is refused too.
        #expect(throws: SketchError.self) { try h.sketch.moveVertex(part: 0, index: 2, to: Point(-50, 0)) }
        #expect(h.sketch.geometry.parts == [[Point(-100, 0), Point(100, 0), Point(0, -100)]])
    }

    @Test func neighboursMayMeetButNotFoldBack() throws {
        var e = try SketchEditor(geometry: .polyline(Polyline(paths: [[Point(0, 0), Point(10, 0)]])))
        e.validation = SketchValidation(noSelfIntersection: true)
        try e.insertVertex(Point(10, 10), part: 0, at: 2)
        // Back along the last segment: an overlap with its neighbour.
        #expect(throws: SketchError.self) { try e.insertVertex(Point(10, 5), part: 0, at: 3) }
        // Closing the path on its start is allowed (a closed path meets itself only there).
        try e.insertVertex(Point(0, 0), part: 0, at: 3)
        #expect(e.store.vertexCount == 4)
        // Parts may not touch: a segment of a new part through the first part's vertex (10, 10).
        try e.addPart()
        try e.appendVertex(Point(20, 0))
        #expect(throws: SketchError.self) { try e.appendVertex(Point(0, 20)) }
    }

    @Test func ringsCheckTheirClosingSegment() throws {
        var e = try SketchEditor(geometry: Self.square)
        e.validation = SketchValidation(noSelfIntersection: true)
        // Vertex 3 moved past the left side: segment 2 (from vertex 2) crosses segment 0.
        #expect(throws: SketchError.self) { try e.moveVertex(part: 0, index: 3, to: Point(-200, 0)) }
        // Removing vertex 0 makes a new closing segment (3 → 1): a simple triangle.
        try e.removeVertex(part: 0, index: 0)
        #expect(e.store.vertexCount == 3)
    }

    @Test func minimumAreaKeepsAPolygonFromShrinkingBelowIt() throws {
        let h = try SketchHarness(geometry: Self.square)
        h.sketch.validation = SketchValidation(minimumArea: 30_000)
        let r = watch(h)
        // 40,000 → 30,000 (vertex 2 in to (0, 100) cuts a 100 × 200 / 2 triangle... exactly 10,000 off).
        try h.sketch.moveVertex(part: 0, index: 2, to: Point(0, 100))
        #expect(GeometryEngine.area(h.sketch.geometry) == 30_000)
        #expect(throws: SketchError.self) { try h.sketch.moveVertex(part: 0, index: 2, to: Point(-10, 100)) }
        #expect(r.all.map(\.rule) == [.minimumArea])
        // Growing is always fine, and a polygon drawn from nothing grows freely past small areas.
        var e = try SketchEditor(type: .polygon)
        e.validation = SketchValidation(minimumArea: 30_000)
        try e.appendVertex(Point(0, 0))
        try e.appendVertex(Point(0, 1))
        try e.appendVertex(Point(1, 1))
        try e.removeVertex(part: 0, index: 2)
        #expect(e.store.vertexCount == 2)
    }

    @Test func minimumLengthKeepsALineFromShrinkingBelowIt() throws {
        var e = try SketchEditor(geometry: .polyline(Polyline(paths: [[Point(-100, 0), Point(0, 0), Point(100, 0)]])))
        e.validation = SketchValidation(minimumLength: 150)
        #expect(throws: SketchError.self) { try e.moveVertex(part: 0, index: 2, to: Point(-40, 0)) }
        #expect(throws: SketchError.self) { try e.removeVertex(part: 0, index: 0) }
        try e.moveVertex(part: 0, index: 2, to: Point(60, 0))  // 160
        #expect(e.store.vertexCount == 3)
    }

    @Test func aDragReleaseThatBreaksARulePutsTheVertexBack() throws {
        let h = try SketchHarness(geometry: .polyline(Polyline(paths: [[Point(-100, 0), Point(0, 0), Point(100, 0), Point(100, 100)]])))
        h.sketch.validation = SketchValidation(noSelfIntersection: true)
        let r = watch(h)
        try h.sketch.select(.vertex(part: 0, index: 3))
        // Released on the line: the last segment would fold back over the others.
        h.holdAndDrag(at: Point(100, 100), through: [Point(0, 50), Point(-50, 0)])
        #expect(h.sketch.geometry.parts[0][3] == Point(100, 100))
        #expect(h.sketch.undoCount == 0)
        #expect(r.all.map(\.rule) == [.noSelfIntersection])
        #expect(h.changes.last?.reason == .dragCancelled)
    }

    @Test func transformsStrokesAndShapesAreChecked() throws {
        let g = Geometry.polygon(Polygon(rings: [[Point(-100, -100), Point(-100, 0), Point(0, 0), Point(0, -100)], [Point(50, 50), Point(50, 90), Point(90, 90), Point(90, 50)]]))
        let h = try SketchHarness(geometry: g)
        h.sketch.validation = SketchValidation(noSelfIntersection: true, maximumVertices: 12)
        let r = watch(h)
        try h.sketch.selectPart(1)
        #expect(throws: SketchError.self) { try h.sketch.moveSelection(dx: -100, dy: -70) }  // across part 0's top
        try h.sketch.moveSelection(dx: 10, dy: 10)
        try h.sketch.setTool(.shape(.ellipse(vertexCount: 8)))
        h.drag([sp(20, 20), sp(120, 120)])  // 8 more vertices: 16 > 12
        #expect(h.sketch.geometry.parts.count == 2 && h.sketch.undoCount == 1)
        #expect(r.all.map(\.rule) == [.noSelfIntersection, .maximumVertices])
        #expect(r.all.map(\.kind) == [.transform, .shape])
        // A handle drag refused on release: the geometry stays as it was.
        try h.sketch.setTool(.vertex)
        try h.sketch.selectPart(1)
        let before = h.sketch.geometry
        let move = try #require(h.sketch.transformHandles(in: h.map).last)
        h.drag([move.position, sp(move.position.x - 110, move.position.y + 80)])  // across part 0's top again
        #expect(h.sketch.geometry == before && r.all.count == 3)
    }

    @Test func theClosureSeesTheEditAndNamesItsReason() throws {
        var e = try SketchEditor(geometry: .polyline(Polyline(paths: [[Point(0, 0), Point(10, 0)]])))
        e.validation.custom = { proposal in
            guard let last = proposal.after.parts.last?.last else { return nil }
            return last.y < 0 ? "no vertex below the axis at the end (\(proposal.kind), part \(proposal.part ?? -1))" : nil
        }
        try e.appendVertex(Point(20, 5))
        #expect(throws: SketchError.editRejected(SketchEditRejection(rule: .custom, kind: .insertVertex, reason: "no vertex below the axis at the end (insert vertex, part 0)"))) {
            try e.appendVertex(Point(30, -5))
        }
        #expect(e.store.vertexCount == 3)
        #expect(
            SketchError.editRejected(SketchEditRejection(rule: .maximumVertices, kind: .shape, reason: "r")).description
                == "the shape edit was rejected by rule maximumVertices: r")
    }

    @Test func clearUndoRedoAndSetGeometryAreNotChecked() throws {
        var e = try SketchEditor(geometry: Self.square)
        e.validation = SketchValidation(minimumArea: 1000, maximumVertices: 2)
        let cleared = e.clear()
        let restored = e.undo() && e.redo() && e.undo()
        #expect(cleared && restored)
        try e.setGeometry(Self.square)
        #expect(e.store.vertexCount == 4)
    }

    /// The running area and length agree with measures taken from scratch after thousands of
    /// random vertex edits (the rules would otherwise judge a different geometry).
    @Test func runningMeasuresMatchFreshOnesUnderRandomEdits() throws {
        var rng = SeededRandom(seed: 44)
        var e = try SketchEditor(geometry: Self.square)
        e.validation = SketchValidation(minimumArea: 1, minimumLength: 1)
        for _ in 0..<3000 {
            let n = e.store.vertexCount
            let p = Point(rng.double(in: -300...300), rng.double(in: -300...300))
            switch rng.int(in: 0...2) {
            case 0: try? e.insertVertex(p, part: 0, at: rng.int(in: 0...n))
            case 1 where n > 0: try? e.moveVertex(part: 0, index: rng.int(in: 0...(n - 1)), to: p)
            default: if n > 3 { try? e.removeVertex(part: 0, index: rng.int(in: 0...(n - 1))) }
            }
        }
        let area = GeometryEngine.area(e.geometry)
        let length = GeometryEngine.length(e.geometry)
        let kept = try #require(e.measureCache)
        #expect(abs(kept.area - area) <= 1e-6 * max(1, abs(area)))
        #expect(abs(kept.length - length) <= 1e-9 * max(1, length))
    }
}
