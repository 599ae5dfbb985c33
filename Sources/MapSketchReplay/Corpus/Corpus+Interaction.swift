import Foundation
import MapSketch
import MapSketchGeometry

extension Corpus {
    // MARK: interaction/ — the gesture rules (1: tap on the map, 2: on a vertex, 3: on a mid-vertex,
    // 4: hold and drag the selected vertex, 5: pan and pinch), with and without undo

    static func interaction() -> [(String, Trace)] {
        var t: [(String, Trace)] = []
        // Rule 1: tap on the map.
        t.append(script("interaction/point-tap-moves-point", "Rule 1: a tap on the map moves a point sketch's point there", .point, .point(Point(0, 0))) { s in
            s.tap(300, 100)
        })
        t.append(script("interaction/point-tap-moves-point-undo-redo", "Rule 1 with undo: undo puts the point back, redo moves it again", .point, .point(Point(0, 0))) { s in
            s.tap(300, 100)
            s.tap(100, 300)
            s.call(.undo)
            s.call(.undo)
            s.call(.redo)
        })
        t.append(script("interaction/point-new-sketch-tap", "Rule 1: a tap on an empty point sketch creates its point", .point) { s in
            s.tap(250, 150)
        })
        t.append(script("interaction/polyline-taps-append", "Rule 1: taps on the map append vertices to a new polyline, each selected in turn", .polyline) { s in
            s.tap(100, 300)
            s.tap(200, 100)
            s.tap(300, 300)
        })
        t.append(script("interaction/polyline-taps-append-undo-redo", "Rule 1 with undo: three taps, two undos, one redo leave two vertices and one redo step", .polyline) { s in
            s.tap(100, 300)
            s.tap(200, 100)
            s.tap(300, 300)
            s.call(.undo)
            s.call(.undo)
            s.call(.redo)
        })
        t.append(script("interaction/polygon-taps-append", "Rule 1: four taps make a polygon ring (valid once it has three distinct vertices)", .polygon) { s in
            s.tap(100, 100)
            s.tap(300, 100)
            s.tap(300, 300)
            s.tap(100, 300)
        })
        t.append(script("interaction/polygon-two-taps-not-valid", "Validity: a polygon with two vertices is not a valid sketch", .polygon) { s in
            s.tap(100, 100)
            s.tap(300, 300)
        })
        t.append(script("interaction/multipoint-taps-add-points", "Rule 1: taps add points to a multipoint", .multipoint) { s in
            s.tap(100, 100)
            s.tap(300, 100)
            s.tap(200, 300)
        })
        t.append(script("interaction/multipoint-taps-undo", "Rule 1 with undo: undo removes the last point added", .multipoint) { s in
            s.tap(100, 100)
            s.tap(300, 100)
            s.call(.undo)
        })
        t.append(script("interaction/tap-inserts-after-selected-vertex", "Rule 1: with vertex 0 selected, a tap on the map inserts the new vertex at index 1 and selects it", .polyline, threeVertexLine) { s in
            s.tap(100, 200)  // vertex 0
            s.tap(200, 320)  // map (0, −120)
        })
        t.append(script("interaction/tap-inserts-after-selected-vertex-undo", "Rule 1 with undo: undo removes the inserted vertex and re-selects vertex 0", .polyline, threeVertexLine) { s in
            s.tap(100, 200)
            s.tap(200, 320)
            s.call(.undo)
        })
        // Rule 2: tap on a vertex.
        t.append(script("interaction/tap-vertex-selects-only", "Rule 2: a tap on a vertex selects it and leaves the geometry unchanged (no undo step)", .polyline, threeVertexLine) { s in
            s.tap(300, 200)  // vertex 1
            s.tap(302, 103)  // vertex 2, 3 pt off
        })
        t.append(script("interaction/multipoint-tap-point-selects", "Rule 2: a tap on a point of a multipoint selects it", .multipoint, multipoint([(-100, 0), (100, 0)])) { s in
            s.tap(300, 200)
        })
        t.append(script("interaction/tap-near-vertex-within-tolerance", "Rule 2: a tap 12 pt from a vertex (within half the 10 pt marker + 10 pt) still selects it", .polyline, twoVertexLine) { s in
            s.tap(312, 200)
        })
        // Rule 3: tap on a mid-vertex.
        t.append(script("interaction/tap-midvertex-then-map-inserts", "Rule 3: a tap on a mid-vertex selects it; the next tap on the map inserts a vertex between the segment's two vertices", .polyline, twoVertexLine) { s in
            s.tap(200, 200)  // mid-vertex of segment 0
            s.tap(200, 100)  // map (0, 100)
        })
        t.append(script("interaction/tap-midvertex-then-map-inserts-undo", "Rule 3 with undo: undo removes the inserted vertex and selects the mid-vertex again", .polyline, twoVertexLine) { s in
            s.tap(200, 200)
            s.tap(200, 100)
            s.call(.undo)
        })
        t.append(script("interaction/polygon-closing-midvertex", "Rule 3: a polygon's closing segment has a mid-vertex; inserting there adds the vertex after the last", .polygon, square) { s in
            s.tap(200, 300)  // mid-vertex of the closing segment (100,−100)→(−100,−100)
            s.tap(200, 360)  // map (0, −160)
        })
        t.append(script("interaction/polygon-midvertex-insert-undo-redo", "Rule 3 with undo and redo on a polygon side", .polygon, square) { s in
            s.tap(100, 200)  // mid-vertex of segment 0 (−100,−100)→(−100,100)
            s.tap(40, 200)   // map (−160, 0)
            s.call(.undo)
            s.call(.redo)
        })
        // Rule 4: hold on the selected vertex, drag, release.
        t.append(script("interaction/hold-drag-moves-selected-vertex", "Rule 4: a hold on the selected vertex shows the magnifier and the drag moves the vertex; release commits one undo step", .polyline, twoVertexLine, configure: magnifier) { s in
            s.tap(300, 200)
            s.holdDrag(from: (300, 200), to: (340, 160))
        })
        t.append(script("interaction/hold-drag-without-magnifier", "Rule 4 with showMagnifierOnTapAndHold off: the drag still moves the vertex, no magnifier event", .polyline, twoVertexLine) { s in
            s.tap(300, 200)
            s.holdDrag(from: (300, 200), to: (340, 160))
        })
        t.append(script("interaction/hold-drag-undo-is-one-step", "Rule 4 with undo: the whole drag is one undo step; undo puts the vertex back", .polyline, twoVertexLine, configure: magnifier) { s in
            s.tap(300, 200)
            s.holdDrag(from: (300, 200), to: (340, 160), steps: 12)
            s.call(.undo)
        })
        t.append(script("interaction/hold-drag-undo-redo", "Rule 4 with undo then redo: redo re-applies the drag", .polygon, square, configure: magnifier) { s in
            s.tap(300, 100)  // vertex 2 (100, 100)
            s.holdDrag(from: (300, 100), to: (350, 60))
            s.call(.undo)
            s.call(.redo)
        })
        t.append(script("interaction/hold-on-unselected-vertex-does-nothing", "Rule 4: a hold on a vertex that is not selected neither drags nor pans", .polyline, twoVertexLine, configure: magnifier) { s in
            s.holdDrag(from: (100, 200), to: (140, 240))
        })
        t.append(script("interaction/hold-drag-cancelled-restores-vertex", "Rule 4: a cancelled hold puts the dragged vertex back; nothing to undo", .polyline, twoVertexLine, configure: magnifier) { s in
            s.tap(300, 200)
            s.holdDrag(from: (300, 200), to: (340, 160), cancel: true)
        })
        t.append(script("interaction/second-finger-cancels-drag", "Rule 4/5: a second finger during a drag cancels it (vertex restored) and starts a pinch", .polyline, twoVertexLine, configure: magnifier) { s in
            s.tap(300, 200)
            s.touch(.began, 300, 200)
            s.touch(.moved, 320, 190, after: 0.7)
            s.touch(.began, 150, 250, id: 1, after: 0.8)
            s.touch(.moved, 120, 260, id: 1, after: 0.9)
            s.touch(.ended, 320, 190, after: 1.0)
            s.touch(.ended, 120, 260, id: 1, after: 1.05)
            s.now += 1.5
        })
        // Rule 5: pans and pinches.
        t.append(script("interaction/drag-past-slop-pans", "Rule 5: moving past the slop before the hold pans the map; the geometry is unchanged", .polyline, twoVertexLine) { s in
            s.drag(from: (200, 300), to: (260, 340))
        })
        t.append(script("interaction/drag-from-selected-vertex-pans", "Rule 5: a quick drag starting on the selected vertex pans (it never became a hold)", .polyline, twoVertexLine) { s in
            s.tap(300, 200)
            s.drag(from: (300, 200), to: (250, 150), duration: 0.2)
        })
        t.append(script("interaction/pan-then-tap-uses-new-viewport", "Rule 5 then 1: after a pan, a tap lands at the map point now under the finger", .polyline) { s in
            s.drag(from: (200, 200), to: (100, 200))
            s.tap(200, 200)  // map (100, 0) after the pan
        })
        t.append(script("interaction/pinch-zooms-in", "Rule 5: two fingers spreading from 100 to 200 pt zoom in 2×; a tap then maps at the new resolution", .polyline) { s in
            s.pinch(center: (200, 200), from: 100, to: 200)
            s.tap(300, 200)  // map (50, 0) at resolution 0.5
        })
        t.append(script("interaction/pinch-zooms-out", "Rule 5: two fingers closing from 200 to 100 pt zoom out 2×", .polygon, square) { s in
            s.pinch(center: (200, 200), from: 200, to: 100)
        })
        // Thresholds.
        t.append(script("interaction/slow-release-is-not-a-tap", "Thresholds: down→up after 0.4 s (over the 0.3 s tap, under the 0.5 s hold) is neither tap nor hold", .polyline) { s in
            s.tap(200, 200, duration: 0.4)
        })
        t.append(script("interaction/tap-jitter-within-slop", "Thresholds: a tap whose finger wanders 6 pt (within the 10 pt slop) is a tap at the touch-down point", .polyline) { s in
            s.tap(150, 250, jitter: 6)
        })
        t.append(script("interaction/custom-thresholds-large-slop", "Thresholds from the header: with a 30 pt slop a 20 pt wander is still a tap; with a 1.0 s tap duration a 0.6 s press is a tap", .polyline, configure: { h in
            h.thresholds = GestureThresholds(tapDuration: 1.0, slop: 30, holdDuration: 1.5)
        }) { s in
            s.tap(150, 250, jitter: 14)
            s.tap(250, 150, duration: 0.6)
        })
        // Undo and redo rules.
        t.append(script("interaction/new-change-clears-redo", "Undo: a new change after undo clears the redo stack", .polyline) { s in
            s.tap(100, 300)
            s.tap(200, 100)
            s.tap(300, 300)
            s.call(.undo)
            s.call(.undo)
            s.tap(350, 50)
        })
        t.append(script("interaction/levels-of-undo-bound", "Undo: with levelsOfUndo 2, only the last two of four taps can be undone", .polyline, configure: { h in h.options.levelsOfUndo = 2 }) { s in
            s.tap(50, 300)
            s.tap(150, 100)
            s.tap(250, 300)
            s.tap(350, 100)
            s.call(.undo)
            s.call(.undo)
            s.call(.undo)
        })
        t.append(script("interaction/undo-everything-then-redo-everything", "Undo: undoing every step restores the initial geometry exactly; redoing every step restores the final one", .polygon) { s in
            s.tap(100, 100)
            s.tap(300, 100)
            s.tap(300, 300)
            for _ in 0..<3 { s.call(.undo) }
            for _ in 0..<3 { s.call(.redo) }
        })
        t.append(script("interaction/multipart-polyline-taps", "Rule 1 with parts: after addPart, taps append to the new (last) part", .polyline) { s in
            s.tap(50, 100)
            s.tap(150, 100)
            s.call(.addPart)
            s.tap(250, 300)
            s.tap(350, 300)
        })
        t.append(script("interaction/vertex-numbers-svg", "Symbology: vertex numbers shown in the SVG after three taps", .polyline, configure: { h in h.options.showVertexNumbers = true }) { s in
            s.tap(100, 300)
            s.tap(200, 100)
            s.tap(300, 300)
        })
        t += twoFingers()
        t += clock()
        return t
    }

