import MapSketch
import MapSketchGeometry
import MapSketchTestSupport
import Testing

/// The map x of the arrow's neck in ``SketchToolTests``: screen x 100 + 2 · 200 / 3, less 200.
let neck = 100 + 2 * 200.0 / 3 - 200

/// The freehand and shape tools, and switching tools on one sketch.
@Suite @MainActor struct SketchToolTests {
    // MARK: Freehand

    @Test func aFreehandDragBecomesAPathSimplifiedWithinTheTolerance() throws {
        let h = try SketchHarness(.polyline)
        try h.sketch.setTool(.freehand(tolerance: 2))
        // Along the bottom of the square, wobbling by 1 pt, then up its right side.
        var stroke: [ScreenPoint] = []
        for x in stride(from: 100.0, through: 300, by: 10) { stroke.append(sp(x, x == 300 ? 300 : 300 + (Int(x) % 20 == 0 ? 1 : -1))) }
        for y in stride(from: 290.0, through: 100, by: -10) { stroke.append(sp(y == 100 ? 300 : 301, y)) }
        stroke[0] = sp(100, 300)
        h.drag(stroke)
        #expect(h.sketch.geometry.parts == [[Point(-100, -100), Point(100, -100), Point(100, 100)]])
        #expect(h.sketch.undoCount == 1)
        #expect(h.sketch.selection == .part(0))
        #expect(h.changes.map(\.reason) == [.edit(.freehand)])
        #expect(h.map.viewport.center == Point(0, 0), "the stroke did not pan the map")
    }

    @Test func aFreehandLoopBecomesARingWithoutItsClosingVertex() throws {
        let h = try SketchHarness(.polygon)
        try h.sketch.setTool(.freehand())
        // Round the square clockwise, the top and bottom edges half a point off, the corners exact.
        var loop = [sp(100, 100)]
        for x in stride(from: 120.0, through: 280, by: 20) { loop.append(sp(x, 100.5)) }
        loop.append(sp(300, 100))
        for y in stride(from: 120.0, through: 300, by: 20) { loop.append(sp(300, y)) }
        for x in stride(from: 280.0, through: 120, by: -20) { loop.append(sp(x, 299.5)) }
        loop.append(sp(100, 300))
        for y in stride(from: 280.0, through: 100, by: -20) { loop.append(sp(100, y)) }
        h.drag(loop)
        #expect(h.sketch.geometry.parts == [[Point(-100, 100), Point(100, 100), Point(100, -100), Point(-100, -100)]])
        #expect(h.sketch.hasEnoughVertices)
    }

    @Test func theToleranceIsInPointsAtTheMapsResolution() throws {
        // At 2 map units per point a 1.5 pt wobble is 3 map units: within 2 pt, dropped.
        let h = try SketchHarness(.polyline, resolution: 2)
        try h.sketch.setTool(.freehand(tolerance: 2))
        h.drag([sp(100, 200), sp(150, 201.5), sp(200, 200), sp(250, 198.5), sp(300, 200)])
        #expect(h.sketch.geometry.parts == [[Point(-200, 0), Point(200, 0)]])
        // With a 1 pt tolerance the wobble stays.
        try h.sketch.setTool(.freehand(tolerance: 1))
        h.drag([sp(100, 100), sp(150, 101.5), sp(200, 100)])
        #expect(h.sketch.geometry.parts[1].count == 3)
    }

    @Test func aStrokeFillsAnEmptyLastPartAndUndoesAsOneStep() throws {
        let h = try SketchHarness(geometry: .polyline(Polyline(paths: [[Point(0, 0), Point(10, 0)]])))
        try h.sketch.addPart()
        try h.sketch.setTool(.freehand())
        h.drag([sp(100, 300), sp(150, 300), sp(200, 300)])
        #expect(h.sketch.geometry.parts == [[Point(0, 0), Point(10, 0)], [Point(-100, -100), Point(0, -100)]])
        #expect(h.sketch.undoCount == 2)
        #expect(h.sketch.undo())
        #expect(h.sketch.geometry.parts == [[Point(0, 0), Point(10, 0)], []])
        #expect(h.sketch.redo() && h.sketch.selection == .part(1))
    }

