import Foundation
import MapSketch
import MapSketchGeometry

// The operations of a soak: each draws what it does from the run's random generator, so a seed
// fixes the sequence.

extension SoakRun {
    /// The mixture: each operation's weight out of the total.
    static let weights: [(SoakOperation, Int)] = [
        (.gesture, 24), (.edit, 20), (.undoRedo, 14), (.snap, 10), (.transform, 10), (.stroke, 8),
        (.addGraphics, 5), (.removeGraphics, 5), (.hitTest, 4),
    ]
    static let totalWeight = weights.reduce(0) { $0 + $1.1 }

    /// Does one operation drawn from the mixture; every 64th also checks the sketch in full.
    func step() {
        var pick = rng.nextInt(in: 0...(Self.totalWeight - 1))
        var op = SoakOperation.gesture
        for (o, w) in Self.weights {
            if pick < w { op = o; break }
            pick -= w
        }
        switch op {
        case .gesture: gesture()
        case .edit: edit()
        case .undoRedo: undoRedo()
        case .snap: snap()
        case .transform: transform()
        case .stroke: stroke()
        case .addGraphics: addGraphics()
        case .removeGraphics: removeGraphics()
        case .hitTest: _ = map.hitTest(at: randomScreenPoint(), tolerance: 10, maxResults: 8)
        }
        tally.operations += 1
        tally.byKind[op, default: 0] += 1
        if sketch.vertices.vertexCount > settings.maxSketchVertices { resetSketch() }
        if tally.operations % 64 == 0 { sketch._checkInvariantsNow() }
        if tally.operations % 256 == 0 { map.viewport = home }
    }

    /// Runs `body`, counting a thrown error as a refused edit.
    func attempt(_ body: () throws -> Void) {
        do { try body() } catch { tally.refused += 1 }
    }

    // MARK: Touch

    /// One synthetic gesture through the map's recognizer; the map pans and zooms, the sketch's
    /// current tool edits. Now and then the tool changes first.
    func gesture() {
        if rng.nextInt(in: 0...9) == 0 {
            let tools: [SketchTool] = [.vertex, .vertex, .freehand(), .shape(.rectangle), .shape(.ellipse(vertexCount: 24)), .shape(.arrow)]
            attempt { try sketch.setTool(tools[rng.nextInt(in: 0...(tools.count - 1))]) }
        }
        let kind = SyntheticGesture.allCases[rng.nextInt(in: 0...(SyntheticGesture.allCases.count - 1))]
        let events = touches.generate(kind, count: 1, seed: rng.next())
        let offset = touchTime
        for var e in events {
            e.time += offset
            map.advanceTime(to: e.time)
            map.handle(e)
            touchTime = e.time
        }
        touchTime += 2
        map.advanceTime(to: touchTime)
    }

    // MARK: Sketch edits

    /// A programmatic edit at a random place (sometimes an index out of range: refused).
    func edit() {
        let store = sketch.vertices
        let parts = store.partCount
        let part = parts == 0 ? 0 : rng.nextInt(in: 0...(parts - 1))
        let count = parts == 0 ? 0 : (try? store.vertexCount(part: part)) ?? 0
        let p = randomMapPoint()
        switch rng.nextInt(in: 0...9) {
        case 0...3: attempt { try sketch.appendVertex(p) }
        case 4, 5: attempt { try sketch.insertVertex(p, part: part, at: rng.nextInt(in: 0...count)) }
        case 6: attempt { try sketch.moveVertex(part: part, index: rng.nextInt(in: 0...max(0, count - 1)), to: p) }
        case 7: attempt { try sketch.removeVertex(part: part, index: rng.nextInt(in: 0...max(0, count - 1))) }
        case 8: attempt { try sketch.addPart() }
        default:
            if rng.nextInt(in: 0...3) == 0 { attempt { try sketch.removePart(part) } } else { attempt { try sketch.applyGeometry(smallGeometry()) } }
        }
    }

