import MapSketch
import MapSketchGeometry

extension Corpus {
    // MARK: snapping/ — snapping and geometry guides (format version 4)
    //
    // Every trace uses the 400 × 400 pt screen at 1 map unit per point centred on the origin:
    // screen (x, y) is map (x − 200, 200 − y), so the snap tolerance (10 pt by default) is 10 map
    // units. Traces that tap near a sketch vertex set the vertex hit tolerance to 0 (a vertex is
    // then hit within 5 pt, a mid-vertex within 4 pt), so the tap adds a vertex that snaps
    // instead of selecting the vertex.

    /// Snapping on with `settings` (the sketch's vertices and edges, 10 pt, unless changed).
    static func snapping(_ configure: @escaping (inout SnapSettings) -> Void = { _ in }) -> (inout TraceHeader) -> Void {
        { h in
            var s = SnapSettings(isEnabled: true)
            configure(&s)
            h.options.snapping = s
            h.vertexHitTolerance = 0
        }
    }

    static func snapping() -> [(String, Trace)] {
        snapRuleTraces() + guideTraces() + snapLayerTraces() + [layerFileTrace()]
    }

    /// The first feature of `snapping/parcels.geojson` (`mapsketch generate layer --features 300
    /// --seed 2026 --geometry polygon`), its ring as the file writes it (WGS 84).
    static let parcelsFeature1: [(Double, Double)] = [
        (14.5718802, 46.0468534), (14.5718714, 46.0471627), (14.5717611, 46.047353), (14.5715708, 46.0474632),
        (14.5712588, 46.0474748), (14.5712273, 46.0468192), (14.5715708, 46.0467448),
    ]

    /// A polygon drawn with snapping on over a layer read from a file beside the trace: each tap,
    /// 5 pt off a vertex of the layer's first parcel, adds that vertex exactly.
    static func layerFileTrace() -> (String, Trace) {
        let vertices = parcelsFeature1.map { p -> Point in
            guard case .point(let q?)? = try? GeometryEngine.project(.point(Point(p.0, p.1)), from: .wgs84, to: .webMercator) else {
                preconditionFailure("WGS 84 projects to Web Mercator")
            }
            return q
        }
        let xs = vertices.map(\.x)
        let ys = vertices.map(\.y)
        let center = Point(((xs.min() ?? 0) + (xs.max() ?? 0)) / 2, ((ys.min() ?? 0) + (ys.max() ?? 0)) / 2)
        var layer = TraceGraphicsLayer(name: "parcels", renderer: .simple(.simpleFill(SimpleFillSymbol())))
        layer.source = TraceLayerSource(path: "parcels.geojson")
        layer.calloutsEnabled = false
        let configure = snapping { $0.layers = [SnapLayerSource(name: "parcels")] }
        return script(
            "snapping/layer-file-parcels",
            "A layer from a file beside the trace: \"parcels\" reads the 300 polygons of parcels.geojson (WGS 84, projected to Web Mercator); the map is centred on parcel 1 at 1 m per point; taps 3 pt right and 4 pt below its vertices 0, 2, 4 and 5 add a polygon whose vertices are those four vertices exactly (each snap logged against the layer's graphic 0, whose ring is stored clockwise, the Esri way: its vertices 0, 5, 3 and 2)",
            .polygon,
            configure: { h in
                configure(&h)
                h.viewport = Viewport(center: center, resolution: 1)
                h.layers = [layer]
            }
        ) { s in
            for k in [0, 2, 4, 5] {
                s.tap(vertices[k].x - center.x + 200 + 3, 200 - (vertices[k].y - center.y) + 4)
            }
        }
    }

