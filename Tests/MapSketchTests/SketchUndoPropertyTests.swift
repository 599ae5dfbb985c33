import MapSketch
import MapSketchGeometry
import MapSketchTestSupport
import Testing

/// Seeded property test: 10,000 random edits, interactive (taps, drags, cancelled drags, pans)
/// and programmatic (every call), with undos and redos mixed in; then undo all gives the initial
/// geometry exactly and redo all the final one, with the geometry and selection checked after
/// every single undo and redo against what they were when the step was made.
@Suite @MainActor struct SketchUndoPropertyTests {
    struct Step {
        var selectionBefore: SketchSelection
        var geometryAfter: Geometry
        var selectionAfter: SketchSelection
    }

    @Test(arguments: [(GeometryType.polyline, UInt64(11)), (.polygon, 12), (.multipoint, 13), (.point, 14)])
    func tenThousandRandomEditsUndoToTheStartAndRedoToTheEnd(type: GeometryType, seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        let initial: Geometry
        switch type {
        case .polyline: initial = .polyline(Polyline(paths: [[Point(-50, -50), Point(0, 20), Point(60, -10)]]))
        case .polygon: initial = .polygon(Polygon(rings: [[Point(-80, -80), Point(-80, 80), Point(80, 80), Point(80, -80)]]))
        case .multipoint: initial = .multipoint(Multipoint(points: [Point(5, 5)]))
        default: initial = .point(nil)
        }
        let h = try SketchHarness(geometry: initial)
        let sketch = h.sketch
        var steps: [Step] = []
        var cursor = 0  // steps[0..<cursor] are done
        let initialSelection = sketch.selection
        var undos = 0
        var redos = 0
        var errors = 0

        func expectState(_ g: Geometry, _ s: SketchSelection, _ what: String) {
            #expect(sketch.geometry == g, "\(what)")
            #expect(sketch.selection == s, "\(what)")
        }
        func geometryBefore(_ k: Int) -> Geometry { k == 0 ? initial : steps[k - 1].geometryAfter }

        func randomMapPoint() -> Point { Point(rng.double(in: -180...180), rng.double(in: -180...180)) }
        func randomVertex() -> (part: Int, index: Int)? {
            let parts = sketch.vertices.parts
            let nonEmpty = parts.indices.filter { !parts[$0].isEmpty }
            guard !nonEmpty.isEmpty else { return nil }
            let p = nonEmpty[rng.int(in: 0...(nonEmpty.count - 1))]
            return (p, rng.int(in: 0...(parts[p].count - 1)))
        }

        for i in 0..<10_000 {
            let before = sketch.selection
            let undoBefore = sketch.undoCount
            let geometryBeforeOp = sketch.geometry
            let big = sketch.vertices.vertexCount > 150
            let roll = rng.int(in: 0...99)
            do {
                switch roll {
                case 0..<22:
                    // Tap on the map, on a vertex or on a mid-vertex.
                    if rng.int(in: 0...2) == 0, let v = randomVertex() {
                        h.tapScreen(h.map.toScreen(try sketch.vertices.vertex(part: v.part, index: v.index)))
                    } else if rng.int(in: 0...2) == 0, let v = randomVertex(), type == .polyline || type == .polygon {
                        let part = try sketch.vertices.part(v.part)
                        let segs = part.segmentCount(closed: type == .polygon)
                        if segs > 0 {
                            h.tapScreen(h.map.toScreen(part.midVertex(segment: v.index % segs, closed: type == .polygon)))
                        }
                    } else if !big {
                        h.tap(randomMapPoint())
                    }
                case 22..<30:
                    // Hold on the selected vertex and drag (sometimes cancelled), or hold elsewhere.
                    var at = randomMapPoint()
                    if case .vertex(let p, let idx) = sketch.selection { at = try sketch.vertices.vertex(part: p, index: idx) }
                    h.holdAndDrag(at: at, through: [randomMapPoint(), randomMapPoint()], cancel: rng.int(in: 0...4) == 0)
                case 30..<33:
                    h.pan(from: ScreenPoint(x: 200, y: 200), to: ScreenPoint(x: rng.double(in: 180...220), y: rng.double(in: 180...220)))
                case 33..<43:
                    let v = randomVertex()
                    let part = v?.part ?? 0
                    let count = (try? sketch.vertices.vertexCount(part: part)) ?? 0
                    if !big || rng.int(in: 0...3) == 0 {
                        // Sometimes out of range on purpose.
                        try sketch.insertVertex(randomMapPoint(), part: part, at: rng.int(in: 0...(count + 1)))
                    }
                case 43..<50:
                    if !big { try sketch.appendVertex(randomMapPoint()) }
                case 50..<60:
                    let v = randomVertex() ?? (0, 0)
                    try sketch.moveVertex(part: v.part, index: v.index, to: randomMapPoint())
                case 60..<72:
                    let v = randomVertex() ?? (0, 0)
                    try sketch.removeVertex(part: v.part, index: v.index)
                case 72..<75:
                    if !big || type != .polyline { try sketch.addPart() }
                case 75..<77:
                    try sketch.removePart(rng.int(in: 0...max(0, sketch.vertices.partCount)))
                case 77..<79:
                    try sketch.removeSelectedVertex()
                case 79..<80:
                    if sketch.vertices.partCount > 1 || rng.int(in: 0...3) == 0 { try sketch.removeSelectedPart() }
                case 80..<82:
                    sketch.selectLastVertex()
                case 82..<83:
                    if rng.int(in: 0...3) == 0 { sketch.clear() }
                case 83..<85:
                    // Apply a geometry of the sketch's type (rarely another type: an error).
                    if rng.int(in: 0...9) == 0 {
                        try sketch.applyGeometry(type == .polygon ? .multipoint(Multipoint(points: [])) : .polygon(Polygon(rings: [])))
                    } else {
                        var g = sketch.geometry.mapPoints { Point($0.x + 1, $0.y - 1) }
                        if g.isEmpty, type == .point { g = .point(randomMapPoint()) }
                        try sketch.applyGeometry(g)
                    }
                case 85..<93:
                    if sketch.undo() {
                        undos += 1
                        cursor -= 1
                        expectState(geometryBefore(cursor), steps[cursor].selectionBefore, "undo at op \(i)")
                    }
                    continue
                default:
                    if sketch.redo() {
                        redos += 1
                        expectState(steps[cursor].geometryAfter, steps[cursor].selectionAfter, "redo at op \(i)")
                        cursor += 1
                    }
                    continue
                }
            } catch {
                errors += 1
                #expect(sketch.geometry == geometryBeforeOp, "a refused call changes nothing (op \(i): \(error))")
                #expect(sketch.undoCount == undoBefore)
                continue
            }
            if sketch.undoCount == undoBefore + 1 {
                steps.removeSubrange(cursor...)
                steps.append(Step(selectionBefore: before, geometryAfter: sketch.geometry, selectionAfter: sketch.selection))
                cursor += 1
            } else {
                #expect(sketch.undoCount == undoBefore, "op \(i) recorded one step or none")
                #expect(sketch.geometry == geometryBeforeOp, "op \(i) changed the geometry without an undo step")
            }
        }
        // End on an edit, so there is nothing left to redo and the final selection is the last
        // step's (the loop may end on selection changes, which record no step).
        do {
            sketch.selectLastVertex()
            let s = sketch.selection
            try sketch.appendVertex(Point(1, 2))
            steps.removeSubrange(cursor...)
            steps.append(Step(selectionBefore: s, geometryAfter: sketch.geometry, selectionAfter: sketch.selection))
            cursor += 1
        }
        let final = sketch.geometry
        let finalSelection = sketch.selection
        #expect(cursor == steps.count && sketch.undoCount == steps.count)
        #expect(steps.count > 2000, "the run made real progress (\(steps.count) steps)")
        #expect(undos > 300 && redos > 40 && errors > 50, "undos \(undos), redos \(redos), errors \(errors)")

        while sketch.canUndo {
            sketch.undo()
            cursor -= 1
            expectState(geometryBefore(cursor), steps[cursor].selectionBefore, "undo-all step \(cursor)")
        }
        #expect(cursor == 0)
        #expect(sketch.geometry == initial)
        #expect(steps.first?.selectionBefore == steps.first.map { _ in sketch.selection })
        _ = initialSelection
        while sketch.canRedo {
            sketch.redo()
            expectState(steps[cursor].geometryAfter, steps[cursor].selectionAfter, "redo-all step \(cursor)")
            cursor += 1
        }
        #expect(sketch.geometry == final)
        #expect(sketch.selection == finalSelection)
        #expect(h.changes.count == sketch.geometryChangeCount)
    }
}
