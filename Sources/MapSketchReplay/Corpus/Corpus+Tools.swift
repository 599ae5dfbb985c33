import MapSketch
import MapSketchGeometry

extension Corpus {
    // MARK: tools/ — transforms, tools, the reticle and validation rules (format version 3)
    //
    // Every trace uses the 400 × 400 pt screen at 1 map unit per point centred on the origin:
    // screen (x, y) is map (x − 200, 200 − y). The handle box of a selection is its screen
    // envelope grown by 10 pt; the rotate handle sits 30 pt above the box's top edge.

    /// A one-finger stroke through `points` (screen), 20 ms apart: it leaves the slop at once,
    /// so it is a drag, never a hold.
    static func stroke(_ s: inout TraceScript, _ points: [(Double, Double)]) {
        guard let first = points.first, let last = points.last else { return }
        s.touch(.began, first.0, first.1)
        var dt = 0.0
        for p in points.dropFirst() {
            dt += 0.02
            s.touch(.moved, p.0, p.1, after: dt)
        }
        s.touch(.ended, last.0, last.1, after: dt + 0.02)
        s.now += dt + 0.02 + s.pause
    }

    static func rules(_ configure: @escaping (inout TraceValidation) -> Void) -> (inout TraceHeader) -> Void {
        { h in configure(&h.options.validation) }
    }

    static func tools() -> [(String, Trace)] {
        transformTraces() + toolTraces() + validationTraces()
    }

    static func transformTraces() -> [(String, Trace)] {
        var t: [(String, Trace)] = []
        t.append(script("tools/rotate-square-quarter-turn", "selectGeometry, rotateSelection 90° about the centroid (0, 0): (x, y) → (−y, x), the square's ring (−100, −100), (−100, 100), (100, 100), (100, −100) becomes (100, −100), (−100, −100), (−100, 100), (100, 100) exactly; undo gives the square back, redo turns it again", .polygon, square) { s in
            s.call(.selectGeometry)
            s.call(.rotateSelection(degrees: 90, anchor: nil))
            s.call(.undo)
            s.call(.redo)
        })
        t.append(script("tools/scale-about-anchor-then-centroid", "scaleSelection ×2 about (−100, −100): the square becomes (−100, −100), (−100, 300), (300, 300), (300, −100); then ×0.5 about its centroid (100, 100): (0, 0), (0, 200), (200, 200), (200, 0); two undo steps", .polygon, square) { s in
            s.call(.selectGeometry)
            s.call(.scaleSelection(sx: 2, sy: 2, anchor: Point(-100, -100)))
            s.call(.scaleSelection(sx: 0.5, sy: 0.5, anchor: nil))
        })
        t.append(script("tools/move-part-undo-redo", "selectPart 1, moveSelection (25, −75): part 1 (50, 50), (150, 50) becomes (75, −25), (175, −25), part 0 stays; undo and redo", .polyline, line([(-150, -50), (-50, -50)], [(50, 50), (150, 50)])) { s in
            s.call(.selectPart(part: 1))
            s.call(.moveSelection(dx: 25, dy: -75))
            s.call(.undo)
            s.call(.redo)
        })
        t.append(script("tools/rotate-part-about-transform-anchor", "setTransformAnchor (0, 0), selectPart 0, rotateSelection −90° (clockwise): (x, y) → (y, −x), part 0 (100, 0), (200, 0) becomes (0, −100), (0, −200); part 1 stays", .polyline, line([(100, 0), (200, 0)], [(-50, 50), (-150, 50)])) { s in
            s.call(.setTransformAnchor(Point(0, 0)))
            s.call(.selectPart(part: 0))
            s.call(.rotateSelection(degrees: -90, anchor: nil))
        })
        t.append(script("tools/transform-needs-a-part-or-geometry-selected", "moveSelection with a vertex selected is refused (nothing changes); selectPart 3 of a one-part sketch is refused", .polyline, twoVertexLine) { s in
            s.call(.selectVertex(part: 0, index: 1))
            s.refusedCall(.moveSelection(dx: 10, dy: 10))
            s.refusedCall(.selectPart(part: 3))
        })
        t.append(script("tools/handle-move-drag", "selectGeometry shows the handles on the box (−110…110 map, screen 90…310); a drag from the move handle at screen (200, 200) to (240, 180) moves the square by (40, 20): (−60, −80), (−60, 120), (140, 120), (140, −80) as one undo step; the SVG shows the box, the rotate handle at (200, 50) after the move, the corner and move handles", .polygon, square) { s in
            s.call(.selectGeometry)
            s.drag(from: (200, 200), to: (240, 180), steps: 8)
        })
        t.append(script("tools/handle-rotate-drag", "selectGeometry; the rotate handle at screen (200, 60) (map (0, 140)) dragged to screen (60, 200) (map (−140, 0)) turns the square a quarter turn counter-clockwise about its centroid (0, 0): (100, −100), (−100, −100), (−100, 100), (100, 100), exactly; one undo step, undone", .polygon, square) { s in
            s.call(.selectGeometry)
            s.drag(from: (200, 60), to: (60, 200), steps: 8)
            s.call(.undo)
            s.call(.redo)
        })
        t.append(script("tools/handle-scale-drag", "selectGeometry; the top-right scale handle at screen (310, 90) (map (110, 110)) dragged to screen (255, 145) (map (55, 55)) halves the distance from the centroid: the square becomes ±50", .polygon, square) { s in
            s.call(.selectGeometry)
            s.drag(from: (310, 90), to: (255, 145), steps: 5)
        })
        t.append(script("tools/handle-drag-cancelled-changes-nothing", "selectPart 0; a hold on the move handle then a drag to (260, 150) that is cancelled: the square stays, no undo step, the log says dragCancelled", .polygon, square) { s in
            s.call(.selectPart(part: 0))
            s.holdDrag(from: (200, 200), to: (260, 150), cancel: true)
        })
        return t
    }