    /// A burst of undos, then of redos (sometimes an edit in between, dropping the redo steps).
    func undoRedo() {
        for _ in 0..<rng.nextInt(in: 1...12) { sketch.undo() }
        if rng.nextInt(in: 0...4) == 0 { attempt { try sketch.appendVertex(randomMapPoint()) } }
        for _ in 0..<rng.nextInt(in: 0...12) { sketch.redo() }
    }

    /// A snap query at a random point, with a random mix of targets on.
    func snap() {
        var s = sketch.snapSettings
        s.snapsToSketchVertices = rng.nextInt(in: 0...3) != 0
        s.snapsToSketchEdges = rng.nextInt(in: 0...3) != 0
        s.layers[0].vertices = rng.nextInt(in: 0...3) != 0
        s.layers[0].edges = rng.nextInt(in: 0...3) != 0
        s.guides = GeometryGuides(perpendicular: rng.nextInt(in: 0...1) == 0, parallel: rng.nextInt(in: 0...1) == 0, extension: rng.nextInt(in: 0...1) == 0)
        sketch.snapSettings = s
        let parts = sketch.vertices.partCount
        let context: SnapContext = parts == 0 ? .free : .insert(part: parts - 1, index: (try? sketch.vertices.vertexCount(part: parts - 1)) ?? 0)
        _ = sketch.snapTarget(for: randomMapPoint(), context: context)
    }

    /// A move, rotation or scale of a random part or the whole sketch.
    func transform() {
        let parts = sketch.vertices.partCount
        guard parts > 0 else { return attempt { try sketch.applyGeometry(smallGeometry()) } }
        if rng.nextInt(in: 0...1) == 0 {
            attempt { try sketch.selectGeometry() }
        } else {
            attempt { try sketch.selectPart(rng.nextInt(in: 0...(parts - 1))) }
        }
        let r = settings.worldSize / 200
        switch rng.nextInt(in: 0...2) {
        case 0: attempt { try sketch.moveSelection(dx: rng.nextDouble(in: -r...r), dy: rng.nextDouble(in: -r...r)) }
        case 1: attempt { try sketch.rotateSelection(degrees: rng.nextDouble(in: -180...180)) }
        default: attempt { try sketch.scaleSelection(x: rng.nextDouble(in: 0.5...2), y: rng.nextDouble(in: 0.5...2)) }
        }
    }

    /// A freehand stroke or a shape drawn programmatically.
    func stroke() {
        let a = randomScreenPoint(), b = randomScreenPoint()
        if rng.nextInt(in: 0...1) == 0 {
            var points = [a]
            for _ in 0..<rng.nextInt(in: 2...80) {
                let last = points[points.count - 1]
                points.append(ScreenPoint(x: last.x + rng.nextDouble(in: -12...12), y: last.y + rng.nextDouble(in: -12...12)))
            }
            attempt { try sketch.drawFreehand(through: points, tolerance: rng.nextDouble(in: 0...4)) }
        } else {
            let shapes: [SketchShape] = [.rectangle, .triangle, .arrow, .ellipse(vertexCount: rng.nextInt(in: 3...200))]
            attempt { try sketch.drawShape(shapes[rng.nextInt(in: 0...(shapes.count - 1))], from: a, to: b) }
        }
    }

    /// Replaces an overgrown sketch with a small geometry of a random type (history cleared).
    func resetSketch() {
        let g = rng.nextInt(in: 0...1) == 0 ? smallGeometry() : smallGeometry(polyline: true)
        attempt { try sketch.setGeometry(g) }
        tally.sketchResets += 1
    }

    // MARK: Graphics

    /// Adds up to `batch` graphics, one by one, as a list or as columns.
    func addGraphics() {
        let n = rng.nextInt(in: 1...settings.batch)
        do {
            switch rng.nextInt(in: 0...2) {
            case 0:
                for _ in 0..<min(n, 16) { live.append(try layer.add(randomGraphic())) }
                tally.graphicsAdded += min(n, 16)
            case 1:
                live.append(contentsOf: try layer.add(contentsOf: (0..<n).map { _ in randomGraphic() }))
                tally.graphicsAdded += n
            default:
                live.append(contentsOf: try layer.add(columns: Self.batch(n, world: settings.worldSize, rng: &rng)))
                tally.graphicsAdded += n
            }
        } catch {
            preconditionFailure("the layer refused valid graphics: \(error)")
        }
        while live.count > settings.graphics + settings.batch { removeOne() }
    }

