import Foundation
import MapSketch
import MapSketchGeometry

extension Corpus {
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
            s.refusedCall(.applyGeometry(.point(Point(1, 1))))
        })
        t.append(script("programmatic/set-geometry-clears-history", "setGeometry replaces the sketch and clears the undo history", .polyline) { s in
            s.tap(100, 100)
            s.tap(300, 300)
            s.call(.setGeometry(line([(-50, -50), (50, 50)])))
            s.call(.undo)
        })
        t.append(script("programmatic/bad-indices-are-logged", "Calls with indices out of range are logged as errors and the replay goes on", .polyline, twoVertexLine) { s in
            s.refusedCall(.removeVertex(part: 0, index: 9))
            s.refusedCall(.moveVertex(part: 3, index: 0, point: Point(0, 0)))
            s.refusedCall(.removePart(part: 2))
            s.refusedCall(.removeSelectedVertex)
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
            s.refusedCall(.removeGraphic(layer: "pois", index: 5))
            s.refusedCall(.addGraphic(layer: "missing", graphic: poi(0, 0, "x", "y", 0)))
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
            s.refusedCall(.addGraphic(layer: "shapes", graphic: TraceGraphic(geometry: .point(Point(0, 0)), symbol: .simpleFill(SimpleFillSymbol()))))
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
}
