@_spi(MapSketchInternal) import MapSketch
import MapSketchGeometry
import MapSketchTestSupport
import Testing

extension SketchHarness {
    /// One finger down at `screen[0]`, moved through the rest at once (before any hold), then
    /// lifted (or cancelled): a drag the layer may take.
    func drag(_ screen: [ScreenPoint], cancel: Bool = false) {
        t += 1
        guard let first = screen.first else { return }
        map.handle(TouchEvent(time: t, id: 1, phase: .began, location: first))
        for p in screen.dropFirst() {
            t += 0.02
            map.handle(TouchEvent(time: t, id: 1, phase: .moved, location: p))
        }
        t += 0.02
        map.handle(TouchEvent(time: t, id: 1, phase: cancel ? .cancelled : .ended, location: screen.last ?? first))
    }

    /// Down at `screen[0]`, held still past the hold duration, moved through the rest, lifted.
    func holdDrag(_ screen: [ScreenPoint]) {
        t += 1
        guard let first = screen.first else { return }
        map.handle(TouchEvent(time: t, id: 1, phase: .began, location: first))
        t += 0.6
        map.advanceTime(to: t)
        for p in screen.dropFirst() {
            t += 0.05
            map.handle(TouchEvent(time: t, id: 1, phase: .moved, location: p))
        }
        t += 0.05
        map.handle(TouchEvent(time: t, id: 1, phase: .ended, location: screen.last ?? first))
    }
}

func sp(_ x: Double, _ y: Double) -> ScreenPoint { ScreenPoint(x: x, y: y) }

/// Whole-geometry and part transforms: by call and by handle, each one undo step, undone and
/// redone bit for bit.
@Suite @MainActor struct SketchTransformTests {
    /// A clockwise 200 × 200 square on the origin: screen (100, 100)–(300, 300).
    static let square = Geometry.polygon(Polygon(rings: [[Point(-100, -100), Point(-100, 100), Point(100, 100), Point(100, -100)]]))
    static let quarterTurned = Geometry.polygon(Polygon(rings: [[Point(100, -100), Point(-100, -100), Point(-100, 100), Point(100, 100)]]))

    @Test func rotatingTheSquareAQuarterTurnGivesItsCornersExactly() throws {
        let h = try SketchHarness(geometry: Self.square)
        try h.sketch.selectGeometry()
        try h.sketch.rotateSelection(degrees: 90)
        #expect(h.sketch.geometry == Self.quarterTurned)
        #expect(h.sketch.undoCount == 1)
        #expect(h.sketch.selection == .geometry, "a transform keeps the selection")
        #expect(h.changes.last?.reason == .edit(.transform))
        #expect(h.sketch.undo())
        #expect(h.sketch.geometry == Self.square)
        #expect(h.sketch.redo())
        #expect(h.sketch.geometry == Self.quarterTurned)
    }

    @Test func partTransformsLeaveTheOtherPartsAlone() throws {
        let g = Geometry.polyline(Polyline(paths: [[Point(0, 0), Point(10, 0)], [Point(0, 5), Point(10, 5)]]))
        let h = try SketchHarness(geometry: g)
        try h.sketch.selectPart(1)
        try h.sketch.scaleSelection(x: 2, y: 3, anchor: Point(0, 0))
        #expect(h.sketch.geometry.parts == [[Point(0, 0), Point(10, 0)], [Point(0, 15), Point(20, 15)]])
        try h.sketch.moveSelection(dx: -1, dy: 1)
        #expect(h.sketch.geometry.parts[1] == [Point(-1, 16), Point(19, 16)])
        // About the part's own centroid (5, 5 → the midpoint of its one segment) by default.
        #expect(h.sketch.undo() && h.sketch.undo())
        try h.sketch.rotateSelection(degrees: 180)
        #expect(h.sketch.geometry.parts[1] == [Point(10, 5), Point(0, 5)])
        #expect(h.sketch.undoCount == 1)
    }

