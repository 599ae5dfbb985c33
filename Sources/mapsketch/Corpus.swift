import Foundation
import MapSketch
import MapSketchGeometry
import MapSketchReplay

/// The corpus under Traces/: every trace is made here, reproducibly, from code or from the real
/// files under Traces/real. `mapsketch corpus Traces` rewrites the trace files (never the goldens).
enum Corpus {
    /// A trace to write: its path relative to the corpus root (without `.trace.jsonl`) and text.
    struct Entry {
        var path: String
        var text: String
    }

    /// Every generated trace.
    static func all(root: URL) throws -> [Entry] {
        var out: [Entry] = []
        for (p, t) in interaction() + programmatic() + gpsSynthetic() + synthetic() + demo() {
            out.append(Entry(path: p, text: TraceEncoder.encode(t)))
        }
        out += malformed()
        out += try realGPS(root: root)
        out += try realTouches(root: root)
        return out
    }

    // MARK: Helpers

    /// A 400 × 400 pt screen at 1 map unit per point centered on the origin: screen (x, y) is
    /// map (x − 200, 200 − y).
    static func header(_ name: String, _ description: String, _ type: GeometryType?, _ geometry: Geometry? = nil) -> TraceHeader {
        var h = TraceHeader()
        h.name = name
        h.description = description
        h.screen = ScreenSize(width: 400, height: 400)
        h.viewport = Viewport(center: Point(0, 0), resolution: 1)
        h.spatialReference = .webMercator
        if let type { h.sketch = TraceSketchSetup(geometryType: type, geometry: geometry) }
        return h
    }

    static func script(
        _ name: String, _ description: String, _ type: GeometryType?, _ geometry: Geometry? = nil,
        configure: (inout TraceHeader) -> Void = { _ in }, _ body: (inout TraceScript) -> Void
    ) -> (String, Trace) {
        var h = header(name.split(separator: "/").last.map(String.init) ?? name, description, type, geometry)
        configure(&h)
        var s = TraceScript(header: h)
        body(&s)
        return (name, s.trace)
    }

    static func line(_ pts: [(Double, Double)]...) -> Geometry {
        .polyline(Polyline(paths: pts.map { $0.map { Point($0.0, $0.1) } }))
    }

    static func polygon(_ pts: [(Double, Double)]...) -> Geometry {
        .polygon(Polygon(rings: pts.map { $0.map { Point($0.0, $0.1) } }))
    }

    static func multipoint(_ pts: [(Double, Double)]) -> Geometry {
        .multipoint(Multipoint(points: pts.map { Point($0.0, $0.1) }))
    }

    /// A horizontal polyline from map (−100, 0) to (100, 0): screen (100, 200)–(300, 200).
    static let twoVertexLine = line([(-100, 0), (100, 0)])
    /// Three vertices: map (−100, 0), (100, 0), (100, 100) = screen (100, 200), (300, 200), (300, 100).
    static let threeVertexLine = line([(-100, 0), (100, 0), (100, 100)])
    /// A clockwise square: map (−100, −100), (−100, 100), (100, 100), (100, −100).
    static let square = polygon([(-100, -100), (-100, 100), (100, 100), (100, -100)])

    static func magnifier(_ h: inout TraceHeader) { h.options.showMagnifierOnTapAndHold = true }