    static func snapRuleTraces() -> [(String, Trace)] {
        var t: [(String, Trace)] = []
        t.append(script("snapping/vertex-snap-on-tap", "Snapping to the sketch's vertices and edges (10 pt): vertex 2 (100, 100) selected, a tap at map (−106, −6) (screen (94, 206)), 8.49 from vertex 0 (−100, 0), adds vertex 3 at (−100, 0) exactly; the log says snapped to sketch vertex 0", .polyline, threeVertexLine, configure: snapping()) { s in
            s.call(.selectVertex(part: 0, index: 2))
            s.tap(94, 206)
        })
        t.append(script("snapping/edge-snap-on-tap", "A tap at map (−50, 7) (screen (150, 193)), no vertex within 10, 7 from edge 0 ((−100, 0)–(100, 0)), adds vertex 3 at (−50, 0), the nearest point of the edge", .polyline, threeVertexLine, configure: snapping()) { s in
            s.call(.selectVertex(part: 0, index: 2))
            s.tap(150, 193)
        })
        t.append(script("snapping/vertex-beats-nearer-edge", "Precedence: a tap at map (−93, 6) (screen (107, 194)) is 6 from edge 0 but 9.22 from vertex 0 (−100, 0); the vertex within the tolerance wins: vertex 3 is (−100, 0)", .polyline, threeVertexLine, configure: snapping()) { s in
            s.call(.selectVertex(part: 0, index: 2))
            s.tap(107, 194)
        })
        t.append(script("snapping/sketch-vertices-off", "Per-source switch: with the sketch's vertices off (edges on) the tap of vertex-beats-nearer-edge at map (−93, 6) snaps to edge 0 instead: vertex 3 is (−93, 0)", .polyline, threeVertexLine, configure: snapping { $0.snapsToSketchVertices = false }) { s in
            s.call(.selectVertex(part: 0, index: 2))
            s.tap(107, 194)
        })
        t.append(script("snapping/snapping-off", "Global switch: a tap at map (−93, 6) snaps to (−100, 0) (vertex 3); setSnapping with enabled false; the same tap adds vertex 4 at (−93, 6), unsnapped; setSnapping back on with the edges off: a tap at map (−106, −6) (screen (94, 206)) adds vertex 5 at (−100, 0) (vertices 0 and 3 are both there, 8.49 away: the lower index, 0, is reported)", .polyline, threeVertexLine, configure: snapping()) { s in
            s.call(.selectVertex(part: 0, index: 2))
            s.tap(107, 194)
            s.call(.setSnapping(SnapSettings(isEnabled: false)))
            s.tap(107, 194)
            s.call(.setSnapping(SnapSettings(isEnabled: true, snapsToSketchEdges: false)))
            s.tap(94, 206)
        })
        t.append(script("snapping/tolerance-just-inside", "Tolerance boundary: a tap at screen (150, 190.1) is map (−50, 9.900000000000006), 9.9 from edge 0: inside the 10 pt tolerance, vertex 3 is (−50, 0)", .polyline, threeVertexLine, configure: snapping()) { s in
            s.call(.selectVertex(part: 0, index: 2))
            s.tap(150, 190.1)
        })
        t.append(script("snapping/tolerance-just-outside", "Tolerance boundary: a tap at screen (150, 189.9) is map (−50, 10.099999999999994), 10.1 from edge 0: outside the 10 pt tolerance, vertex 3 stays where the finger was", .polyline, threeVertexLine, configure: snapping()) { s in
            s.call(.selectVertex(part: 0, index: 2))
            s.tap(150, 189.9)
        })
        t.append(script("snapping/hold-drag-snaps-to-edge", "Snapping during a hold-drag: vertex 2 (100, 100) of the square, selected by a tap, held and dragged to screen (105, 180) (map (−95, 20)), 5 from edge 0 (x = −100): it ends at (−100, 20); the log says snapped to sketch edge 0; one undo step", .polygon, square, configure: snapping()) { s in
            s.tap(300, 100)
            s.holdDrag(from: (300, 100), to: (105, 180))
        })
        t.append(script("snapping/dragged-vertex-does-not-snap-to-itself", "The dragged vertex and its two edges are no snap targets: vertex 2 (100, 100) of the square dragged in small steps to screen (306, 96) (map (106, 104)) ends there, not back on its own position or edges (which every step passes within 10 pt of); no snap is logged", .polygon, square, configure: snapping()) { s in
            s.tap(300, 100)
            s.holdDrag(from: (300, 100), to: (306, 96), steps: 6)
        })
        t.append(script("snapping/mid-vertex-insert-snaps", "Snapping during a mid-vertex insert: part 0 (−100, 0)–(100, 0), part 1 (−100, 50)–(100, 50); a tap on mid-vertex (0, 0) selects it; a tap at map (30, 45) (screen (230, 155)), 5 from part 1's edge, inserts (30, 50) into part 0: (−100, 0), (30, 50), (100, 0)", .polyline, line([(-100, 0), (100, 0)], [(-100, 50), (100, 50)]), configure: snapping()) { s in
            s.tap(200, 200)
            s.tap(230, 155)
        })
        t.append(script("snapping/reticle-place-snaps", "The reticle's place snaps: setTool reticle, vertex 1 selected, pan (96, 5) puts map (−96, 5) under the reticle, 6.40 from vertex 0 (−100, 0) and 5 from edge 0; reticlePlace adds vertex 2 at (−100, 0) (the vertex wins)", .polyline, twoVertexLine, configure: snapping()) { s in
            s.call(.setTool(.reticle))
            s.call(.selectVertex(part: 0, index: 1))
            s.call(.pan(dx: 96, dy: 5))
            s.call(.reticlePlace)
        })
        return t
    }