    @Test func aTransformNeedsAPartOrTheGeometrySelected() throws {
        let h = try SketchHarness(geometry: Self.square)
        try h.sketch.select(.vertex(part: 0, index: 1))
        #expect(throws: SketchError.nothingSelected(operation: .transform)) { try h.sketch.moveSelection(dx: 1, dy: 1) }
        #expect(
            SketchError.nothingSelected(operation: .transform).description
                == "transform needs a selected part or the selected geometry")
        #expect(h.sketch.geometry == Self.square && h.sketch.undoCount == 0)
        #expect(throws: SketchError.invalidSelection(.part(1))) { try h.sketch.selectPart(1) }
        let empty = try SketchHarness(.polygon)
        #expect(throws: SketchError.invalidSelection(.geometry)) { try empty.sketch.selectGeometry() }
    }

    @Test func anIdentityTransformRecordsNothing() throws {
        let h = try SketchHarness(geometry: Self.square)
        try h.sketch.selectGeometry()
        try h.sketch.rotateSelection(degrees: 360)
        try h.sketch.moveSelection(dx: 0, dy: 0)
        try h.sketch.scaleSelection(x: 1, y: 1)
        #expect(h.sketch.undoCount == 0 && h.changes.isEmpty)
    }

    @Test func aTransformThatWouldOverflowIsRefusedAndChangesNothing() throws {
        let h = try SketchHarness(geometry: Self.square)
        try h.sketch.selectGeometry()
        #expect(throws: GeometryError.nonFiniteCoordinate(part: 0, index: 0)) {
            try h.sketch.scaleSelection(x: 1e307, y: 1, anchor: Point(0, 0))
        }
        #expect(h.sketch.geometry == Self.square && h.sketch.undoCount == 0)
    }

    @Test func tapsAppendToTheSelectedPart() throws {
        let g = Geometry.polyline(Polyline(paths: [[Point(-150, 0), Point(-100, 0)], [Point(100, 0), Point(150, 0)]]))
        let h = try SketchHarness(geometry: g)
        try h.sketch.selectPart(0)
        h.tap(Point(-100, 100))
        #expect(h.sketch.geometry.parts[0] == [Point(-150, 0), Point(-100, 0), Point(-100, 100)])
        #expect(h.sketch.selection == .vertex(part: 0, index: 2))
    }

    // MARK: Handles

    @Test func handlesSitOnTheSelectionsScreenBox() throws {
        let h = try SketchHarness(geometry: Self.square)
        #expect(h.sketch.transformHandles(in: h.map).isEmpty, "no handles without a part or geometry selected")
        try h.sketch.selectGeometry()
        // The square covers screen (100, 100)–(300, 300); the box is 10 pt outside it.
        #expect(
            h.sketch.transformHandles(in: h.map) == [
                SketchHandle(kind: .rotate, position: sp(200, 60)),
                SketchHandle(kind: .scale, position: sp(90, 90)), SketchHandle(kind: .scale, position: sp(310, 90)),
                SketchHandle(kind: .scale, position: sp(310, 310)), SketchHandle(kind: .scale, position: sp(90, 310)),
                SketchHandle(kind: .move, position: sp(200, 200)),
            ])
        // Hit like vertices: within half the marker (12 pt move handle: 6 + 1 outline/2…) plus 10 pt.
        #expect(h.sketch.handleHit(at: sp(214, 200), in: h.map)?.kind == .move)
        #expect(h.sketch.handleHit(at: sp(200, 230), in: h.map) == nil)
        #expect(h.sketch.handleHit(at: sp(305, 95), in: h.map) == SketchHandle(kind: .scale, position: sp(310, 90)))
        try h.sketch.setTool(.reticle)
        #expect(h.sketch.transformHandles(in: h.map).isEmpty, "the reticle tool shows no handles")
    }

    @Test func draggingTheMoveHandleMovesTheGeometryAsOneStep() throws {
        let h = try SketchHarness(geometry: Self.square)
        try h.sketch.selectGeometry()
        h.drag([sp(200, 200), sp(210, 205), sp(230, 215), sp(250, 230)])
        #expect(h.sketch.geometry == GeometryEngine.transform(Self.square, by: .translation(dx: 50, dy: -30)))
        #expect(h.map.viewport.center == Point(0, 0), "the map did not pan")
        #expect(h.sketch.undoCount == 1)
        #expect(h.changes.map(\.reason) == [.dragMoved, .dragMoved, .dragMoved, .edit(.transform)])
        #expect(h.sketch.undo() && h.sketch.geometry == Self.square)
    }

    @Test func draggingTheRotateHandleAQuarterTurnIsExact() throws {
        let h = try SketchHarness(geometry: Self.square)
        try h.sketch.selectGeometry()
        // From map (0, 140) to (−140, 0) seen from the centroid (0, 0): a quarter turn.
        h.drag([sp(200, 60), sp(120, 80), sp(60, 200)])
        #expect(h.sketch.geometry == Self.quarterTurned)
    }

    @Test func draggingAScaleHandleScalesUniformlyAboutTheCentroid() throws {
        let h = try SketchHarness(geometry: Self.square)
        try h.sketch.selectGeometry()
        // The top-right handle at map (110, 110) dragged to (55, 55): half the distance.
        h.drag([sp(310, 90), sp(280, 120), sp(255, 145)])
        #expect(h.sketch.geometry == .polygon(Polygon(rings: [[Point(-50, -50), Point(-50, 50), Point(50, 50), Point(50, -50)]])))
    }

    @Test func theTransformAnchorReplacesTheCentroid() throws {
        let h = try SketchHarness(geometry: Self.square)
        try h.sketch.selectGeometry()
        h.sketch.transformAnchor = Point(-100, -100)
        // Rotate handle at map (0, 140): from (100, 240) to (−240, 100) seen from (−100, −100),
        // that is to map (−340, 0), screen (−140, 200): a quarter turn.
        h.drag([sp(200, 60), sp(-40, 100), sp(-140, 200)])
        #expect(
            h.sketch.geometry
                == GeometryEngine.transform(Self.square, by: .rotation(degrees: 90, about: Point(-100, -100))))
    }

    @Test func aHoldOnAHandleThenADragTransformsToo() throws {
        let h = try SketchHarness(geometry: Self.square)
        try h.sketch.selectPart(0)
        h.holdDrag([sp(200, 200), sp(220, 200), sp(240, 180)])
        #expect(h.sketch.geometry == GeometryEngine.transform(Self.square, by: .translation(dx: 40, dy: 20)))
        #expect(h.sketch.undoCount == 1)
    }

    @Test func aCancelledHandleDragChangesNothing() throws {
        let h = try SketchHarness(geometry: Self.square)
        try h.sketch.selectGeometry()
        h.drag([sp(200, 200), sp(250, 250)], cancel: true)
        #expect(h.sketch.geometry == Self.square && h.sketch.undoCount == 0)
        #expect(h.changes.map(\.reason) == [.dragMoved, .dragCancelled])
    }

    @Test func aDragOffTheHandlesStillPans() throws {
        let h = try SketchHarness(geometry: Self.square)
        try h.sketch.selectGeometry()
        h.drag([sp(20, 380), sp(60, 380)])
        #expect(h.sketch.geometry == Self.square)
        #expect(h.map.viewport.center == Point(-40, 0))
    }

    /// The moves of a drag never touch the geometry: the store is the one the drag began with
    /// (the same chunks) until the release, when the transform is applied once.
    @Test func movesOnlyReplaceTheGesturesTransform() throws {
        var e = try SketchEditor(geometry: Self.square)
        try e.select(.geometry)
        let before = e.store
        try e.beginTransform(.move, of: .geometry, at: Point(0, 0))
        for i in 1...100 {
            let moved = e.updateTransform(to: Point(Double(i), 0))
            #expect(moved)
        }
        #expect(e.store == before)
        #expect(e.geometry == GeometryEngine.transform(Self.square, by: .translation(dx: 100, dy: 0)))
        let recorded = e.endTransform(at: Point(100, 0))
        #expect(recorded)
        #expect(e.history.undoCount == 1)
        let after = e.updateTransform(to: Point(5, 5))
        #expect(!after, "no gesture after the release")
    }

    @Test func anotherCallCommitsTheTransformUnderWay() throws {
        var e = try SketchEditor(geometry: Self.square)
        try e.beginTransform(.move, of: .part(0), at: Point(0, 0))
        e.updateTransform(to: Point(0, 10))
        try e.insertVertex(Point(0, 200), part: 0, at: 2)
        #expect(e.history.undoCount == 2)
        let undone = e.undo() && e.undo()
        #expect(undone && e.geometry == Self.square)
    }
}
