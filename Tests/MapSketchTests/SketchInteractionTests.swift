@_spi(MapSketchInternal) import MapSketch
import MapSketchGeometry
import Testing

/// The interaction rules 1–5 of ``SketchLayer``, driven through raw touches on a map.
@Suite @MainActor struct SketchInteractionTests {
    // Default reach at resolution 1: vertex 10 pt square + 1 pt outline → 5.5 + 10 = 15.5 pt;
    // selected vertex 12 + 1 → 16.5 pt; mid-vertex 8 pt circle → 14 pt.

    @Test func rule1TapsAppendAndSelectTheNewVertex() throws {
        let h = try SketchHarness(.polyline)
        h.tap(Point(0, 0))
        h.tap(Point(100, 0))
        h.tap(Point(100, 100))
        #expect(h.parts == [[Point(0, 0), Point(100, 0), Point(100, 100)]])
        #expect(h.sketch.selection == .vertex(part: 0, index: 2))
        #expect(h.changes.map(\.reason) == Array(repeating: .edit(.insertVertex), count: 3))
        #expect(h.changes.map(\.sequence) == [1, 2, 3])
        #expect(h.selections.map(\.new) == [
            .vertex(part: 0, index: 0), .vertex(part: 0, index: 1), .vertex(part: 0, index: 2),
        ])
        #expect(h.sketch.undoCount == 3)
    }

    @Test func rule1TapAddsAfterTheSelectedVertexWhichItThenBecomes() throws {
        let h = try SketchHarness(geometry: .polyline(Polyline(paths: [[Point(0, 0), Point(100, 0), Point(100, 100)]])))
        #expect(h.sketch.selection == .none)
        h.tap(Point(0, 0))
        #expect(h.sketch.selection == .vertex(part: 0, index: 0))
        h.tap(Point(50, -80))
        h.tap(Point(60, -120))
        #expect(h.parts == [[Point(0, 0), Point(50, -80), Point(60, -120), Point(100, 0), Point(100, 100)]])
        #expect(h.sketch.selection == .vertex(part: 0, index: 2))
        #expect(h.changes.count == 2, "the selecting tap changed nothing")
    }

    @Test func rule1WithNothingSelectedAppendsToTheLastPolygonPart() throws {
        let ring = [Point(0, 0), Point(0, 100), Point(100, 100), Point(100, 0)]
        let h = try SketchHarness(geometry: .polygon(Polygon(rings: [ring])))
        try h.sketch.addPart()
        #expect(h.sketch.selection == .none)
        h.tap(Point(-150, -150))
        h.tap(Point(-150, -120))
        h.tap(Point(-120, -120))
        #expect(h.parts == [ring, [Point(-150, -150), Point(-150, -120), Point(-120, -120)]])
        #expect(h.sketch.selection == .vertex(part: 1, index: 2))
    }

    @Test func rule1PointSketchMovesItsPoint() throws {
        let h = try SketchHarness(.point)
        h.tap(Point(10, 10))
        #expect(h.sketch.geometry == .point(Point(10, 10)))
        h.tap(Point(-50, 30))
        #expect(h.sketch.geometry == .point(Point(-50, 30)))
        #expect(h.changes.map(\.reason) == [.edit(.insertVertex), .edit(.moveVertex)])
        h.sketch.undo()
        #expect(h.sketch.geometry == .point(Point(10, 10)))
        h.sketch.undo()
        #expect(h.sketch.geometry == .point(nil))
        #expect(h.sketch.selection == .none)
    }

    @Test func rule1MultipointTapsAddPoints() throws {
        let h = try SketchHarness(.multipoint)
        h.tap(Point(10, 10))
        h.tap(Point(-60, 30))
        #expect(h.sketch.geometry == .multipoint(Multipoint(points: [Point(10, 10), Point(-60, 30)])))
        h.sketch.undo()
        h.sketch.undo()
        #expect(h.sketch.geometry == .multipoint(Multipoint(points: [])))
        #expect(!h.sketch.canUndo)
    }

    @Test func rule2TapOnAVertexSelectsItWithinHalfItsSizePlusTolerance() throws {
        let h = try SketchHarness(geometry: .polyline(Polyline(paths: [[Point(0, 0), Point(100, 0), Point(100, 100)]])))
        h.tap(Point(0, 15))
        #expect(h.sketch.selection == .vertex(part: 0, index: 0))
        #expect(h.changes.isEmpty)
        #expect(h.parts == [[Point(0, 0), Point(100, 0), Point(100, 100)]])
        #expect(h.selections == [SketchSelectionChange(old: .none, new: .vertex(part: 0, index: 0))])
        try h.sketch.select(.none)
        h.tap(Point(0, -16))
        #expect(h.parts[0].count == 4, "16 pt is beyond the 15.5 pt reach: a new vertex")
    }

    @Test func hitReachScalesWithResolutionAndSymbolSize() throws {
        let h = try SketchHarness(geometry: .polyline(Polyline(paths: [[Point(0, 0), Point(300, 0)]])), resolution: 2)
        h.tap(Point(0, 30))
        #expect(h.sketch.selection == .vertex(part: 0, index: 0), "15.5 pt × 2 map units per pt")
        h.sketch.symbology.vertexSymbol = .simpleMarker(SimpleMarkerSymbol(size: 40))
        try h.sketch.select(.none)
        h.tap(Point(300, 58))
        #expect(h.sketch.selection == .vertex(part: 0, index: 1), "(20 + 10) pt × 2 = 60 map units")
        #expect(h.changes.isEmpty)
    }

    @Test func vertexHitToleranceIsTheSketchsOwnSetting() throws {
        #expect(SketchSymbology().vertexHitTolerance == 10, "the documented default")
        let h = try SketchHarness(geometry: .polyline(Polyline(paths: [[Point(0, 0), Point(300, 0)]])))
        h.sketch.symbology.vertexHitTolerance = 20
        h.tap(Point(0, 25))
        #expect(h.sketch.selection == .vertex(part: 0, index: 0), "5.5 + 20 pt reaches 25 pt")
        #expect(h.sketch.hitReach(in: h.map).vertex == 25.5)
        h.sketch.symbology.vertexHitTolerance = 0
        try h.sketch.select(.none)
        h.tap(Point(300, 6))
        #expect(h.parts[0].count == 3, "with no tolerance only the 5.5 pt marker half reaches: a new vertex")
    }

    @Test func hitPrecedenceSelectedVertexThenVertexThenMidVertex() throws {
        let h = try SketchHarness(geometry: .polyline(Polyline(paths: [[Point(0, 0), Point(12, 0), Point(42, 0)]])))
        h.tap(Point(5, 0))
        #expect(h.sketch.selection == .vertex(part: 0, index: 0), "nearest vertex wins")
        h.tap(Point(14, 0))
        #expect(h.sketch.selection == .vertex(part: 0, index: 0), "the selected vertex is within 16.5 of (14, 0)")
        try h.sketch.select(.none)
        h.tap(Point(14, 0))
        #expect(h.sketch.selection == .vertex(part: 0, index: 1))
        h.tap(Point(5, 0))
        #expect(h.sketch.selection == .vertex(part: 0, index: 1), "the selected vertex wins within its reach")
        // Segment 1's mid-vertex (27, 0) is 7 away from (20, 0); vertex (12, 0) is 8 away: the vertex wins.
        try h.sketch.select(.none)
        h.tap(Point(20, 0))
        #expect(h.sketch.selection == .vertex(part: 0, index: 1))
        #expect(h.changes.isEmpty)
    }

    @Test func rule3MidVertexTapSelectsItAndTheNextTapInsertsThere() throws {
        let h = try SketchHarness(geometry: .polyline(Polyline(paths: [[Point(0, 0), Point(100, 0), Point(100, 100)]])))
        h.tap(Point(50, 0))
        #expect(h.sketch.selection == .midVertex(part: 0, segment: 0))
        #expect(h.changes.isEmpty)
        h.tap(Point(50, -60))
        #expect(h.parts == [[Point(0, 0), Point(50, -60), Point(100, 0), Point(100, 100)]])
        #expect(h.sketch.selection == .vertex(part: 0, index: 1))
        h.sketch.undo()
        #expect(h.parts == [[Point(0, 0), Point(100, 0), Point(100, 100)]])
        #expect(h.sketch.selection == .midVertex(part: 0, segment: 0), "undo restores the selection")
    }

    @Test func rule3PolygonClosingSegmentHasAMidVertex() throws {
        let ring = [Point(0, 0), Point(0, 100), Point(100, 100), Point(100, 0)]
        let h = try SketchHarness(geometry: .polygon(Polygon(rings: [ring])))
        h.tap(Point(50, 0))
        #expect(h.sketch.selection == .midVertex(part: 0, segment: 3))
        h.tap(Point(50, -40))
        #expect(h.parts == [ring + [Point(50, -40)]])
        #expect(h.sketch.selection == .vertex(part: 0, index: 4))
    }

    @Test func rule4HoldOnTheSelectedVertexThenDragMovesItAsOneStep() throws {
        let h = try SketchHarness(geometry: .polyline(Polyline(paths: [[Point(0, 0), Point(100, 0)]])))
        h.map.showMagnifierOnTapAndHold = true
        h.tap(Point(100, 0))
        let center = h.map.viewport.center
        h.holdAndDrag(at: Point(100, 0), through: [Point(120, 20), Point(150, 50)])
        #expect(h.parts == [[Point(0, 0), Point(150, 50)]])
        #expect(h.changes.map(\.reason) == [.dragMoved, .dragMoved, .edit(.moveVertex)])
        #expect(h.sketch.undoCount == 1)
        #expect(h.map.viewport.center == center, "no pan during a drag")
        #expect(h.magnifier == [
            .show(ScreenPoint(x: 300, y: 200)), .move(ScreenPoint(x: 320, y: 180)),
            .move(ScreenPoint(x: 350, y: 150)), .hide,
        ])
        h.sketch.undo()
        #expect(h.parts == [[Point(0, 0), Point(100, 0)]])
        #expect(h.sketch.selection == .vertex(part: 0, index: 1))
        h.sketch.redo()
        #expect(h.parts == [[Point(0, 0), Point(150, 50)]])
    }

    @Test func rule4NoMagnifierUnlessEnabled() throws {
        let h = try SketchHarness(geometry: .polyline(Polyline(paths: [[Point(0, 0), Point(100, 0)]])))
        h.tap(Point(0, 0))
        h.holdAndDrag(at: Point(0, 0), through: [Point(-30, 0)])
        #expect(h.parts == [[Point(-30, 0), Point(100, 0)]])
        #expect(h.magnifier.isEmpty)
    }

    @Test func rule4HoldElsewhereThanTheSelectedVertexDoesNothing() throws {
        let h = try SketchHarness(geometry: .polyline(Polyline(paths: [[Point(0, 0), Point(100, 0)]])))
        h.map.showMagnifierOnTapAndHold = true
        h.holdAndDrag(at: Point(100, 0), through: [Point(150, 50)])
        #expect(h.parts == [[Point(0, 0), Point(100, 0)]], "vertex 1 was not selected")
        h.tap(Point(0, 0))
        h.holdAndDrag(at: Point(100, 0), through: [Point(150, 50)])
        h.holdAndDrag(at: Point(-100, -100), through: [Point(-150, 50)])
        #expect(h.parts == [[Point(0, 0), Point(100, 0)]])
        #expect(h.changes.isEmpty)
        #expect(h.magnifier.isEmpty)
        #expect(!h.sketch.canUndo)
    }

    @Test func rule4CancelledDragPutsTheVertexBack() throws {
        let h = try SketchHarness(geometry: .polygon(Polygon(rings: [[Point(0, 0), Point(0, 100), Point(100, 100)]])))
        h.tap(Point(0, 100))
        h.holdAndDrag(at: Point(0, 100), through: [Point(-50, 150)], cancel: true)
        #expect(h.parts == [[Point(0, 0), Point(0, 100), Point(100, 100)]])
        #expect(h.changes.map(\.reason) == [.dragMoved, .dragCancelled])
        #expect(!h.sketch.canUndo)
    }

    @Test func rule4HoldWithoutMovingRecordsNothing() throws {
        let h = try SketchHarness(geometry: .polyline(Polyline(paths: [[Point(0, 0), Point(100, 0)]])))
        h.tap(Point(0, 0))
        h.holdAndDrag(at: Point(0, 0), through: [])
        #expect(h.changes.isEmpty)
        #expect(!h.sketch.canUndo)
    }

    @Test func rule5MovingBeforeTheHoldPansAndTwoFingersZoom() throws {
        let h = try SketchHarness(geometry: .polyline(Polyline(paths: [[Point(0, 0), Point(100, 0)]])))
        h.tap(Point(0, 0))
        h.pan(from: ScreenPoint(x: 200, y: 200), to: ScreenPoint(x: 250, y: 200))
        #expect(h.map.viewport.center == Point(-50, 0))
        #expect(h.parts == [[Point(0, 0), Point(100, 0)]], "a pan starting on the selected vertex moves the map, not the vertex")
        #expect(h.changes.isEmpty)
        h.t += 1
        h.map.handle(TouchEvent(time: h.t, id: 1, phase: .began, x: 100, y: 200))
        h.map.handle(TouchEvent(time: h.t + 0.01, id: 2, phase: .began, x: 300, y: 200))
        h.map.handle(TouchEvent(time: h.t + 0.05, id: 2, phase: .moved, x: 500, y: 200))
        h.map.handle(TouchEvent(time: h.t + 0.1, id: 2, phase: .ended, x: 500, y: 200))
        h.map.handle(TouchEvent(time: h.t + 0.1, id: 1, phase: .ended, x: 100, y: 200))
        #expect(h.map.viewport.resolution == 0.5)
        #expect(h.changes.isEmpty)
    }

    @Test func delegateAnswers() throws {
        let h = try SketchHarness(geometry: .polyline(Polyline(paths: [[Point(0, 0), Point(100, 0)]])))
        #expect(!h.sketch.mapViewShouldShowCallouts(h.map))
        #expect(h.sketch.mapViewShouldPan(h.map))
        h.tap(Point(0, 0))
        h.map.handle(TouchEvent(time: 50, id: 1, phase: .began, x: 200, y: 200))
        h.map.advanceTime(to: 51)
        #expect(h.sketch.isDragging)
        #expect(!h.sketch.mapViewShouldPan(h.map), "no pan while dragging")
        h.map.handle(TouchEvent(time: 51.1, id: 1, phase: .ended, x: 200, y: 200))
        #expect(!h.sketch.isDragging)
    }
}