    static func toolTraces() -> [(String, Trace)] {
        var t: [(String, Trace)] = []
        // An L through screen (100, 300), (300, 300), (300, 100), off the straight lines by ≤ 1 pt.
        let lStroke: [(Double, Double)] = [
            (100, 300), (120, 301), (140, 299), (160, 301), (180, 299), (200, 300.5), (220, 299.5), (240, 301), (260, 299),
            (280, 300.5), (300, 300), (301, 280), (299, 260), (300.5, 240), (299, 220), (301, 200), (299.5, 180), (301, 160),
            (299, 140), (300.5, 120), (300, 100),
        ]
        t.append(script("tools/freehand-stroke-becomes-a-path", "setTool freehand (tolerance 2 pt); an L-shaped stroke through screen (100, 300), (300, 300), (300, 100), never more than 1 pt off, simplified by Douglas–Peucker to its three corners: map (−100, −100), (100, −100), (100, 100); one undo step; the part is selected", .polyline) { s in
            s.call(.setTool(.freehand(tolerance: 2)))
            stroke(&s, lStroke)
        })
        let loop: [(Double, Double)] = [
            (100, 100), (150, 101), (200, 99), (250, 101), (300, 100), (301, 150), (299, 200), (301, 250), (300, 300),
            (250, 299), (200, 301), (150, 299), (100, 300), (99, 250), (101, 200), (99, 150), (100, 100),
        ]
        t.append(script("tools/freehand-loop-becomes-a-ring", "setTool freehand; a clockwise loop round screen (100, 100)…(300, 300) ending where it began becomes the ring (−100, 100), (100, 100), (100, −100), (−100, −100) (the closing vertex dropped); undo empties the sketch, redo brings the ring back", .polygon) { s in
            s.call(.setTool(.freehand(tolerance: 2)))
            stroke(&s, loop)
            s.call(.undo)
            s.call(.redo)
        })
        t.append(script("tools/shape-rectangle", "setTool shape rectangle; a drag from screen (100, 100) to (300, 300) draws the ring (−100, 100), (100, 100), (100, −100), (−100, −100) (clockwise); one undo step; the new part is selected", .polygon) { s in
            s.call(.setTool(.shape(.rectangle)))
            s.drag(from: (100, 100), to: (300, 300), steps: 8)
        })
        t.append(script("tools/shape-ellipse-four-vertices", "setTool shape ellipse with 4 vertices; a drag from screen (300, 300) to (100, 100) (any corner to the opposite one) draws the inscribed ellipse's vertices at 0°, 90°, 180°, 270° clockwise from the right: (100, 0), (0, −100), (−100, 0), (0, 100)", .polygon) { s in
            s.call(.setTool(.shape(.ellipse(vertexCount: 4))))
            s.drag(from: (300, 300), to: (100, 100), steps: 8)
        })
        t.append(script("tools/shape-triangle", "setTool shape triangle; a drag from screen (100, 100) to (300, 300) draws the apex at the top edge's middle then the bottom corners: (0, 100), (100, −100), (−100, −100)", .polygon) { s in
            s.call(.setTool(.shape(.triangle)))
            s.drag(from: (100, 100), to: (300, 300), steps: 8)
        })
        t.append(script("tools/shape-arrow-closed-path", "setTool shape arrow on a polyline; a drag from screen (50, 100) to (350, 300) (rightwards; box 300 × 200, neck at 2/3 = screen x 250) draws a closed path: (150, 0), (50, −100), (50, −50), (−150, −50), (−150, 50), (50, 50), (50, 100), (150, 0); the SVG shows the arrow selected with its handles", .polyline) { s in
            s.call(.setTool(.shape(.arrow)))
            s.drag(from: (50, 100), to: (350, 300), steps: 8)
        })
        t.append(script("tools/switching-tools-keeps-state", "two taps add (−100, 0), (100, 0) with the vertex tool; switching to freehand, shape, reticle and back keeps the geometry, the selection (vertex 1) and the history: undo removes (100, 0), a tap adds (0, 100) after vertex 0", .polyline) { s in
            s.tap(100, 200)
            s.tap(300, 200)
            s.call(.setTool(.freehand(tolerance: 4)))
            s.call(.setTool(.shape(.ellipse(vertexCount: 12))))
            s.call(.setTool(.reticle))
            s.call(.setTool(.vertex))
            s.call(.undo)
            s.tap(200, 100)
        })
        t.append(script("tools/reticle-pick-up-pan-place", "setTool reticle; pan (−100, 0) puts vertex 1 (100, 0) under the reticle; reticleSelect selects it, reticlePickUp; pan (0, −50) puts map (100, −50) under the reticle; reticlePlace moves the vertex there as one undo step: (−100, 0), (100, −50); undo, redo; the SVG shows the reticle", .polyline, twoVertexLine) { s in
            s.call(.setTool(.reticle))
            s.call(.pan(dx: -100, dy: 0))
            s.call(.reticleSelect)
            s.call(.reticlePickUp)
            s.call(.pan(dx: 0, dy: -50))
            s.call(.reticlePlace)
            s.call(.undo)
            s.call(.redo)
        })
        t.append(script("tools/reticle-mid-vertex-and-cancel", "setTool reticle; reticleSelect at (0, 0) selects mid-vertex 0; reticlePickUp, pan (0, 40), reticlePlace inserts (0, 40) between the ends; a second pick-up is cancelled (reticleCancel) and nothing moves; after a pan (60, 0), reticlePlace with nothing picked up adds the reticle point (−60, 40) after the selected vertex 1", .polyline, twoVertexLine) { s in
            s.call(.setTool(.reticle))
            s.call(.reticleSelect)
            s.call(.reticlePickUp)
            s.call(.pan(dx: 0, dy: 40))
            s.call(.reticlePlace)
            s.call(.reticlePickUp)
            s.call(.reticleCancel)
            s.call(.pan(dx: 60, dy: 0))
            s.call(.reticlePlace)
        })
        t.append(script("tools/reticle-calls-need-the-reticle-tool", "reticleSelect under the vertex tool is refused; under the reticle tool reticlePickUp with nothing selected is refused; freehand on a point sketch is refused; nothing changes", .point, .point(Point(10, 10))) { s in
            s.refusedCall(.reticleSelect)
            s.call(.setTool(.reticle))
            s.call(.pan(dx: 100, dy: 100))
            s.call(.reticleSelect)
            s.refusedCall(.reticlePickUp)
            s.refusedCall(.setTool(.freehand(tolerance: 2)))
        })
        return t
    }