    /// The clock: a hold fires at its touch-down plus `holdDuration` (0.5 s), whatever the gaps
    /// between events, and up to the trace's end (its `end` line) when the finger is still down.
    /// Vertex 1 of ``twoVertexLine`` is at screen (300, 200); each trace selects it with a tap.
    static func clock() -> [(String, Trace)] {
        /// Taps vertex 1 (selecting it), then puts a finger on it at t 1.0.
        func downOnSelectedVertex(_ s: inout TraceScript) {
            s.tap(300, 200)
            s.now = 1.0
            s.touch(.began, 300, 200)
        }
        var t: [(String, Trace)] = []
        t.append(script("interaction/hold-fires-on-time-before-a-late-move", "The clock: a finger down on the selected vertex at t 1.0 wanders 4 pt at 1.2 and next moves at 5.0: hold and magnifier at 1.5 (touch-down + 0.5 s hold), the drag from 5.0; the vertex ends at map (140, 40)", .polyline, twoVertexLine, configure: magnifier) { s in
            downOnSelectedVertex(&s)
            s.touch(.moved, 303, 203, after: 0.2)
            s.touch(.moved, 340, 160, after: 4.0)
            s.touch(.ended, 340, 160, after: 4.1)
        })
        t.append(script("interaction/hold-at-trace-end-finger-still-down", "The clock: a finger down on the selected vertex at t 1.0 and never lifted, in a trace whose end line is at 3.0: hold and magnifier at 1.5", .polyline, twoVertexLine, configure: magnifier) { s in
            downOnSelectedVertex(&s)
            s.end(at: 3.0)
        })
        t.append(script("interaction/trace-ends-before-hold-time", "The clock: a finger down at t 1.0 in a trace that ends at 1.4, before the hold is due at 1.5: no hold", .polyline, twoVertexLine, configure: magnifier) { s in
            downOnSelectedVertex(&s)
            s.end(at: 1.4)
        })
        t.append(script("interaction/release-just-before-hold-time", "The clock: down at t 1.0, up at 1.49 (too slow for a tap, before the hold at 1.5), then nothing until the end at 6.0: neither tap nor hold", .polyline, twoVertexLine, configure: magnifier) { s in
            downOnSelectedVertex(&s)
            s.touch(.ended, 300, 200, after: 0.49)
            s.end(at: 6.0)
        })
        t.append(script("interaction/release-at-hold-time-holds-first", "The clock: down at t 1.0, up at exactly 1.5: the hold due at 1.5 fires before the release at 1.5 (hold, magnifier, then holdEnd and magnifierHide, all at 1.5); the vertex stays", .polyline, twoVertexLine, configure: magnifier) { s in
            downOnSelectedVertex(&s)
            s.touch(.ended, 300, 200, after: 0.5)
        })
        t.append(script("interaction/move-past-slop-before-hold-pans-despite-gap", "The clock: down at t 1.0, past the slop at 1.3 (a pan), next move at 6.0: no hold ever fires; the map pans by (60, -40) pt", .polyline, twoVertexLine, configure: magnifier) { s in
            downOnSelectedVertex(&s)
            s.touch(.moved, 320, 200, after: 0.3)
            s.touch(.moved, 360, 160, after: 5.0)
            s.touch(.ended, 360, 160, after: 5.1)
        })
        return t
    }