    @Test func cancelledAndTooShortStrokesChangeNothing() throws {
        let h = try SketchHarness(.polygon)
        try h.sketch.setTool(.freehand())
        h.drag([sp(100, 100), sp(200, 100), sp(200, 200)], cancel: true)
        h.drag([sp(100, 100), sp(150, 100), sp(200, 100)])  // a line: no ring
        #expect(h.sketch.geometry.parts.isEmpty && h.sketch.undoCount == 0 && h.changes.isEmpty)
    }

    @Test func aHoldThenADragDrawsAStrokeToo() throws {
        let h = try SketchHarness(.polyline)
        try h.sketch.setTool(.freehand())
        h.holdDrag([sp(100, 200), sp(200, 200), sp(300, 100)])
        #expect(h.sketch.geometry.parts == [[Point(-100, 0), Point(0, 0), Point(100, 100)]])
    }

    @Test func freehandAndShapesDrawOnlyLinesAndPolygons() throws {
        for type in [GeometryType.point, .multipoint] {
            let h = try SketchHarness(type)
            #expect(throws: SketchError.toolUnsupported(tool: "freehand", geometryType: type)) { try h.sketch.setTool(.freehand()) }
            #expect(throws: SketchError.toolUnsupported(tool: "shape", geometryType: type)) { try h.sketch.setTool(.shape(.arrow)) }
            #expect(h.sketch.tool == .vertex)
            try h.sketch.setTool(.reticle)
        }
        let h = try SketchHarness(.polygon)
        #expect(throws: SketchError.self) { try h.sketch.setTool(.freehand(tolerance: -1)) }
        #expect(throws: SketchError.self) { try h.sketch.setTool(.shape(.ellipse(vertexCount: 2))) }
    }

    // MARK: Shapes

    @Test(arguments: [
        (SketchShape.rectangle, [Point(-100, 50), Point(100, 50), Point(100, -50), Point(-100, -50)]),
        (.ellipse(vertexCount: 4), [Point(100, 0), Point(0, -50), Point(-100, 0), Point(0, 50)]),
        (.triangle, [Point(0, 50), Point(100, -50), Point(-100, -50)]),
        // The neck two thirds along: screen x 100 + 2·200/3, map x 33⅓.
        (.arrow, [Point(100, 0), Point(neck, -50), Point(neck, -25), Point(-100, -25), Point(-100, 25), Point(neck, 25), Point(neck, 50)]),
    ])
    func aDragDrawsTheShapeInItsBox(shape: SketchShape, ring: [Point]) throws {
        let h = try SketchHarness(.polygon)
        try h.sketch.setTool(.shape(shape))
        // The box: screen (100, 150)–(300, 250) = map x −100…100, y −50…50.
        h.drag([sp(100, 150), sp(200, 200), sp(300, 250)])
        #expect(h.sketch.geometry.parts == [ring])
        #expect(h.sketch.undoCount == 1 && h.sketch.selection == .part(0))
        #expect(GeometryEngine.area(h.sketch.geometry) > 0, "clockwise: positive Esri area")
    }

    @Test func anArrowPointsTheWayTheDragWent() throws {
        let h = try SketchHarness(.polygon)
        try h.sketch.setTool(.shape(.arrow))
        h.drag([sp(300, 250), sp(200, 200), sp(100, 150)])
        let ring = try #require(h.sketch.geometry.parts.first)
        #expect(ring.first == Point(-100, 0), "the tip is at the left")
        #expect(GeometryEngine.area(h.sketch.geometry) > 0)
    }

    @Test func aPolylineGetsTheClosedOutline() throws {
        let h = try SketchHarness(.polyline)
        try h.sketch.setTool(.shape(.rectangle))
        h.drag([sp(100, 150), sp(300, 250)])
        #expect(h.sketch.geometry.parts == [[Point(-100, 50), Point(100, 50), Point(100, -50), Point(-100, -50), Point(-100, 50)]])
    }

