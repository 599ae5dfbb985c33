import Foundation
@_spi(MapSketchInternal) import MapSketch
import MapSketchGeometry
import MapSketchTestSupport
import Testing

/// The sketch's snap target equals a brute-force search over every candidate by the rules of
/// ``SnapSettings``, on a map of two graphics layers with thousands of graphics of every kind
/// (points, one-part lines and polygons, and multipart, multipoint, envelope and z-valued
/// geometries) whose coordinates lie on a coarse integer grid, so that equal distances (ties)
/// are common: between graphics of a layer, between layers, and between a layer and the sketch.
/// Between rounds the graphics, the sketch, the layers' names and the settings change.
@Suite @MainActor struct SnapLayerPropertyTests {
    /// A random graphic geometry with coordinates on the integer grid [-40, 40]².
    static func geometry(_ rng: inout SeededRandom) -> Geometry {
        func p() -> Point { Point(Double(rng.int(in: -40...40)), Double(rng.int(in: -40...40))) }
        func near(_ c: Point) -> Point {
            Point(min(40, max(-40, c.x + Double(rng.int(in: -6...6)))), min(40, max(-40, c.y + Double(rng.int(in: -6...6)))))
        }
        func path(_ n: Int) -> [Point] {
            var out = [p()]
            for _ in 1..<n { out.append(near(out[out.count - 1])) }
            return out
        }
        switch rng.int(in: 0...9) {
        case 0, 1, 2: return .point(p())
        case 3, 4: return .polyline(Polyline(paths: [path(rng.int(in: 2...4))]))
        case 5, 6: return .polygon(Polygon(rings: [path(rng.int(in: 3...5))]))
        case 7: return .polyline(Polyline(paths: [path(2), path(3)]))
        case 8:
            let c = p()
            return .envelope(Envelope(xmin: c.x, ymin: c.y, xmax: c.x + Double(rng.int(in: 0...5)), ymax: c.y + Double(rng.int(in: 0...5))))
        default:
            if rng.int(in: 0...1) == 0 { return .multipoint(Multipoint(points: path(3))) }
            let z = path(3).map { Point(x: $0.x, y: $0.y, z: 7) }
            return .polyline(Polyline(paths: [z]))
        }
    }