    static func guideTraces() -> [(String, Trace)] {
        var t: [(String, Trace)] = []
        let corner = line([(-100, 0), (0, 0)])
        t.append(script("snapping/guide-perpendicular", "Perpendicular guide: the line (−100, 0)–(0, 0) with vertex 1 selected (the anchor); the guide is x = 0. A tap at map (3, 80) (screen (203, 120)) is 3 pt from it at 2.15° (within 10 pt and 5°): vertex 2 is (0, 80); the SVG shows the guide and the snap marker", .polyline, corner, configure: snapping { $0.guides.perpendicular = true }) { s in
            s.call(.selectVertex(part: 0, index: 1))
            s.tap(203, 120)
        })
        t.append(script("snapping/guide-extension", "Extension guide: the line (−100, 0)–(0, 0) carried on beyond (0, 0); a tap at map (80, 3) (screen (280, 197)) is 3 pt from it at 2.15°: vertex 2 is (80, 0)", .polyline, corner, configure: snapping { $0.guides.extension = true }) { s in
            s.call(.selectVertex(part: 0, index: 1))
            s.tap(280, 197)
        })
        t.append(script("snapping/guide-parallel", "Parallel guide: the path (−150, 0), (−100, 50), (−100, −50) with vertex 2 the anchor; segment 0 runs at 45°; a tap at map (−40, 13) (screen (160, 187)) is 2.12 pt from the 45° line through the anchor: vertex 3 is the projection (−38.5, 11.5)", .polyline, line([(-150, 0), (-100, 50), (-100, -50)]), configure: snapping { $0.guides.parallel = true }) { s in
            s.call(.selectVertex(part: 0, index: 2))
            s.tap(160, 187)
        })
        t.append(script("snapping/guide-outside-angle-tolerance", "Angle tolerance: with the perpendicular guide x = 0 through the anchor (0, 0), a tap at map (8, 40) (screen (208, 160)) is within 10 pt of the guide but 11.3° off it (more than 5°): vertex 2 stays at (8, 40)", .polyline, corner, configure: snapping { $0.guides.perpendicular = true }) { s in
            s.call(.selectVertex(part: 0, index: 1))
            s.tap(208, 160)
        })
        t.append(script("snapping/edge-beats-guide", "Precedence: part 1 (−50, 80)–(50, 80); with the anchor (0, 0) of part 0 and the perpendicular guide x = 0, a tap at map (3, 75) is 3 from the guide and 5 from part 1's edge: the edge wins, vertex 2 of part 0 is (3, 80)", .polyline, line([(-100, 0), (0, 0)], [(-50, 80), (50, 80)]), configure: snapping { $0.guides.perpendicular = true }) { s in
            s.call(.selectVertex(part: 0, index: 1))
            s.tap(203, 125)
        })
        return t
    }

    static func snapLayerTraces() -> [(String, Trace)] {
        var t: [(String, Trace)] = []
        let parcels = graphicsLayer(
            "parcels",
            [
                TraceGraphic(geometry: polygon([(20, 20), (20, 80), (80, 80), (80, 20)]), symbol: .simpleFill(SimpleFillSymbol())),
                TraceGraphic(geometry: .point(Point(-60, 60)), symbol: marker),
            ], callouts: false)
        func withParcels(_ source: SnapLayerSource) -> (inout TraceHeader) -> Void {
            let configure = snapping { $0.layers = [source] }
            return { h in
                configure(&h)
                h.layers = [parcels]
            }
        }
        t.append(script("snapping/graphics-layer-vertex-and-edge", "Snapping to the graphics layer \"parcels\" (graphic 0: the square (20, 20)…(80, 80); graphic 1: the point (−60, 60)): taps at map (−55, 64), (50, 86), (76, 84) add (−60, 60) (graphic 1's vertex, 6.40 away), (50, 80) (graphic 0's top edge, 6 away) and (80, 80) (graphic 0's vertex 2 at 5.66 beats its edge at 4)", .polyline, configure: withParcels(SnapLayerSource(name: "parcels"))) { s in
            s.tap(145, 136)
            s.tap(250, 114)
            s.tap(276, 116)
        })
        t.append(script("snapping/graphics-layer-edges-only", "Per-layer switch: \"parcels\" with its vertices off: the tap at map (76, 84) snaps to the top edge of graphic 0 at (76, 80), not to its corner (80, 80); the tap at (−55, 64) near the point graphic stays unsnapped (a point has no edge)", .polyline, configure: withParcels(SnapLayerSource(name: "parcels", vertices: false))) { s in
            s.tap(276, 116)
            s.tap(145, 136)
        })
        return t
    }
}