    /// Removes up to `batch` random graphics (never below `graphics − batch`).
    func removeGraphics() {
        let n = rng.nextInt(in: 1...settings.batch)
        for _ in 0..<n where live.count > max(0, settings.graphics - settings.batch) { removeOne() }
    }

    /// Removes one random graphic.
    func removeOne() {
        let k = rng.nextInt(in: 0...(live.count - 1))
        let id = live[k]
        live[k] = live[live.count - 1]
        live.removeLast()
        precondition(layer.remove(id) != nil, "graphic \(id.rawValue) was on the layer but could not be removed")
        tally.graphicsRemoved += 1
    }

    /// A random point, short line or small square somewhere on the world.
    func randomGraphic() -> Graphic {
        let c = randomWorldPoint()
        let d = settings.worldSize / 2_000
        switch rng.nextInt(in: 0...2) {
        case 0: return Graphic(geometry: .point(c))
        case 1: return Graphic(geometry: .polyline(Polyline(paths: [[c, Point(c.x + d, c.y + d / 2), Point(c.x + 2 * d, c.y)]])))
        default: return Graphic(geometry: .polygon(Polygon(rings: [[c, Point(c.x, c.y + d), Point(c.x + d, c.y + d), Point(c.x + d, c.y)]])), attributes: ["KIND": .string("square")])
        }
    }

    /// `n` graphics as columns: points and three-vertex lines, with an integer and a string field.
    static func batch(_ n: Int, world: Double, rng: inout SplitMix64) -> GraphicColumns {
        var geometry = GeometryColumn()
        geometry.reserveCapacity(rows: n, vertices: 2 * n)
        var ids: [Int] = [], kinds: [String] = []
        ids.reserveCapacity(n)
        kinds.reserveCapacity(n)
        let half = world / 2, d = world / 2_000
        for i in 0..<n {
            let x = rng.nextDouble(in: -half...half), y = rng.nextDouble(in: -half...half)
            if i % 4 == 3 {
                geometry.startGeometry(.polyline)
                geometry.startPart()
                geometry.appendVertex(x: x, y: y)
                geometry.appendVertex(x: x + d, y: y + d / 2)
                geometry.appendVertex(x: x + 2 * d, y: y)
                kinds.append("line")
            } else {
                geometry.appendPoint(x: x, y: y)
                kinds.append("point")
            }
            ids.append(Int(rng.next() >> 40))
        }
        return GraphicColumns(geometry: geometry, attributes: [AttributeColumn("ID", integers: ids), AttributeColumn("KIND", strings: kinds)])
    }

    // MARK: Places

    /// A point anywhere on the screen (inside a 20-point margin).
    func randomScreenPoint() -> ScreenPoint {
        ScreenPoint(x: rng.nextDouble(in: 20...(map.screenSize.width - 20)), y: rng.nextDouble(in: 20...(map.screenSize.height - 20)))
    }

    /// The map point under a random screen point.
    func randomMapPoint() -> Point { map.toMap(randomScreenPoint()) }

    /// A point anywhere on the world the graphics cover.
    func randomWorldPoint() -> Point {
        let half = settings.worldSize / 2
        return Point(rng.nextDouble(in: -half...half), rng.nextDouble(in: -half...half))
    }

    /// A small polygon (or polyline) on screen: three to eight vertices around a random point.
    func smallGeometry(polyline: Bool = false) -> Geometry {
        let c = randomMapPoint()
        let r = 40 * map.viewport.resolution
        let n = rng.nextInt(in: 3...8)
        let ring = (0..<n).map { k -> Point in
            let a = Double(k) / Double(n) * 2 * Double.pi
            return Point(c.x + r * cos(a), c.y + r * sin(a))
        }
        return polyline ? .polyline(Polyline(paths: [ring])) : .polygon(Polygon(rings: [ring]))
    }
}
