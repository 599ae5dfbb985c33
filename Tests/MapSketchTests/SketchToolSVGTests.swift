import MapSketch
import MapSketchGeometry
import Testing

/// What the tools draw over the sketch in the SVG: the handle box and handles, the stroke and the
/// shape while they are drawn, the reticle; and a handle drag drawn as it will be released.
@Suite @MainActor struct SketchToolSVGTests {
    static let square = Geometry.polygon(Polygon(rings: [[Point(-100, -100), Point(-100, 100), Point(100, 100), Point(100, -100)]]))

    /// The markers drawn inside the group `id` (empty when the group is not drawn).
    static func group(_ id: String, in svg: String) -> String? {
        guard let start = svg.range(of: "<g id=\"\(id)\">") else { return nil }
        let rest = svg[start.upperBound...]
        guard let end = rest.range(of: "</g>") else { return nil }
        return String(rest[..<end.lowerBound])
    }

    @Test func handlesAreDrawnOnlyForAPartOrTheGeometryAndNotUnderTheReticle() throws {
        let h = try SketchHarness(geometry: Self.square)
        #expect(Self.group("sketch-handles", in: h.map.renderSVG()) == nil)
        try h.sketch.select(.vertex(part: 0, index: 0))
        #expect(Self.group("sketch-handles", in: h.map.renderSVG()) == nil)
        try h.sketch.selectGeometry()
        let handles = try #require(Self.group("sketch-handles", in: h.map.renderSVG()))
        // The box (−110…110 map) is screen 90…310; the rotate handle 30 pt above it at (200, 60),
        // joined to the top edge; the move handle at the centre.
        #expect(handles.contains("90") && handles.contains("310") && handles.contains("60"))
        #expect(h.sketch.transformHandles(in: h.map).map(\.position) == [
            sp(200, 60), sp(90, 90), sp(310, 90), sp(310, 310), sp(90, 310), sp(200, 200),
        ])
        try h.sketch.setTool(.reticle)
        let svg = h.map.renderSVG()
        #expect(Self.group("sketch-handles", in: svg) == nil)
        #expect(Self.group("sketch-reticle", in: svg) != nil)
    }

    @Test func aHandleDragIsDrawnAsItWillBeReleased() throws {
        let h = try SketchHarness(geometry: Self.square)
        try h.sketch.selectGeometry()
        let before = h.map.renderSVG()
        // Down on the move handle and moved, not released: the store is untouched, the picture moves.
        h.map.handle(TouchEvent(time: 1, id: 1, phase: .began, location: sp(200, 200)))
        h.map.handle(TouchEvent(time: 1.05, id: 1, phase: .moved, location: sp(220, 190)))
        h.map.handle(TouchEvent(time: 1.1, id: 1, phase: .moved, location: sp(240, 180)))
        let moved = GeometryEngine.transform(Self.square, by: .translation(dx: 40, dy: 20))
        #expect(try h.sketch.vertices.vertex(part: 0, index: 0) == Point(-100, -100), "the store changes on release only")
        #expect(h.sketch.undoCount == 0 && h.sketch.geometry == moved, "the geometry shows the drag")
        let during = h.map.renderSVG()
        #expect(during != before)
        h.map.handle(TouchEvent(time: 1.15, id: 1, phase: .ended, location: sp(240, 180)))
        #expect(h.sketch.geometry == moved && h.sketch.undoCount == 1)
        #expect(h.map.renderSVG() == during, "the drag was drawn exactly as it was released")
    }

    @Test func theStrokeAndTheShapeAreDrawnWhileTheFingerIsDown() throws {
        let h = try SketchHarness(.polygon)
        try h.sketch.setTool(.freehand(tolerance: 2))
        h.map.handle(TouchEvent(time: 1, id: 1, phase: .began, location: sp(100, 100)))
        h.map.handle(TouchEvent(time: 1.05, id: 1, phase: .moved, location: sp(200, 120)))
        h.map.handle(TouchEvent(time: 1.1, id: 1, phase: .moved, location: sp(250, 250)))
        #expect(h.sketch.freehandStroke == [Point(-100, 100), Point(0, 80), Point(50, -50)])
        #expect(Self.group("sketch-stroke", in: h.map.renderSVG()) != nil)
        h.map.handle(TouchEvent(time: 1.15, id: 1, phase: .ended, location: sp(250, 250)))
        #expect(Self.group("sketch-stroke", in: h.map.renderSVG()) == nil)
        #expect(h.sketch.freehandStroke.isEmpty && h.sketch.undoCount == 1)

        try h.sketch.setTool(.shape(.triangle))
        h.map.handle(TouchEvent(time: 2, id: 1, phase: .began, location: sp(300, 300)))
        h.map.handle(TouchEvent(time: 2.05, id: 1, phase: .moved, location: sp(350, 350)))
        let shape = try #require(Self.group("sketch-shape", in: h.map.renderSVG()))
        #expect(!shape.isEmpty)
        h.map.handle(TouchEvent(time: 2.1, id: 1, phase: .cancelled, location: sp(350, 350)))
        #expect(Self.group("sketch-shape", in: h.map.renderSVG()) == nil)
        #expect(h.sketch.undoCount == 1, "a cancelled shape adds nothing")
    }
}