    // MARK: interaction/ — DESIGN §5 rules 1–5, with and without undo

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
            h.thresholds = GestureThresholds(tapDuration: 1.0, slop: 30, holdDuration: 1.5, vertexHitTolerance: 10)
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
        return t
    }

    // MARK: programmatic/ — the sketch's API and graphics layers

    static let marker = Symbol.simpleMarker(SimpleMarkerSymbol(style: .circle, color: .red, size: 12))

    static func graphicsLayer(_ name: String, _ graphics: [TraceGraphic], renderer: TraceRenderer? = nil, callouts: Bool = true) -> TraceGraphicsLayer {
        var l = TraceGraphicsLayer(name: name, renderer: renderer, graphics: graphics)
        l.calloutsEnabled = callouts
        return l
    }

    static func poi(_ x: Double, _ y: Double, _ name: String, _ kind: String, _ size: Int, callout: Bool = true) -> TraceGraphic {
        TraceGraphic(
            geometry: .point(Point(x, y)), attributes: [("NAME", .string(name)), ("KIND", .string(kind)), ("SIZE", .integer(size))],
            calloutTitle: callout ? "${NAME}" : nil, calloutDetail: callout ? "${KIND}, size ${SIZE}" : nil)
    }

    static func programmatic() -> [(String, Trace)] {
        var t: [(String, Trace)] = []
        t.append(script("programmatic/insert-vertex", "insertVertex: add a part then insert vertices at the end and in the middle", .polyline) { s in
            s.call(.addPart)
            s.call(.insertVertex(part: 0, index: 0, point: Point(0, 0)))
            s.call(.insertVertex(part: 0, index: 1, point: Point(100, 0)))
            s.call(.insertVertex(part: 0, index: 1, point: Point(50, 50)))
        })
        t.append(script("programmatic/move-vertex-undo", "moveVertex then undo: the vertex returns exactly", .polyline, threeVertexLine) { s in
            s.call(.moveVertex(part: 0, index: 1, point: Point(80, -40)))
            s.call(.undo)
            s.call(.moveVertex(part: 0, index: 2, point: Point(120, 130)))
        })
        t.append(script("programmatic/remove-vertex-undo-redo", "removeVertex with undo and redo", .polygon, square) { s in
            s.call(.removeVertex(part: 0, index: 2))
            s.call(.undo)
            s.call(.redo)
        })
        t.append(script("programmatic/add-part-remove-part", "addPart / removePart on a polygon with a hole", .polygon, polygon([(-150, -150), (-150, 150), (150, 150), (150, -150)], [(-50, -50), (50, -50), (50, 50), (-50, 50)])) { s in
            s.call(.addPart)
            s.call(.insertVertex(part: 2, index: 0, point: Point(200, 200)))
            s.call(.insertVertex(part: 2, index: 1, point: Point(250, 200)))
            s.call(.insertVertex(part: 2, index: 2, point: Point(250, 250)))
            s.call(.removePart(part: 1))
            s.call(.undo)
        })
        t.append(script("programmatic/remove-selected-vertex", "removeSelectedVertex after a tap selects a vertex", .polyline, threeVertexLine) { s in
            s.tap(300, 200)
            s.call(.removeSelectedVertex)
        })
        t.append(script("programmatic/remove-selected-part", "removeSelectedPart removes the part holding the selection", .polyline, line([(-150, -50), (-50, -50)], [(50, 50), (150, 50)])) { s in
            s.call(.selectVertex(part: 1, index: 0))
            s.call(.removeSelectedPart)
            s.call(.undo)
        })
        t.append(script("programmatic/select-vertex-and-last", "selectVertex, selectLastVertex and clearSelection change only the selection", .polyline, threeVertexLine) { s in
            s.call(.selectVertex(part: 0, index: 1))
            s.call(.selectLastVertex)
            s.call(.clearSelection)
            s.tap(200, 350)  // nothing selected: appended to the last part
        })
        t.append(script("programmatic/clear-then-undo", "clear removes every vertex as one undo step; undo restores them", .polygon, square) { s in
            s.call(.clear)
            s.call(.undo)
        })
        t.append(script("programmatic/apply-geometry-one-step", "applyGeometry replaces the geometry as one undo step", .polyline, twoVertexLine) { s in
            s.call(.applyGeometry(line([(0, 0), (10, 10), (20, 0), (30, 10)])))
            s.call(.undo)
            s.call(.redo)
        })
        t.append(script("programmatic/apply-geometry-wrong-type", "applyGeometry with another geometry type is refused (logged) and changes nothing", .polyline, twoVertexLine) { s in
            s.call(.applyGeometry(.point(Point(1, 1))))
        })
        t.append(script("programmatic/set-geometry-clears-history", "setGeometry replaces the sketch and clears the undo history", .polyline) { s in
            s.tap(100, 100)
            s.tap(300, 300)
            s.call(.setGeometry(line([(-50, -50), (50, 50)])))
            s.call(.undo)
        })
        t.append(script("programmatic/bad-indices-are-logged", "Calls with indices out of range are logged as errors and the replay goes on", .polyline, twoVertexLine) { s in
            s.call(.removeVertex(part: 0, index: 9))
            s.call(.moveVertex(part: 3, index: 0, point: Point(0, 0)))
            s.call(.removePart(part: 2))
            s.call(.removeSelectedVertex)
            s.call(.insertVertex(part: 0, index: 2, point: Point(150, 50)))
        })
        t.append(script("programmatic/z-and-m-vertices", "Vertices keep z and m through insert and move", .polyline, .polyline(Polyline(paths: [[Point(x: 0, y: 0, z: 10, m: 1), Point(x: 100, y: 0, z: 20, m: 2)]]))) { s in
            s.call(.insertVertex(part: 0, index: 2, point: Point(x: 100, y: 100, z: 30, m: 3)))
            s.call(.moveVertex(part: 0, index: 0, point: Point(x: -10, y: -10, z: 5, m: 0.5)))
        })
        for (type, g) in [(GeometryType.point, Geometry.point(Point(10, 20))), (.multipoint, multipoint([(0, 0), (50, 50), (-50, 80)])), (.polyline, line([(0, 0), (50, 50)], [(60, 60), (90, 10)])), (.polygon, polygon([(-100, -100), (-100, 100), (100, 100), (100, -100)], [(-50, -50), (50, -50), (50, 50), (-50, 50)]))] {
            t.append(script("programmatic/type-\(type.rawValue)-edit", "Every geometry type: a \(type.rawValue) sketch edited by calls and a tap, then undone once", type, g) { s in
                if type == .point {
                    s.call(.moveVertex(part: 0, index: 0, point: Point(30, 40)))
                } else {
                    s.call(.insertVertex(part: 0, index: 1, point: Point(-20, -30)))
                }
                s.tap(380, 20)
                s.call(.undo)
            })
        }
        // Graphics layers, renderers and callouts.
        let pois = [poi(-100, 100, "Depot", "store", 3), poi(100, 100, "Mill", "factory", 12), poi(0, -100, "Well", "water", 7)]
        t.append(script("programmatic/graphics-add-remove", "Graphics layers: add graphics, remove one, remove all, add and remove a layer", nil, configure: { h in
            h.layers = [graphicsLayer("pois", pois)]
        }) { s in
            s.call(.addGraphic(layer: "pois", graphic: poi(50, 50, "Shed", "store", 1)))
            s.call(.removeGraphic(layer: "pois", index: 0))
            s.call(.addGraphicsLayer(graphicsLayer("notes", [TraceGraphic(geometry: .point(Point(0, 0)), symbol: .text(TextSymbol(text: "note")))])))
            s.call(.removeAllGraphics(layer: "pois"))
            s.call(.removeLayer(name: "notes"))
            s.call(.removeGraphic(layer: "pois", index: 5))
            s.call(.addGraphic(layer: "missing", graphic: poi(0, 0, "x", "y", 0)))
        })
        t.append(script("programmatic/callout-on-tap", "Callouts: a tap on a graphic with a callout template shows its title and detail with ${FIELD} tokens filled", nil, configure: { h in
            h.layers = [graphicsLayer("pois", pois, renderer: .simple(marker))]
        }) { s in
            s.tap(300, 100)  // Mill
            s.tap(200, 300)  // Well
            s.tap(380, 380)  // empty map: the callout goes away
        })
        t.append(script("programmatic/callout-disabled-layer", "Callouts: a layer with callouts off shows none", nil, configure: { h in
            h.layers = [graphicsLayer("pois", pois, renderer: .simple(marker), callouts: false)]
        }) { s in
            s.tap(300, 100)
        })
        t.append(script("programmatic/callout-topmost-layer", "Callouts: overlapping graphics — the top layer's graphic wins", nil, configure: { h in
            h.layers = [
                graphicsLayer("bottom", [poi(0, 0, "Lower", "a", 1)], renderer: .simple(marker)),
                graphicsLayer("top", [poi(2, 2, "Upper", "b", 2)], renderer: .simple(marker)),
            ]
        }) { s in
            s.tap(201, 199)
        })
        t.append(script("programmatic/callout-no-template", "Callouts: a graphic without an info template shows none", nil, configure: { h in
            h.layers = [graphicsLayer("pois", [poi(0, 0, "Plain", "a", 1, callout: false)], renderer: .simple(marker))]
        }) { s in
            s.tap(200, 200)
        })
        t.append(script("programmatic/no-callout-while-sketching", "Callouts: while the sketch layer is the touch delegate a tap on a graphic adds a vertex, no callout", .polyline, configure: { h in
            h.layers = [graphicsLayer("pois", pois, renderer: .simple(marker))]
        }) { s in
            s.tap(300, 100)
        })
        let small = Symbol.simpleMarker(SimpleMarkerSymbol(style: .circle, color: .green, size: 8))
        let medium = Symbol.simpleMarker(SimpleMarkerSymbol(style: .square, color: .yellow, size: 12))
        let large = Symbol.simpleMarker(SimpleMarkerSymbol(style: .diamond, color: .red, size: 16))
        t.append(script("programmatic/renderer-class-breaks", "Renderers: class breaks on SIZE (min ≤ v < max), outside every break the default symbol", nil, configure: { h in
            h.layers = [graphicsLayer("pois", pois + [poi(150, -150, "Tower", "x", 40)], renderer: .classBreaks(field: "SIZE", minValue: 0, breaks: [TraceClassBreak(maxValue: 5, symbol: small), TraceClassBreak(maxValue: 10, symbol: medium), TraceClassBreak(maxValue: 20, symbol: large)], defaultSymbol: .simpleMarker(SimpleMarkerSymbol(style: .x, color: .black, size: 10))))]
        }) { s in
            s.tap(300, 100)
        })
        t.append(script("programmatic/renderer-unique-value", "Renderers: unique values on KIND with a default symbol; a graphic's own symbol wins", nil, configure: { h in
            var own = poi(-150, -150, "Own", "store", 2)
            own.symbol = .simpleMarker(SimpleMarkerSymbol(style: .triangle, color: .purple, size: 14))
            h.layers = [graphicsLayer("pois", pois + [own], renderer: .uniqueValue(fields: ["KIND"], delimiter: ",", values: [TraceUniqueValue(value: "store", symbol: small), TraceUniqueValue(value: "factory", symbol: large)], defaultSymbol: medium))]
        }) { s in
            s.tap(100, 100)
        })
        t.append(script("programmatic/symbol-mismatch-reported", "Symbols: adding a point graphic with a fill symbol is refused with the reason (logged); a fitting one is added", nil, configure: { h in
            h.layers = [graphicsLayer("shapes", [])]
        }) { s in
            s.call(.addGraphic(layer: "shapes", graphic: TraceGraphic(geometry: .point(Point(0, 0)), symbol: .simpleFill(SimpleFillSymbol()))))
            s.call(.addGraphic(layer: "shapes", graphic: TraceGraphic(geometry: .polygon(Polygon(rings: [[Point(-50, -50), Point(-50, 50), Point(50, 50), Point(50, -50)]])), symbol: .simpleFill(SimpleFillSymbol()))))
        })
        t.append(script("programmatic/viewport-calls", "Viewport calls: setViewport, pan and zoom, then a tap maps through the new viewport", .polyline) { s in
            s.call(.setViewport(Viewport(center: Point(1000, 1000), resolution: 2)))
            s.call(.pan(dx: 50, dy: -50))
            s.call(.zoom(factor: 4, anchorX: 200, anchorY: 200))
            s.tap(300, 100)
        })
        t.append(script("programmatic/rotated-viewport-tap", "Viewport rotation: a tap on a map rotated 90° lands at the rotated map point", .polyline, configure: { h in
            h.viewport = Viewport(center: Point(0, 0), resolution: 1, rotation: 90)
        }) { s in
            s.tap(300, 200)
        })
        return t
    }

    // MARK: gps/ — synthetic tracks for the filters, parts and polygons

    static func fix(_ lat: Double, _ lon: Double, time: Double? = nil, accuracy: Double? = nil, hdop: Double? = nil, segment: Int = 0) -> GPSFix {
        GPSFix(time: time, latitude: lat, longitude: lon, hdop: hdop, horizontalAccuracy: accuracy, segment: segment)
    }

    static func gpsHeader(_ name: String, _ description: String, _ type: GeometryType, center: (Double, Double), resolution: Double) -> TraceHeader {
        var h = TraceHeader()
        h.name = name
        h.description = description
        h.screen = ScreenSize(width: 600, height: 400)
        let m = GeometryEngine.projectGeographicToWebMercator(Point(x: center.1, y: center.0))
        // Rounded to the millimetre so the header reads well.
        let c = Point(x: (m.x * 1000).rounded() / 1000, y: (m.y * 1000).rounded() / 1000)
        h.viewport = Viewport(center: c, resolution: resolution)
        h.spatialReference = .webMercator
        h.sketch = TraceSketchSetup(geometryType: type)
        return h
    }

    static func gpsSynthetic() -> [(String, Trace)] {
        var t: [(String, Trace)] = []
        let t0 = 1_700_000_000.0
        // Each step ~11 m north (0.0001° latitude).
        func walk(_ n: Int, from: (Double, Double) = (46.05, 14.5), dlat: Double = 0.0001, dlon: Double = 0, segment: Int = 0, start: Double = 0) -> [GPSFix] {
            (0..<n).map { i in fix(from.0 + dlat * Double(i), from.1 + dlon * Double(i), time: t0 + start + Double(i), accuracy: 4, segment: segment) }
        }
        do {
            var s = TraceScript(header: gpsHeader("gps-walk-polyline", "GPS: ten fixes ~11 m apart become a ten-vertex polyline with its geodesic length (~100 m)", .polyline, center: (46.0505, 14.5), resolution: 0.5))
            for f in walk(10) { s.gps(f) }
            t.append(("gps/walk-polyline", s.trace))
        }
        do {
            var h = gpsHeader("gps-min-distance", "GPS filter: minDistance 25 m keeps every third fix of an 11 m-step walk", .polyline, center: (46.0505, 14.5), resolution: 0.5)
            h.gpsFilter.minimumDistance = 25
            var s = TraceScript(header: h)
            for f in walk(10) { s.gps(f) }
            t.append(("gps/filter-min-distance", s.trace))
        }
        do {
            var h = gpsHeader("gps-accuracy", "GPS filters: maxAccuracy 10 m drops a fix reported at 30 m; maxHDOP 3 drops one at HDOP 4", .polyline, center: (46.0505, 14.5), resolution: 0.5)
            h.gpsFilter.maximumAccuracy = 10
            h.gpsFilter.maximumHDOP = 3
            var s = TraceScript(header: h)
            var fixes = walk(8)
            fixes[2].horizontalAccuracy = 30
            fixes[5].horizontalAccuracy = nil
            fixes[5].hdop = 4
            fixes[6].horizontalAccuracy = nil
            fixes[6].hdop = 1
            for f in fixes { s.gps(f) }
            t.append(("gps/filter-accuracy", s.trace))
        }
        do {
            let h = gpsHeader("gps-duplicates-out-of-order", "GPS filters: a repeated fix and a fix earlier than the last accepted are dropped", .polyline, center: (46.0505, 14.5), resolution: 0.5)
            var s = TraceScript(header: h)
            var fixes = walk(6)
            fixes.insert(fixes[2], at: 3)
            var late = fixes[1]
            late.latitude += 0.00005
            late.time = (late.time ?? 0) - 0.5
            fixes.insert(late, at: 5)
            for f in fixes { s.gps(f) }
            t.append(("gps/filter-duplicates-out-of-order", s.trace))
        }
        do {
            var h = gpsHeader("gps-filters-off", "GPS filters off: duplicates and out-of-order fixes are kept", .polyline, center: (46.0505, 14.5), resolution: 0.5)
            h.gpsFilter.dropDuplicates = false
            h.gpsFilter.dropOutOfOrder = false
            var s = TraceScript(header: h)
            var fixes = walk(5)
            fixes.insert(fixes[2], at: 3)
            for f in fixes { s.gps(f) }
            t.append(("gps/filters-off", s.trace))
        }
        do {
            var s = TraceScript(header: gpsHeader("gps-segments-parts", "GPS: three track segments become three parts", .polyline, center: (46.0505, 14.5005), resolution: 1))
            for seg in 0..<3 { for f in walk(4, from: (46.05, 14.5 + 0.0005 * Double(seg)), segment: seg, start: Double(seg * 10)) { s.gps(f) } }
            t.append(("gps/segments-become-parts", s.trace))
        }
        do {
            var s = TraceScript(header: gpsHeader("gps-polygon", "GPS into a polygon: walking a ~110 m square gives a valid ring", .polygon, center: (46.0505, 14.50075), resolution: 0.5))
            let corners: [(Double, Double)] = [(46.05, 14.5), (46.051, 14.5), (46.051, 14.5015), (46.05, 14.5015)]
            var i = 0.0
            for c in corners {
                s.gps(fix(c.0, c.1, time: t0 + i, accuracy: 3))
                i += 30
            }
            t.append(("gps/polygon-square", s.trace))
        }
        do {
            var s = TraceScript(header: gpsHeader("gps-undo", "GPS appends are undoable steps: undo twice after five fixes leaves three vertices", .polyline, center: (46.0502, 14.5), resolution: 0.5))
            for f in walk(5) { s.gps(f) }
            s.call(.undo)
            s.call(.undo)
            t.append(("gps/undo-after-fixes", s.trace))
        }
        do {
            var h = gpsHeader("gps-antimeridian", "GPS across the antimeridian (179.9995°E → 179.9995°W) on a wrapping map", .polyline, center: (-16.5, 180), resolution: 1)
            h.options.wrapAround = true
            var s = TraceScript(header: h)
            for i in 0..<6 { s.gps(fix(-16.5, 179.9995 + 0.0002 * Double(i) - (179.9995 + 0.0002 * Double(i) > 180 ? 360 : 0), time: t0 + Double(i), accuracy: 5)) }
            t.append(("gps/antimeridian-crossing", s.trace))
        }
        do {
            var s = TraceScript(header: gpsHeader("gps-dropout", "GPS with a drop-out: a 60 s gap without fixes keeps one part; the geodesic length spans the gap", .polyline, center: (46.0505, 14.5), resolution: 0.5))
            for f in walk(4) { s.gps(f) }
            for f in walk(4, from: (46.0506, 14.5), start: 64) { s.gps(f) }
            t.append(("gps/dropout-gap", s.trace))
        }
        return t
    }

    // MARK: synthetic/ — seeded stress traces

    static func synthetic() -> [(String, Trace)] {
        var t: [(String, Trace)] = []
        for (seed, type, taps) in [(UInt64(1), GeometryType.polyline, 300), (2, .polygon, 300), (3, .multipoint, 200)] {
            var r = SplitMix64(seed: seed)
            var s = TraceScript(header: header("random-taps-\(type.rawValue)", "Stress: \(taps) seeded random taps (seed \(seed)) on a \(type.rawValue), every tenth followed by an undo", type))
            s.pause = 0.35
            for i in 0..<taps {
                s.tap(10 + r.nextUnit() * 380, 10 + r.nextUnit() * 380)
                if i % 10 == 9 { s.call(.undo) }
            }
            t.append(("synthetic/random-taps-\(type.rawValue)-seed\(seed)", s.trace))
        }
        do {
            var r = SplitMix64(seed: 4)
            var s = TraceScript(header: header("random-gestures", "Stress: 400 seeded random gestures (taps, holds, drags, pans, pinches, undo, redo; seed 4) on a polygon", .polygon, square))
            for _ in 0..<400 {
                let x = 20 + r.nextUnit() * 360
                let y = 20 + r.nextUnit() * 360
                switch Int(r.next() % 8) {
                case 0, 1, 2: s.tap(x, y)
                case 3: s.holdDrag(from: (x, y), to: (x + r.nextUnit() * 40 - 20, y + r.nextUnit() * 40 - 20), steps: 3)
                case 4: s.drag(from: (x, y), to: (x + r.nextUnit() * 60 - 30, y + r.nextUnit() * 60 - 30), steps: 3)
                case 5: s.pinch(center: (200, 200), from: 100, to: 80 + r.nextUnit() * 40, steps: 2)
                case 6: s.call(.undo)
                default: s.call(.redo)
                }
            }
            t.append(("synthetic/random-gestures-seed4", s.trace))
        }
        do {
            var r = SplitMix64(seed: 5)
            var h = gpsHeader("random-walk-gps", "Stress: a seeded 3,000-fix GPS random walk with noise, 2% duplicates and 1% drop-outs (seed 5)", .polyline, center: (46.05, 14.5), resolution: 2)
            h.gpsFilter.minimumDistance = 1
            var s = TraceScript(header: h)
            var lat = 46.05
            var lon = 14.5
            var time = 1_700_000_000.0
            var heading = 0.0
            var last: GPSFix?
            for _ in 0..<3000 {
                time += 1
                if Int(r.next() % 100) == 0 { time += 30 }  // drop-out
                if let l = last, Int(r.next() % 50) == 0 {
                    s.gps(l)
                    continue
                }
                heading += (r.nextUnit() - 0.5) * 0.6
                lat += cos(heading) * 0.00002 + (r.nextUnit() - 0.5) * 0.000004
                lon += sin(heading) * 0.00003 + (r.nextUnit() - 0.5) * 0.000006
                let f = fix((lat * 1e7).rounded() / 1e7, (lon * 1e7).rounded() / 1e7, time: time, accuracy: 3 + (r.nextUnit() * 40).rounded() / 10)
                s.gps(f)
                last = f
            }
            t.append(("synthetic/random-walk-gps-seed5", s.trace))
        }
        // The readers' seeded generators.
        let touches = TouchGenerator(screen: ScreenSize(width: 400, height: 400))
        for (kind, seed, type) in [(SyntheticGesture.tap, UInt64(11), GeometryType.polyline), (.hold, 12, .polygon), (.drag, 13, .polyline), (.pan, 14, .polygon), (.pinch, 15, .polyline)] {
            t.append(("synthetic/generated-\(kind.rawValue)s-seed\(seed)", TraceBuilder.touchTrace(
                touches.generate(kind, count: 40, seed: seed), name: "generated-\(kind.rawValue)s-seed\(seed)",
                description: "Generated: 40 \(kind.rawValue) gestures (TouchGenerator, seed \(seed)) on a \(type.rawValue) sketch", screen: touches.screen, geometryType: type)))
        }
        t.append(("synthetic/generated-walk-seed16", TraceBuilder.touchTrace(
            touches.randomWalk(count: 150, seed: 16), name: "generated-walk-seed16",
            description: "Generated: 150 mixed gestures (TouchGenerator random walk, seed 16) on a polygon sketch", screen: touches.screen, geometryType: .polygon)))
        do {
            var g = GPSTrackGenerator(latitude: 46.05, longitude: 14.5)
            g.noise = 3
            g.dropoutProbability = 0.01
            let fixes = g.generate(count: 2000, seed: 17)
            var filter = TraceHeader.defaultGPSFilter
            filter.minimumDistance = 2
            t.append(("synthetic/generated-gps-seed17", TraceBuilder.gpsTrace(
                GPSTrack(fixes: fixes, segmentCount: 1), name: "generated-gps-seed17",
                description: "Generated: a 2,000-step GPS track with 3 m noise and 1% drop-outs (GPSTrackGenerator, seed 17), minDistance 2 m", filter: filter)))
            var a = TraceBuilder.gpsTrace(
                GPSTrack(fixes: GPSTrackGenerator.antimeridianCrossing().generate(count: 60, seed: 18), segmentCount: 1), name: "generated-antimeridian-seed18",
                description: "Generated: an eastbound track crossing the antimeridian at 65°N (GPSTrackGenerator.antimeridianCrossing, seed 18) on a wrapping map")
            a.header.options.wrapAround = true
            t.append(("gps/generated-antimeridian-seed18", a))
        }
        do {
            var s = TraceScript(header: header("undo-churn", "Stress: 500 programmatic inserts then 500 undos then 250 redos", .polyline))
            s.pause = 0.01
            s.call(.addPart)
            for i in 0..<500 { s.call(.insertVertex(part: 0, index: i, point: Point(Double(i % 50) * 4 - 100, Double(i / 50) * 10 - 50))) }
            for _ in 0..<500 { s.call(.undo) }
            for _ in 0..<250 { s.call(.redo) }
            t.append(("synthetic/undo-churn", s.trace))
        }
        return t
    }

    // MARK: demo/

    static func demo() -> [(String, Trace)] {
        let (_, base) = script("demo/demo", "Sketching a field boundary: four taps make a polygon, a mid-vertex insert, a drag of a corner, undo and redo, over a layer of points of interest", .polygon, configure: { h in
            h.options.showMagnifierOnTapAndHold = true
            h.layers = [graphicsLayer("pois", [poi(-120, 120, "Depot", "store", 3), poi(130, -20, "Well", "water", 7)], renderer: .simple(marker))]
        }) { s in
            s.tap(80, 80)
            s.tap(320, 80)
            s.tap(320, 320)
            s.tap(80, 320)
            s.tap(200, 320)  // mid-vertex of the bottom side
            s.tap(200, 370)  // insert there
            s.tap(320, 80)   // select the top-right corner
            s.holdDrag(from: (320, 80), to: (360, 40), steps: 8)
            s.call(.undo)
            s.call(.redo)
        }
        var trace = base
        trace.header.options.svgStep = nil
        return [("demo/demo", trace)]
    }

    // MARK: malformed/

    static func malformed() -> [Entry] {
        let h = #"{"t":0,"type":"header","format":"mapsketch-trace","version":1,"name":"bad","sketch":{"geometryType":"polyline"}}"#
        let cases: [(String, [String])] = [
            ("malformed/syntax-trailing-comma", [h, #"{"t":0.1,"type":"touch","phase":"began","x":1,"y":2,}"#]),
            ("malformed/syntax-unterminated-string", [h, #"{"t":0.1,"type":"touch","phase":"began,"x":1,"y":2}"#]),
            ("malformed/empty-file", [""]),
            ("malformed/missing-header", [#"{"t":0.1,"type":"touch","phase":"began","x":1,"y":2}"#]),
            ("malformed/unsupported-version", [#"{"t":0,"type":"header","version":7}"#]),
            ("malformed/unknown-event-type", [h, #"{"t":0.1,"type":"swipe","x":1,"y":2}"#]),
            ("malformed/bad-touch-phase", [h, #"{"t":0.1,"type":"touch","phase":"down","x":1,"y":2}"#]),
            ("malformed/missing-coordinate", [h, #"{"t":0.1,"type":"touch","phase":"began","x":1}"#]),
            ("malformed/time-goes-backwards", [h, #"{"t":0.5,"type":"undo"}"#, #"{"t":0.2,"type":"redo"}"#]),
            ("malformed/negative-time", [h, #"{"t":-1,"type":"undo"}"#]),
            ("malformed/unknown-member", [h, #"{"t":0.1,"type":"undo","count":3}"#]),
            ("malformed/string-for-number", [h, #"{"t":0.1,"type":"touch","phase":"began","x":"12","y":2}"#]),
            ("malformed/sketch-geometry-type-mismatch", [#"{"t":0,"type":"header","version":1,"sketch":{"geometryType":"polygon","geometry":{"paths":[[[0,0],[1,1]]]}}}"#]),
            ("malformed/bad-color", [#"{"t":0,"type":"header","version":1,"layers":[{"name":"a","renderer":{"type":"simple","symbol":{"type":"marker","color":"red"}}}]}"#]),
            ("malformed/latitude-out-of-range", [h, #"{"t":1,"type":"gps","lat":95,"lon":10}"#]),
            ("malformed/zero-resolution", [#"{"t":0,"type":"header","version":1,"viewport":{"center":{"x":0,"y":0},"resolution":0}}"#]),
            ("malformed/duplicate-layer-name", [#"{"t":0,"type":"header","version":1,"layers":[{"name":"pois"},{"name":"pois"}]}"#]),
            ("malformed/geometry-bad-coordinates", [h, #"{"t":1,"type":"setGeometry","geometry":{"paths":[[[0,0],[1,"a"]]]}}"#]),
        ]
        return cases.map { Entry(path: $0.0, text: $0.1.joined(separator: "\n") + "\n") }
    }

    // MARK: Real files

    static func files(_ root: URL, _ folder: String, suffixes: [String]) -> [URL] {
        let dir = root.appendingPathComponent(folder)
        guard let e = FileManager.default.enumerator(at: dir, includingPropertiesForKeys: nil) else { return [] }
        var out: [URL] = []
        for case let u as URL in e where suffixes.contains(where: { u.lastPathComponent.hasSuffix($0) }) { out.append(u) }
        return out.sorted { $0.path < $1.path }
    }

    static func slug(_ s: String) -> String {
        String(s.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" })
    }

    /// One gps/real-… trace per GPX and NMEA file under real/, embedding its fixes.
    static func realGPS(root: URL) throws -> [Entry] {
        var out: [Entry] = []
        for u in files(root, "real/gpx", suffixes: [".gpx", ".gpx.gz"]) + files(root, "real/nmea", suffixes: [".log", ".nmea"]) {
            let rel = u.path.replacingOccurrences(of: root.path + "/", with: "")
            let bytes = Array((try? Data(contentsOf: u)) ?? Data())
            let track: GPSTrack
            do {
                track = try GPSFileReader.read(bytes: bytes, fileName: u.lastPathComponent)
            } catch {
                // A file the reader refuses: record the refusal as a malformed trace's expectation.
                FileHandle.standardError.write(Data("corpus: \(rel): \(error)\n".utf8))
                continue
            }
            let base = slug(u.deletingLastPathComponent().lastPathComponent + "-" + u.lastPathComponent.replacingOccurrences(of: ".gz", with: "").replacingOccurrences(of: ".gpx", with: "").replacingOccurrences(of: ".log", with: ""))
            let kind = rel.hasPrefix("real/gpx") ? "gpx" : "nmea"
            let trace = TraceBuilder.gpsTrace(
                track, name: "\(kind)-\(base)", description: "Real \(kind.uppercased()) file \(rel) (\(track.fixes.count) fixes, \(track.segmentCount) segment(s)) replayed into a polyline sketch")
            out.append(Entry(path: "gps/real-\(kind)-\(base)", text: TraceEncoder.encode(trace)))
        }
        return out
    }

    /// One touch/… trace per getevent recording under real/getevent, scaled with the device preset.
    static func realTouches(root: URL) throws -> [Entry] {
        var out: [Entry] = []
        let notRecordings: Set<String> = ["SOURCE.txt", "LICENSE", "LICENSE.txt", "README.md", "README.txt", "COPYING"]
        for u in files(root, "real/getevent", suffixes: [".txt", ".log", ".getevent"]) where !notRecordings.contains(u.lastPathComponent) {
            let rel = u.path.replacingOccurrences(of: root.path + "/", with: "")
            guard let text = try? String(contentsOf: u, encoding: .utf8) else { continue }
            let options: GeteventReader.Options
            if rel.contains("Tablet") {
                options = .asusTF201
            } else if rel.contains("Emulator") {
                options = .androidEmulator
            } else {
                options = .galaxyS
            }
            guard let screen = options.screen else { continue }
            let touches: [TouchEvent]
            do {
                touches = try GeteventReader.read(text: text, file: u.lastPathComponent, options: options)
            } catch {
                FileHandle.standardError.write(Data("corpus: \(rel): \(error)\n".utf8))
                continue
            }
            let folder = u.deletingLastPathComponent().lastPathComponent
            let base = slug(folder + "-" + u.deletingPathExtension().lastPathComponent)
            let trace = TraceBuilder.touchTrace(
                touches, name: "getevent-\(base)", description: "Real Android getevent recording \(rel) (\(touches.count) touches) replayed into a polyline sketch",
                screen: screen)
            out.append(Entry(path: "touch/real-\(base)", text: TraceEncoder.encode(trace)))
        }
        return out
    }
}