    @Test(arguments: [21, 22, 23] as [UInt64])
    func theSnapTargetEqualsABruteForceSearchTiesIncluded(seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        let map = MapView(screenSize: ScreenSize(width: 800, height: 800), viewport: Viewport(center: Point(0, 0), resolution: 1))
        let sketch = try SketchLayer(
            geometry: seed == 22
                ? .polygon(Polygon(rings: [[Point(-10, -10), Point(-10, 10), Point(10, 10), Point(10, -10)]]))
                : .polyline(Polyline(paths: [[Point(-30, 0), Point(0, 0), Point(0, 30)], [Point(20, -20), Point(35, -20)]])))
        try map.addLayer(sketch, named: "sketch")
        var layers = [GraphicsLayer(), GraphicsLayer()]
        var names = ["A", "B"]
        for (l, n) in zip(layers, names) { try map.addLayer(l, named: n) }
        for _ in 0..<3000 { _ = try layers[rng.int(in: 0...1)].add(Graphic(geometry: Self.geometry(&rng))) }
        var checked = 0, ties = 0
        for round in 0..<3 {
            let reference = Reference(layers: zip(names, layers).map { ($0, $1) })
            for q in 0..<600 {
                var s = SnapSettings(isEnabled: true)
                s.snapsToSketchVertices = rng.int(in: 0...4) != 0
                s.snapsToSketchEdges = rng.int(in: 0...4) != 0
                s.tolerance = [0, 1, 2, 3.5, 5, 8][rng.int(in: 0...5)]
                let pool = ["A", "B", "A", "B", "missing", "sketch"]
                s.layers = (0..<rng.int(in: 1...3)).map { _ in
                    SnapLayerSource(name: pool[rng.int(in: 0...5)], vertices: rng.int(in: 0...3) != 0, edges: rng.int(in: 0...3) != 0)
                }
                // Settings and the resolution change between snaps (the sketch's found layers
                // must follow), and often stay (its found layers are reused).
                if q % 3 == 0 || sketch.snapSettings.layers.isEmpty { sketch.snapSettings = s }
                if q % 7 == 0 { map.viewport.resolution = [0.5, 1, 2][rng.int(in: 0...2)] }
                let p: Point
                switch rng.int(in: 0...2) {
                case 0: p = Point(Double(rng.int(in: -42...42)), Double(rng.int(in: -42...42)))
                case 1: p = Point(Double(rng.int(in: -84...84)) / 2, Double(rng.int(in: -84...84)) / 2)
                default: p = Point(rng.double(in: -42...42), rng.double(in: -42...42))
                }
                let store = sketch.vertices
                let pi = rng.int(in: 0...(store.partCount - 1))
                let count = store.parts[pi].count
                let context: SnapContext
                switch q % 3 {
                case 0: context = .free
                case 1: context = .insert(part: pi, index: rng.int(in: 0...count))
                default: context = .move(part: pi, index: rng.int(in: 0...(count - 1)))
                }
                let got = sketch.snapTarget(for: p, context: context)
                let (want, tied) = reference.snap(p, sketch: sketch.geometry, settings: sketch.snapSettings, resolution: map.viewport.resolution, context: context)
                #expect(got == want, "seed \(seed) round \(round) query \(q) at \(p) \(context) \(sketch.snapSettings)")
                if got != want { return }
                checked += 1
                if tied { ties += 1 }
            }
            // Between rounds: graphics removed, added and moved; the sketch edited; the layers'
            // names swapped (each layer removed and added again under the other's name).
            for layer in layers {
                let ids = layer.graphicIDs
                for _ in 0..<60 { _ = layer.remove(ids[rng.int(in: 0...(ids.count - 1))]) }
                for _ in 0..<60 { _ = try layer.add(Graphic(geometry: Self.geometry(&rng))) }
                let live = layer.graphicIDs
                for _ in 0..<60 {
                    let g = Self.geometry(&rng)
                    try layer.update(live[rng.int(in: 0...(live.count - 1))]) { $0.geometry = g }
                }
            }
            try sketch.insertVertex(Point(Double(rng.int(in: -40...40)), Double(rng.int(in: -40...40))), part: 0, at: 1)
            try sketch.moveVertex(part: 0, index: 0, to: Point(Double(rng.int(in: -40...40)), Double(rng.int(in: -40...40))))
            for n in names { try map.removeLayer(named: n) }
            layers.reverse()
            names = ["A", "B"]
            for (l, n) in zip(layers, names) { try map.addLayer(l, named: n) }
        }
        // The grid makes ties common; the test is about them.
        #expect(checked == 1800 && ties > 100, "\(ties) ties in \(checked) queries")
    }

    /// Every candidate by the rules of ``SnapSettings``, with no index: the layers' geometries
    /// are read once (they stay the same during a round).
    struct Reference {
        struct Item {
            let id: GraphicID
            let geometry: Geometry
            let parts: [[Point]]
            let envelope: Envelope?
        }
        /// The graphics of each named layer, highest id first (the topmost wins a tie).
        let layers: [String: [Item]]

        @MainActor
        init(layers: [(String, GraphicsLayer)]) {
            var out: [String: [Item]] = [:]
            for (name, layer) in layers {
                out[name] = layer.graphicIDs.sorted { $0.rawValue > $1.rawValue }.compactMap { id in
                    layer.graphic(id).map { Item(id: id, geometry: $0.geometry, parts: $0.geometry.parts, envelope: $0.geometry.envelope) }
                }
            }
            self.layers = out
        }

        /// The closest point of segment a–b to p and its squared distance (the model's formula:
        /// a tie is only a tie when both sides compute distances the same way).
        static func closest(_ p: Point, _ a: Point, _ b: Point) -> (Point, Double) {
            let c = GeometryEngine.closestPoint(to: p, onSegment: a, b)
            return (c.point, c.distanceSquared)
        }

        typealias Best = (d2: Double, part: Int, index: Int, point: Point)