    @Test func aBoxWithoutHeightDrawsNothing() throws {
        let h = try SketchHarness(.polygon)
        try h.sketch.setTool(.shape(.rectangle))
        h.drag([sp(100, 150), sp(300, 150)])
        #expect(h.sketch.geometry.parts.isEmpty && h.sketch.undoCount == 0)
        #expect(SketchShape.ellipse().outline(from: sp(0, 0), to: sp(0, 10)).isEmpty)
    }

    @Test func ellipsesPutEveryVertexOnTheEllipse() {
        let outline = SketchShape.ellipse(vertexCount: 64).outline(from: sp(0, 0), to: sp(300, 100))
        #expect(outline.count == 64)
        for p in outline {
            let u = (p.x - 150) / 150, v = (p.y - 50) / 50
            #expect(abs(u * u + v * v - 1) < 1e-12)
        }
        #expect(outline[0] == sp(300, 50) && outline[16] == sp(150, 100) && outline[32] == sp(0, 50) && outline[48] == sp(150, 0))
    }

    // MARK: Switching

    @Test func switchingToolsKeepsGeometrySelectionAndHistory() throws {
        let h = try SketchHarness(.polyline)
        h.tap(Point(-100, 0))
        h.tap(Point(0, 50))
        try h.sketch.setTool(.freehand())
        #expect(h.sketch.selection == .vertex(part: 0, index: 1) && h.sketch.undoCount == 2)
        h.tap(Point(100, 100))
        #expect(h.sketch.vertices.vertexCount == 2, "taps do nothing under the freehand tool")
        h.drag([sp(100, 300), sp(200, 300), sp(300, 300)])
        try h.sketch.setTool(.shape(.triangle))
        h.drag([sp(100, 350), sp(300, 390)])
        try h.sketch.setTool(.vertex)
        #expect(h.sketch.undoCount == 4)
        #expect(h.sketch.geometry.parts.count == 3)
        for _ in 0..<4 { #expect(h.sketch.undo()) }
        #expect(h.sketch.geometry == .polyline(Polyline(paths: [])))
        for _ in 0..<4 { #expect(h.sketch.redo()) }
        #expect(h.sketch.geometry.parts.count == 3 && h.sketch.selection == .part(2))
    }

    @Test func switchingMidStrokeCommitsTheStroke() throws {
        let h = try SketchHarness(.polyline)
        try h.sketch.setTool(.freehand())
        h.t += 1
        h.map.handle(TouchEvent(time: h.t, id: 1, phase: .began, location: sp(100, 200)))
        h.map.handle(TouchEvent(time: h.t + 0.02, id: 1, phase: .moved, location: sp(200, 200)))
        h.map.handle(TouchEvent(time: h.t + 0.04, id: 1, phase: .moved, location: sp(300, 100)))
        #expect(h.sketch.freehandStroke == [Point(-100, 0), Point(0, 0), Point(100, 100)])
        try h.sketch.setTool(.vertex)
        #expect(h.sketch.geometry.parts == [[Point(-100, 0), Point(0, 0), Point(100, 100)]])
        h.map.handle(TouchEvent(time: h.t + 0.06, id: 1, phase: .ended, location: sp(300, 100)))
        #expect(h.sketch.undoCount == 1, "the lift after the switch adds nothing")
    }

    @Test func drawingByCallMatchesDrawingByTouch() throws {
        let a = try SketchHarness(.polygon)
        let b = try SketchHarness(.polygon)
        try a.sketch.setTool(.shape(.ellipse(vertexCount: 12)))
        a.drag([sp(120, 130), sp(330, 260)])
        try b.sketch.drawShape(.ellipse(vertexCount: 12), from: sp(120, 130), to: sp(330, 260))
        #expect(a.sketch.geometry == b.sketch.geometry)
        let path = [sp(100, 100), sp(150, 120), sp(200, 100), sp(260, 180)]
        try a.sketch.setTool(.freehand(tolerance: 3))
        a.drag(path)
        try b.sketch.drawFreehand(through: path, tolerance: 3)
        #expect(a.sketch.geometry == b.sketch.geometry)
    }
}
