import MapSketch
import MapSketchGeometry
import MapSketchTestSupport
import Testing

/// The programmatic reticle: select, pick up, pan, place — each placement one undo step.
@Suite @MainActor struct ReticleToolTests {
    static let line = Geometry.polyline(Polyline(paths: [[Point(-100, 0), Point(100, 0)]]))

    @Test func pickUpPanAndPlaceMovesTheVertexAsOneStep() throws {
        let h = try SketchHarness(geometry: Self.line)
        try h.sketch.setTool(.reticle)
        h.map.pan(byScreenDeltaX: -100, dy: 0)  // vertex 1 (100, 0) under the centre
        #expect(h.sketch.reticlePoint == Point(100, 0))
        #expect(try h.sketch.reticleSelect() == .vertex(part: 0, index: 1))
        try h.sketch.reticlePickUp()
        #expect(h.sketch.reticlePickedUp == .vertex(part: 0, index: 1))
        h.map.pan(byScreenDeltaX: 0, dy: -50)  // the content moves up: the centre is over (100, −50)
        #expect(h.sketch.geometry == Self.line, "nothing moves before the placement")
        try h.sketch.reticlePlace()
        #expect(h.sketch.geometry.parts == [[Point(-100, 0), Point(100, -50)]])
        #expect(h.sketch.undoCount == 1 && h.sketch.reticlePickedUp == nil)
        #expect(h.changes.map(\.reason) == [.edit(.moveVertex)])
        #expect(h.sketch.undo() && h.sketch.geometry == Self.line)
    }

    @Test func aMidVertexPickedUpBecomesANewVertex() throws {
        let h = try SketchHarness(geometry: Self.line)
        try h.sketch.setTool(.reticle)
        #expect(try h.sketch.reticleSelect() == .midVertex(part: 0, segment: 0))
        try h.sketch.reticlePickUp()
        h.map.pan(byScreenDeltaX: 0, dy: 40)
        try h.sketch.reticlePlace()
        #expect(h.sketch.geometry.parts == [[Point(-100, 0), Point(0, 40), Point(100, 0)]])
        #expect(h.sketch.selection == .vertex(part: 0, index: 1))
    }

    @Test func placingWithNothingPickedUpAddsAVertexAsATapWould() throws {
        let h = try SketchHarness(geometry: Self.line)
        try h.sketch.setTool(.reticle)
        h.map.pan(byScreenDeltaX: 0, dy: 80)
        try h.sketch.reticlePlace()  // nothing selected: appended
        #expect(h.sketch.geometry.parts == [[Point(-100, 0), Point(100, 0), Point(0, 80)]])
        try h.sketch.select(.vertex(part: 0, index: 0))
        h.map.pan(byScreenDeltaX: 0, dy: 20)
        try h.sketch.reticlePlace()  // after the selected vertex
        #expect(h.sketch.geometry.parts == [[Point(-100, 0), Point(0, 100), Point(100, 0), Point(0, 80)]])
        let p = try SketchHarness(geometry: .point(Point(5, 5)))
        try p.sketch.setTool(.reticle)
        try p.sketch.reticlePlace()
        #expect(p.sketch.geometry == .point(Point(0, 0)) && p.changes.map(\.reason) == [.edit(.moveVertex)])
    }

    @Test func selectingNothingPickingNothingAndCancelling() throws {
        let h = try SketchHarness(geometry: Self.line)
        try h.sketch.setTool(.reticle)
        h.map.pan(byScreenDeltaX: 0, dy: 150)
        #expect(try h.sketch.reticleSelect() == .map && h.sketch.selection == .none)
        #expect(throws: SketchError.nothingSelected(operation: .reticlePickUp)) { try h.sketch.reticlePickUp() }
        h.map.pan(byScreenDeltaX: 0, dy: -150)
        try h.sketch.reticleSelect()
        try h.sketch.reticlePickUp()
        try h.sketch.reticleCancel()
        #expect(h.sketch.reticlePickedUp == nil)
        try h.sketch.setTool(.reticle)
        try h.sketch.reticlePickUp()
        try h.sketch.setTool(.vertex)
        #expect(h.sketch.reticlePickedUp == nil, "switching tools puts the pick-up down")
        #expect(h.sketch.geometry == Self.line && h.sketch.undoCount == 0)
    }

    @Test func theReticleCallsNeedTheReticleTool() throws {
        let h = try SketchHarness(geometry: Self.line)
        #expect(throws: SketchError.toolNotActive(needed: "reticle", current: "vertex")) { try h.sketch.reticleSelect() }
        #expect(throws: SketchError.toolNotActive(needed: "reticle", current: "vertex")) { try h.sketch.reticlePlace() }
        let off = try SketchLayer(geometryType: .polyline)
        try off.setTool(.reticle)
        #expect(throws: SketchError.notOnMap(operation: "reticlePlace")) { try off.reticlePlace() }
    }

    @Test func underTheReticleTouchesOnlyMoveTheMap() throws {
        let h = try SketchHarness(geometry: Self.line)
        try h.sketch.setTool(.reticle)
        h.tap(Point(0, 100))
        h.holdAndDrag(at: Point(100, 0), through: [Point(120, 30)])
        #expect(h.sketch.geometry == Self.line && h.changes.isEmpty)
        h.drag([sp(200, 200), sp(260, 200)])
        #expect(h.map.viewport.center == Point(-60, 0))
    }

    @Test func aPlacementARuleRefusesKeepsThePickUp() throws {
        let h = try SketchHarness(geometry: .polyline(Polyline(paths: [[Point(-100, 0), Point(0, 0), Point(0, 100)]])))
        h.sketch.validation = SketchValidation(noSelfIntersection: true)
        try h.sketch.setTool(.reticle)
        h.map.pan(byScreenDeltaX: 0, dy: 100)  // vertex 2 (0, 100) under the centre
        try h.sketch.reticleSelect()
        try h.sketch.reticlePickUp()
        h.map.pan(byScreenDeltaX: 50, dy: -150)  // the centre over (−50, −50)…
        h.map.pan(byScreenDeltaX: 0, dy: 50)  // …then over (−50, 0): segment 1 would fold back onto segment 0
        #expect(throws: SketchError.self) { try h.sketch.reticlePlace() }
        #expect(h.sketch.reticlePickedUp == .vertex(part: 0, index: 2))
        h.map.pan(byScreenDeltaX: 0, dy: 100)
        try h.sketch.reticlePlace()
        #expect(h.sketch.geometry.parts == [[Point(-100, 0), Point(0, 0), Point(-50, 100)]])
    }
}