    static func validationTraces() -> [(String, Trace)] {
        var t: [(String, Trace)] = []
        t.append(script("tools/validation-no-self-intersection", "Rule noSelfIntersection: moving vertex 1 to (0, −150) would cross the bottom edge: rejected (logged, nothing changes, no undo step); moving it to (−120, 120) is accepted; a hold-drag of vertex 2 (100, 100) to screen (300, 350) (map (100, −150)) would cross too: the vertex goes back", .polygon, square, configure: rules { $0.noSelfIntersection = true }) { s in
            s.call(.moveVertex(part: 0, index: 1, point: Point(0, -150)))
            s.call(.moveVertex(part: 0, index: 1, point: Point(-120, 120)))
            s.tap(300, 100)
            s.holdDrag(from: (300, 100), to: (300, 350))
        })
        t.append(script("tools/validation-minimum-area", "Rule minimumArea 30000 on the square (area 40000): removing vertex 1 would leave 20000: rejected; scaling the geometry ×0.5 would leave 10000: rejected; ×1.5 about (−100, −100) is accepted: (−100, −100), (−100, 200), (200, 200), (200, −100)", .polygon, square, configure: rules { $0.minimumArea = 30000 }) { s in
            s.call(.removeVertex(part: 0, index: 1))
            s.call(.selectGeometry)
            s.call(.scaleSelection(sx: 0.5, sy: 0.5, anchor: nil))
            s.call(.scaleSelection(sx: 1.5, sy: 1.5, anchor: Point(-100, -100)))
        })
        t.append(script("tools/validation-minimum-length", "Rule minimumLength 150 on the line (−100, 0)–(100, 0) (length 200): moving vertex 1 to (0, 0) would leave 100: rejected; moving it to (200, 0) is accepted (length 300)", .polyline, twoVertexLine, configure: rules { $0.minimumLength = 150 }) { s in
            s.call(.moveVertex(part: 0, index: 1, point: Point(0, 0)))
            s.call(.moveVertex(part: 0, index: 1, point: Point(200, 0)))
        })
        t.append(script("tools/validation-maximum-vertices", "Rule maximumVertices 3: three taps add (−100, 100), (0, 0), (100, 100); the fourth tap (100, −100) is rejected; a freehand stroke of three corners would make 6: rejected too", .polyline, configure: rules { $0.maximumVertices = 3 }) { s in
            s.tap(100, 100)
            s.tap(200, 200)
            s.tap(300, 100)
            s.tap(300, 300)
            s.call(.setTool(.freehand(tolerance: 2)))
            stroke(&s, [(100, 350), (200, 351), (300, 350), (301, 375), (300, 390)])
        })
        return t
    }
}