        /// The snap target, and whether a candidate of the winner's rank was as near as the
        /// winner (a tie the rules had to break).
        func snap(_ p: Point, sketch: Geometry, settings: SnapSettings, resolution: Double, context: SnapContext) -> (SnapTarget?, Bool) {
            guard settings.isEnabled else { return (nil, false) }
            let tol = settings.tolerance * resolution
            let limit = tol * tol
            var candidates: [SnapTarget] = []
            // Every vertex and edge candidate in reach, by what it is, for telling ties.
            var vertexD2: [String: Double] = [:], edgeD2: [String: Double] = [:]
            func d2(_ q: Point) -> Double { (q.x - p.x) * (q.x - p.x) + (q.y - p.y) * (q.y - p.y) }
            // The sketch: the moved vertex and the edges it ends are left out.
            let closed = sketch.type == .polygon
            var moved = (part: -1, index: -1)
            if case .move(let mp, let mi) = context { moved = (mp, mi) }
            var sv: Best?, se: Best?
            for (pi, part) in sketch.parts.enumerated() {
                for (i, v) in part.enumerated() where !(pi == moved.part && i == moved.index) {
                    let dd = d2(v)
                    if dd <= limit, settings.snapsToSketchVertices { vertexD2["s \(pi) \(i)"] = dd }
                    if dd <= limit, dd < (sv?.d2 ?? .infinity) { sv = (dd, pi, i, v) }
                }
                let segments = closed && part.count >= 3 ? part.count : max(0, part.count - 1)
                for i in 0..<segments {
                    if pi == moved.part {
                        let before = moved.index > 0 ? moved.index - 1 : (closed && part.count >= 3 ? part.count - 1 : -1)
                        if i == moved.index || i == before { continue }
                    }
                    let (c, dd) = Self.closest(p, part[i], part[(i + 1) % part.count])
                    if dd <= limit, settings.snapsToSketchEdges { edgeD2["s \(pi) \(i)"] = dd }
                    if dd <= limit, dd < (se?.d2 ?? .infinity) { se = (dd, pi, i, c) }
                }
            }
            if !settings.snapsToSketchVertices { sv = nil }
            if !settings.snapsToSketchEdges { se = nil }
            if let v = sv { candidates.append(SnapTarget(kind: .vertex, source: .sketch, part: v.part, index: v.index, point: v.point, distance: v.d2.squareRoot())) }
            if let e = se { candidates.append(SnapTarget(kind: .edge, source: .sketch, part: e.part, index: e.index, point: e.point, distance: e.d2.squareRoot())) }
            // The layers in settings order; in a layer, the highest id, then the lowest part and index.
            for source in settings.layers where source.vertices || source.edges {
                guard let items = layers[source.name] else { continue }
                var lv: (Best, GraphicID)?, le: (Best, GraphicID)?
                for item in items {
                    guard let e = item.envelope, e.xmin - tol <= p.x, p.x <= e.xmax + tol, e.ymin - tol <= p.y, p.y <= e.ymax + tol else { continue }
                    for (pi, part) in item.parts.enumerated() {
                        for (i, v) in part.enumerated() {
                            let dd = d2(v)
                            if dd <= limit, source.vertices { vertexD2["\(source.name) \(item.id.rawValue) \(pi) \(i)"] = dd }
                            if dd <= limit, dd < (lv?.0.d2 ?? .infinity) { lv = ((dd, pi, i, v), item.id) }
                        }
                        let segments: Int
                        switch item.geometry {
                        case .polyline: segments = max(0, part.count - 1)
                        case .polygon, .envelope: segments = part.count >= 2 ? part.count : 0
                        case .point, .multipoint: segments = 0
                        }
                        for i in 0..<segments {
                            let (c, dd) = Self.closest(p, part[i], part[i + 1 == part.count ? 0 : i + 1])
                            if dd <= limit, source.edges { edgeD2["\(source.name) \(item.id.rawValue) \(pi) \(i)"] = dd }
                            if dd <= limit, dd < (le?.0.d2 ?? .infinity) { le = ((dd, pi, i, c), item.id) }
                        }
                    }
                }
                if source.vertices, let (v, id) = lv {
                    candidates.append(
                        SnapTarget(kind: .vertex, source: .layer(name: source.name, graphic: id), part: v.part, index: v.index, point: v.point, distance: v.d2.squareRoot()))
                }
                if source.edges, let (e, id) = le {
                    candidates.append(
                        SnapTarget(kind: .edge, source: .layer(name: source.name, graphic: id), part: e.part, index: e.index, point: e.point, distance: e.d2.squareRoot()))
                }
            }
            let best = SnapTarget.best(candidates)
            guard let best else { return (nil, false) }
            let pool = best.kind == .vertex ? vertexD2 : edgeD2
            let tied = pool.values.filter { $0.squareRoot() == best.distance }.count > 1
            return (best, tied)
        }
    }
}
