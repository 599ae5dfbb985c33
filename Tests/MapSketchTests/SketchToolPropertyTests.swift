import MapSketch
import MapSketchGeometry
import MapSketchTestSupport
import Testing

/// Seeded property test for the tools: thousands of random steps — transforms by call and by
/// handle (some cancelled), tool switches, freehand strokes, shapes, reticle placements, vertex
/// edits by tap and call, with undos and redos mixed in. After every undo and redo the geometry
/// is, bit for bit, what it was when that step was made; at the end undo all gives the initial
/// geometry and redo all the final one, bit for bit.
@Suite @MainActor struct SketchToolPropertyTests {
    /// Every coordinate's bits, part by part (so −0 and 0 differ, as they would on disk).
    static func bits(_ g: Geometry) -> [[UInt64]] {
        g.parts.map { part in
            part.flatMap { p in [p.x.bitPattern, p.y.bitPattern, p.z?.bitPattern ?? 1, p.m?.bitPattern ?? 1] }
        }
    }

    @Test(arguments: [(GeometryType.polygon, UInt64(21)), (.polyline, 22), (.polygon, 23), (.multipoint, 24)])
    func randomToolSequencesUndoAndRedoExactly(type: GeometryType, seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        let initial: Geometry
        switch type {
        case .polygon: initial = .polygon(Polygon(rings: [[Point(-80, -80), Point(-80, 80), Point(80, 80), Point(80, -80)]]))
        case .polyline: initial = .polyline(Polyline(paths: [[Point(-60, -30), Point(0, 40)], [Point(20, 20), Point(90, -10)]]))
        default: initial = .multipoint(Multipoint(points: [Point(5, 5), Point(-30, 40)]))
        }
        let lines = type == .polyline || type == .polygon
        let h = try SketchHarness(geometry: initial)
        let sketch = h.sketch
        var states = [Self.bits(initial)]  // states[k]: the geometry after k steps
        var cursor = 0
        var counts: [String: Int] = [:]

        func screenPoint() -> ScreenPoint { sp(rng.double(in: 20...380), rng.double(in: 20...380)) }
        func path(_ n: Int) -> [ScreenPoint] {
            var p = screenPoint()
            return (0..<n).map { _ in
                p = sp(min(390, max(10, p.x + rng.double(in: -40...40))), min(390, max(10, p.y + rng.double(in: -40...40))))
                return p
            }
        }
        func selectScope() throws {
            let parts = sketch.vertices.partCount
            guard parts > 0 else { return }
            if rng.int(in: 0...1) == 0 { try sketch.selectGeometry() } else { try sketch.selectPart(rng.int(in: 0...(parts - 1))) }
        }

        for step in 0..<3000 {
            let undoBefore = sketch.undoCount
            let big = sketch.vertices.vertexCount > 300
            let roll = rng.int(in: 0...99)
            var what = ""
            do {
                switch roll {
                case 0..<12:
                    what = "transform call"
                    try selectScope()
                    switch rng.int(in: 0...2) {
                    case 0: try sketch.moveSelection(dx: rng.double(in: -50...50), dy: rng.double(in: -50...50))
                    case 1: try sketch.rotateSelection(degrees: rng.int(in: 0...1) == 0 ? Double(90 * rng.int(in: -3...3)) : rng.double(in: -180...180))
                    default:
                        let f = rng.double(in: 0.6...1.6)
                        try sketch.scaleSelection(x: f, y: rng.int(in: 0...3) == 0 ? -f : f, anchor: rng.int(in: 0...1) == 0 ? nil : Point(0, 0))
                    }
                case 12..<24:
                    what = "handle drag"
                    try selectScope()
                    if rng.int(in: 0...3) == 0 { sketch.transformAnchor = Point(rng.double(in: -100...100), rng.double(in: -100...100)) }
                    let handles = sketch.transformHandles(in: h.map)
                    if let handle = handles.isEmpty ? nil : handles[rng.int(in: 0...(handles.count - 1))] {
                        var moves = [handle.position]
                        moves += path(rng.int(in: 1...6)).map { sp(handle.position.x + ($0.x - 200) / 4, handle.position.y + ($0.y - 200) / 4) }
                        if let last = moves.last, last.distance(to: handle.position) > 11 {
                            if rng.int(in: 0...2) == 0 { h.holdDrag(moves) } else { h.drag(moves, cancel: rng.int(in: 0...5) == 0) }
                        }
                    }
                    sketch.transformAnchor = nil
                case 24..<32:
                    what = "switch tool"
                    let tools: [SketchTool] = lines
                        ? [.vertex, .freehand(tolerance: rng.double(in: 0...6)), .shape(.rectangle), .shape(.ellipse(vertexCount: rng.int(in: 3...40))), .shape(.triangle), .shape(.arrow), .reticle]
                        : [.vertex, .reticle]
                    try sketch.setTool(tools[rng.int(in: 0...(tools.count - 1))])
                case 32..<44 where lines && !big:
                    what = "stroke or shape"
                    switch sketch.tool {
                    case .freehand, .shape: h.drag(path(rng.int(in: 2...30)), cancel: rng.int(in: 0...9) == 0)
                    default:
                        if rng.int(in: 0...1) == 0 {
                            try sketch.drawFreehand(through: path(rng.int(in: 2...30)), tolerance: rng.double(in: 0...5))
                        } else {
                            try sketch.drawShape([.rectangle, .triangle, .arrow, .ellipse(vertexCount: 9)][rng.int(in: 0...3)], from: screenPoint(), to: screenPoint())
                        }
                    }
                case 44..<62:
                    what = "vertex edit"
                    let parts = sketch.vertices.parts
                    let nonEmpty = parts.indices.filter { !parts[$0].isEmpty }
                    switch rng.int(in: 0...4) {
                    case 0 where !big: h.tapScreen(screenPoint())
                    case 1 where !nonEmpty.isEmpty:
                        let p = nonEmpty[rng.int(in: 0...(nonEmpty.count - 1))]
                        try sketch.moveVertex(part: p, index: rng.int(in: 0...(parts[p].count - 1)), to: h.map.toMap(screenPoint()))
                    case 2 where !nonEmpty.isEmpty:
                        let p = nonEmpty[rng.int(in: 0...(nonEmpty.count - 1))]
                        try sketch.removeVertex(part: p, index: rng.int(in: 0...(parts[p].count - 1)))
                    case 3 where !nonEmpty.isEmpty:
                        let p = nonEmpty[rng.int(in: 0...(nonEmpty.count - 1))]
                        if !big { try sketch.insertVertex(h.map.toMap(screenPoint()), part: p, at: rng.int(in: 0...parts[p].count)) }
                    default:
                        if let v = nonEmpty.first {
                            try sketch.select(.vertex(part: v, index: 0))
                            h.holdAndDrag(at: try sketch.vertices.vertex(part: v, index: 0), through: [h.map.toMap(screenPoint())])
                        }
                    }
                case 62..<72:
                    what = "reticle"
                    if sketch.tool != .reticle { try sketch.setTool(.reticle) }
                    h.map.pan(byScreenDeltaX: rng.double(in: -60...60), dy: rng.double(in: -60...60))
                    switch rng.int(in: 0...3) {
                    case 0: try sketch.reticleSelect()
                    case 1: try sketch.reticlePickUp()
                    case 2: try sketch.reticleCancel()
                    default: if !big { try sketch.reticlePlace() }
                    }
                case 72..<86:
                    what = "undo"
                    if sketch.undo() {
                        cursor -= 1
                        #expect(Self.bits(sketch.geometry) == states[cursor], "undo at step \(step)")
                    }
                case 86..<96:
                    what = "redo"
                    if sketch.redo() {
                        cursor += 1
                        #expect(Self.bits(sketch.geometry) == states[cursor], "redo at step \(step)")
                    }
                default:
                    what = "pan"
                    h.map.viewport = Viewport(center: Point(0, 0), resolution: 1)
                }
            } catch {
                counts["refused", default: 0] += 1
            }
            counts[what, default: 0] += 1
            if what != "undo" && what != "redo" {
                let made = sketch.undoCount - undoBefore
                #expect(made == 0 || made == 1, "\(what) at step \(step) made \(made) steps")
                if made == 1 {
                    states.removeSubrange((cursor + 1)...)
                    states.append(Self.bits(sketch.geometry))
                    cursor += 1
                } else {
                    #expect(Self.bits(sketch.geometry) == states[cursor], "\(what) at step \(step) changed the geometry without a step")
                }
            }
            #expect(sketch.undoCount == cursor)
        }
        #expect(Self.bits(sketch.geometry) == states[cursor])
        while sketch.undo() {}
        #expect(Self.bits(sketch.geometry) == states[0], "undo all gives the initial geometry")
        while sketch.redo() {}
        #expect(Self.bits(sketch.geometry) == states.last, "redo all gives the final geometry")
        #expect(states.count > 200, "enough steps were recorded to mean something: \(counts)")
    }
}