    /// Rule 5 with two fingers, computed by hand: a 400 × 400 pt screen centred on map (1000, 2000)
    /// at 2 map units per point, so screen (x, y) starts as map (1000 + 2(x − 200), 2000 + 2(200 − y)).
    /// The map point under the fingers' focal point stays under it; a tap afterwards lands where
    /// the fingers left the map.
    static func twoFingers() -> [(String, Trace)] {
        func pinchHeader(_ h: inout TraceHeader) { h.viewport = Viewport(center: Point(1000, 2000), resolution: 2) }
        func rotating(_ h: inout TraceHeader) {
            pinchHeader(&h)
            h.options.allowRotationByPinching = true
        }
        /// Touches 20 ms apart from now: (phase, finger, x, y).
        func fingers(_ s: inout TraceScript, _ touches: [(TouchPhase, Int, Double, Double)]) {
            for (k, (phase, id, x, y)) in touches.enumerated() { s.touch(phase, x, y, id: id, after: 0.02 * Double(k)) }
            s.now += 0.02 * Double(touches.count) + s.pause
        }
        let down: [(TouchPhase, Int, Double, Double)] = [(.began, 0, 150, 200), (.began, 1, 250, 200)]
        // A quarter turn of finger 1 about finger 0, 30° at a time; the last position is exact.
        // (√ is correctly rounded everywhere, so the trace is the same on every machine.)
        let half3 = 50 * (3.0).squareRoot()
        let swing: [(TouchPhase, Int, Double, Double)] = [
            (.moved, 1, 150 + half3, 150), (.moved, 1, 200, 200 - half3), (.moved, 1, 150, 100), (.ended, 1, 150, 100),
            (.ended, 0, 150, 200),
        ]
        var t: [(String, Trace)] = []
        t.append(script("interaction/pinch-still-finger-keeps-its-point", "Rule 5: finger 0 stays at (150, 200) on map x 900 while finger 1 spreads from 250 to 350: resolution 2 → 1, centre (950, 2000); a tap under finger 0 then adds map (900, 2000)", .polyline, configure: pinchHeader) { s in
            fingers(&s, down + [270.0, 290, 310, 330, 350].map { (.moved, 1, $0, 200) } + [(.ended, 1, 350, 200), (.ended, 0, 150, 200)])
            s.tap(150, 200)
        })
        t.append(script("interaction/pinch-symmetric-spread-keeps-centre", "Rule 5: fingers spreading symmetrically about the screen centre, one after the other, keep the centre exactly (1000, 2000) at resolution 1; a tap at (300, 200) adds map (1100, 2000)", .polyline, configure: pinchHeader) { s in
            let spread = [60.0, 70, 80, 90, 100].flatMap { d -> [(TouchPhase, Int, Double, Double)] in [(.moved, 0, 200 - d, 200), (.moved, 1, 200 + d, 200)] }
            fingers(&s, down + spread + [(.ended, 0, 100, 200), (.ended, 1, 300, 200)])
            s.tap(300, 200)
        })
        t.append(script("interaction/two-finger-drag-pans", "Rule 5: two fingers dragged (+30, −24) pt without spreading pan by that × resolution 2: centre (940, 1952), resolution 2; a tap where finger 0 ended adds map (900, 2000)", .polyline, configure: pinchHeader) { s in
            let drag = (1...6).flatMap { k -> [(TouchPhase, Int, Double, Double)] in
                let dx = 5 * Double(k), dy = -4 * Double(k)
                return [(.moved, 0, 150 + dx, 200 + dy), (.moved, 1, 250 + dx, 200 + dy)]
            }
            fingers(&s, down + drag + [(.ended, 0, 180, 176), (.ended, 1, 280, 176)])
            s.tap(180, 176)
        })
        t.append(script("interaction/pinch-lift-hands-over-to-pan", "Rule 5: finger 1 spreads to (350, 200) (centre (950, 2000), resolution 1) and lifts; finger 0 goes on as a pan from (150, 200) to (250, 150) carrying map (900, 2000): centre (850, 1950); a tap there adds (900, 2000)", .polyline, configure: pinchHeader) { s in
            let spread: [(TouchPhase, Int, Double, Double)] = [(.moved, 1, 300, 200), (.moved, 1, 350, 200), (.ended, 1, 350, 200)]
            let pan = [1.0, 2, 3, 4, 5].map { k -> (TouchPhase, Int, Double, Double) in (.moved, 0, 150 + 20 * k, 200 - 10 * k) }
            fingers(&s, down + spread + pan + [(.ended, 0, 250, 150)])
            s.tap(250, 150)
        })
        t.append(script("interaction/pinch-turn-without-rotation-option", "Rule 5: finger 1 swings a quarter turn about finger 0 with rotation off (the default): no rotation, no zoom; the focal point (200, 200) → (150, 150) carries map (1000, 2000): centre (1100, 1900); a tap at (150, 150) adds (1000, 2000)", .polyline, configure: pinchHeader) { s in
            fingers(&s, down + swing)
            s.tap(150, 150)
        })
        t.append(script("interaction/pinch-rotates-when-allowed", "Rule 5 with allowRotationByPinching: finger 1 swings a quarter turn counter-clockwise about finger 0: rotation 90, resolution 2, both fingers keep their map points (finger 0 map (900, 2000), finger 1 map (1100, 2000)): centre (900, 1900); a tap at finger 1's end (150, 100) adds (1100, 2000)", .polyline, configure: rotating) { s in
            fingers(&s, down + swing)
            s.tap(150, 100)
        })
        return t
    }
}
