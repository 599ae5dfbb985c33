import Foundation
@_spi(MapSketchInternal) import MapSketch
import MapSketchGeometry
import MapSketchTestSupport
import Testing

/// Snapping to the sketch, to graphics layers and to geometry guides: each rule at the model
/// level and through touches, and a property test against a brute-force search.
@Suite @MainActor struct SnappingTests {
    /// (−100, 0), (100, 0), (100, 100).
    static let line = Geometry.polyline(Polyline(paths: [[Point(-100, 0), Point(100, 0), Point(100, 100)]]))
    static let on = SnapSettings(isEnabled: true)

    // MARK: Model rules

    @Test func aVertexWithinTheToleranceBeatsANearerEdge() throws {
        let e = try SketchEditor(geometry: Self.line)
        let ctx = SnapContext.insert(part: 0, index: 3)
        // 9.22 from vertex 0, 6 from edge 0: the vertex wins.
        let t = try #require(e.snap(Point(-93, 6), settings: Self.on, resolution: 1, context: ctx))
        #expect(t.kind == .vertex && t.source == .sketch && t.part == 0 && t.index == 0 && t.point == Point(-100, 0))
        #expect(abs(t.distance - (49.0 + 36).squareRoot()) < 1e-12)
        // Vertices off: the edge.
        var s = Self.on
        s.snapsToSketchVertices = false
        let edge = try #require(e.snap(Point(-93, 6), settings: s, resolution: 1, context: ctx))
        #expect(edge.kind == .edge && edge.index == 0 && edge.point == Point(-93, 0) && edge.distance == 6)
        // Both off, or snapping off: nothing.
        s.snapsToSketchEdges = false
        #expect(e.snap(Point(-93, 6), settings: s, resolution: 1, context: ctx) == nil)
        #expect(e.snap(Point(-93, 6), settings: SnapSettings(), resolution: 1, context: ctx) == nil)
    }

    @Test func theToleranceIsInScreenPointsAndIncludesItsBound() throws {
        let e = try SketchEditor(geometry: Self.line)
        let ctx = SnapContext.insert(part: 0, index: 3)
        #expect(e.snap(Point(-50, 10), settings: Self.on, resolution: 1, context: ctx)?.point == Point(-50, 0))
        #expect(e.snap(Point(-50, 10.000001), settings: Self.on, resolution: 1, context: ctx) == nil)
        // At 2 map units per point, 10 pt reach 20 map units.
        #expect(e.snap(Point(-50, 19), settings: Self.on, resolution: 2, context: ctx)?.point == Point(-50, 0))
        #expect(e.snap(Point(-50, 21), settings: Self.on, resolution: 2, context: ctx) == nil)
        var s = Self.on
        s.tolerance = 0
        #expect(e.snap(Point(-50, 0), settings: s, resolution: 1, context: ctx)?.point == Point(-50, 0))
        #expect(e.snap(Point(-50, 1e-9), settings: s, resolution: 1, context: ctx) == nil)
    }

    @Test func theMovedVertexAndItsEdgesAreNoTargets() throws {
        let e = try SketchEditor(geometry: Self.line)
        // Vertex 1 (100, 0) itself, and edges 0 and 1 that end at it, are left out.
        #expect(e.snap(Point(101, 1), settings: Self.on, resolution: 1, context: .move(part: 0, index: 1)) == nil)
        #expect(e.snap(Point(101, 1), settings: Self.on, resolution: 1, context: .free)?.index == 1)
        // Moving vertex 2, edge 0 still counts; edge 1 does not.
        let t = try #require(e.snap(Point(50, 4), settings: Self.on, resolution: 1, context: .move(part: 0, index: 2)))
        #expect(t.kind == .edge && t.index == 0 && t.point == Point(50, 0))
        #expect(e.snap(Point(104, 50), settings: Self.on, resolution: 1, context: .move(part: 0, index: 2)) == nil)
        // A ring's first vertex: its closing edge is left out too.
        let ring = try SketchEditor(
            geometry: .polygon(Polygon(rings: [[Point(0, 0), Point(0, 100), Point(100, 100), Point(100, 0)]])))
        #expect(ring.snap(Point(50, 3), settings: Self.on, resolution: 1, context: .move(part: 0, index: 0)) == nil)
        #expect(ring.snap(Point(50, 3), settings: Self.on, resolution: 1, context: .move(part: 0, index: 2))?.index == 3)
    }

    @Test func tiesGoToTheLowerPartThenIndex() throws {
        let e = try SketchEditor(
            geometry: .polyline(Polyline(paths: [[Point(0, 0), Point(10, 0)], [Point(0, 0), Point(-10, 0)]])))
        let t = try #require(e.snap(Point(0, 3), settings: Self.on, resolution: 1, context: .free))
        #expect(t.kind == .vertex && t.part == 0 && t.index == 0)
        #expect(SnapTarget.best([]) == nil)
    }

    // MARK: Guides

    /// The line (−100, 0)–(0, 0) with the new vertex after (0, 0).
    static let corner = Geometry.polyline(Polyline(paths: [[Point(-100, 0), Point(0, 0)]]))

    static func guides(_ configure: (inout GeometryGuides) -> Void) -> SnapSettings {
        var s = Self.on
        configure(&s.guides)
        return s
    }

    @Test func thePerpendicularGuideProjectsOntoTheNinetyDegreeLine() throws {
        let e = try SketchEditor(geometry: Self.corner)
        let s = Self.guides { $0.perpendicular = true }
        let t = try #require(e.snap(Point(3, 80), settings: s, resolution: 1, context: .insert(part: 0, index: 2)))
        #expect(t.kind == .guide(.perpendicular) && t.point == Point(0, 80) && t.distance == 3 && t.guideOrigin == Point(0, 0))
        #expect(t.index == 0, "the guide follows segment 0")
        // Below the anchor too (the perpendicular is a whole line).
        #expect(e.snap(Point(-2, -50), settings: s, resolution: 1, context: .insert(part: 0, index: 2))?.point == Point(0, -50))
        // 11.3° off: outside the 5° tolerance although within 10 pt.
        #expect(e.snap(Point(8, 40), settings: s, resolution: 1, context: .insert(part: 0, index: 2)) == nil)
        // 12 pt off at 4.6°: outside the distance tolerance.
        #expect(e.snap(Point(12, 150), settings: s, resolution: 1, context: .insert(part: 0, index: 2)) == nil)
        // The first vertex has no anchor; the second has no previous segment.
        #expect(e.snap(Point(3, 80), settings: s, resolution: 1, context: .insert(part: 0, index: 0)) == nil)
        #expect(e.snap(Point(-97, 80), settings: s, resolution: 1, context: .insert(part: 0, index: 1)) == nil)
    }

    @Test func theExtensionGuideGoesAheadOnly() throws {
        let e = try SketchEditor(geometry: Self.corner)
        let s = Self.guides { $0.extension = true }
        let t = try #require(e.snap(Point(80, 3), settings: s, resolution: 1, context: .insert(part: 0, index: 2)))
        #expect(t.kind == .guide(.extension) && t.point == Point(80, 0))
        // Behind the anchor the line is the segment itself (an edge snap when within reach).
        #expect(e.snap(Point(-50, 30), settings: s, resolution: 1, context: .insert(part: 0, index: 2)) == nil)
    }

    @Test func theParallelGuideFollowsANearbySegment() throws {
        let e = try SketchEditor(geometry: .polyline(Polyline(paths: [[Point(-150, 0), Point(-100, 50), Point(-100, -50)]])))
        let s = Self.guides { $0.parallel = true }
        let t = try #require(e.snap(Point(-40, 13), settings: s, resolution: 1, context: .insert(part: 0, index: 3)))
        #expect(t.kind == .guide(.parallel) && t.part == 0 && t.index == 0)
        #expect(abs(t.point.x - -38.5) < 1e-12 && abs(t.point.y - 11.5) < 1e-12)
        #expect(abs(t.distance - 3 / 2.0.squareRoot()) < 1e-12)
        // Beyond the search radius the segment gives no guide.
        var far = s
        far.guides.parallelSearchRadius = 40
        #expect(e.snap(Point(-40, 13), settings: far, resolution: 1, context: .insert(part: 0, index: 3)) == nil)
    }

    @Test func precedenceIsVertexThenEdgeThenGuide() throws {
        // Part 1 (−50, 80)–(50, 80) crosses the perpendicular guide x = 0 of part 0's end.
        let e = try SketchEditor(
            geometry: .polyline(Polyline(paths: [[Point(-100, 0), Point(0, 0)], [Point(-50, 80), Point(50, 80)]])))
        let s = Self.guides {
            $0.perpendicular = true
            $0.extension = true
        }
        let ctx = SnapContext.insert(part: 0, index: 2)
        #expect(e.snap(Point(3, 75), settings: s, resolution: 1, context: ctx)?.kind == .edge)
        #expect(e.snap(Point(3, 75), settings: s, resolution: 1, context: ctx)?.point == Point(3, 80))
        #expect(e.snap(Point(46, 76), settings: s, resolution: 1, context: ctx)?.kind == .vertex)
        #expect(e.snap(Point(2, 40), settings: s, resolution: 1, context: ctx)?.kind == .guide(.perpendicular))
        // Near the anchor (0, 0) itself: a vertex, whatever guide passes there.
        #expect(e.snap(Point(3, 3), settings: s, resolution: 1, context: ctx)?.kind == .vertex)
    }

    /// Guides against an independent computation: the angle between the anchor-to-point
    /// direction and the guide line by atan2, the distance as |v|·sin, the projection as |v|·cos.
    @Test func guidesAgreeWithATrigonometricComputation() throws {
        var rng = SeededRandom(seed: 16)
        var checked = 0
        for _ in 0..<3000 {
            let a0 = Point(rng.double(in: -100...100), rng.double(in: -100...100))
            let a1 = Point(rng.double(in: -100...100), rng.double(in: -100...100))
            let e = try SketchEditor(geometry: .polyline(Polyline(paths: [[a0, a1]])))
            let heading = atan2(a1.y - a0.y, a1.x - a0.x)
            let kind: GuideKind = rng.int(in: 0...1) == 0 ? .perpendicular : .extension
            let dir = kind == .perpendicular ? heading + .pi / 2 : heading
            let r = rng.double(in: 30...300)
            let off = rng.double(in: -0.15...0.15)
            let p = Point(a1.x + r * cos(dir + off), a1.y + r * sin(dir + off))
            var s = Self.guides {
                $0.perpendicular = kind == .perpendicular
                $0.extension = kind == .extension
            }
            s.snapsToSketchEdges = false
            s.snapsToSketchVertices = false
            let got = e.snap(p, settings: s, resolution: 1, context: .insert(part: 0, index: 2))
            let distance = r * abs(sin(off))
            let angle = abs(off) * 180 / .pi
            let expected = distance <= 10 && angle <= 5
            // Away from the bounds (rounding there can go either way).
            guard abs(distance - 10) > 1e-6, abs(angle - 5) > 1e-6 else { continue }
            #expect((got != nil) == expected, "r \(r) off \(off)")
            if let got, expected {
                let q = Point(a1.x + r * cos(off) * cos(dir), a1.y + r * cos(off) * sin(dir))
                #expect(abs(got.point.x - q.x) < 1e-9 && abs(got.point.y - q.y) < 1e-9)
                #expect(abs(got.distance - distance) < 1e-9)
                #expect(got.kind == .guide(kind))
                checked += 1
            }
        }
        #expect(checked > 500)
    }

    // MARK: Through touches

    static func harness(_ g: Geometry, _ s: SnapSettings = on) throws -> (SketchHarness, Box<[SnapTarget]>) {
        let h = try SketchHarness(geometry: g)
        h.sketch.symbology.vertexHitTolerance = 0
        h.sketch.snapSettings = s
        let events = Box<[SnapTarget]>([])
        h.sketch.onSnapped { events.value.append($0) }
        return (h, events)
    }

    final class Box<T> {
        var value: T
        init(_ v: T) { value = v }
    }

    @Test func aTapAddsTheSnappedPointAndPostsTheTarget() throws {
        let (h, events) = try Self.harness(Self.line)
        try h.sketch.select(.vertex(part: 0, index: 2))
        h.tap(Point(-106, -6))
        #expect(h.parts == [[Point(-100, 0), Point(100, 0), Point(100, 100), Point(-100, 0)]])
        #expect(events.value.map(\.kind) == [.vertex] && events.value.first?.index == 0)
        #expect(h.sketch.currentSnap == events.value.first)
        // Unsnapped: no event, no current snap.
        h.tap(Point(0, -60))
        #expect(h.parts[0].last == Point(0, -60) && events.value.count == 1 && h.sketch.currentSnap == nil)
        // The SVG marks the target of the latest snap only.
        h.tap(Point(-50, 7))
        #expect(h.parts[0].last == Point(-50, 0))
        #expect(h.map.renderSVG().contains("sketch-snap"))
    }

    @Test func aHoldDragSnapsEachStepAndTheRelease() throws {
        let square = Geometry.polygon(Polygon(rings: [[Point(-100, -100), Point(-100, 100), Point(100, 100), Point(100, -100)]]))
        let (h, events) = try Self.harness(square)
        h.tap(Point(100, 100))
        h.holdAndDrag(at: Point(100, 100), through: [Point(0, 60), Point(-95, 20)])
        #expect(h.parts[0][2] == Point(-100, 20))
        #expect(events.value.count == 1 && events.value.first?.kind == .edge && events.value.first?.index == 0)
        #expect(h.sketch.undoCount == 1)
        // Small steps near its own position: the vertex never snaps back onto itself.
        let (g, none) = try Self.harness(square)
        g.tap(Point(100, 100))
        g.holdAndDrag(at: Point(100, 100), through: (1...6).map { Point(100 + Double($0), 100 + Double($0) * 2 / 3) })
        #expect(g.parts[0][2] == Point(106, 104))
        #expect(none.value.isEmpty)
    }

    @Test func aMidVertexInsertSnaps() throws {
        let (h, events) = try Self.harness(.polyline(Polyline(paths: [[Point(-100, 0), Point(100, 0)], [Point(-100, 50), Point(100, 50)]])))
        h.tap(Point(0, 0))
        #expect(h.sketch.selection == .midVertex(part: 0, segment: 0))
        h.tap(Point(30, 45))
        #expect(h.parts[0] == [Point(-100, 0), Point(30, 50), Point(100, 0)])
        #expect(events.value.first?.part == 1 && events.value.first?.kind == .edge)
    }

    @Test func theReticlePlacementSnaps() throws {
        let (h, events) = try Self.harness(.polyline(Polyline(paths: [[Point(-100, 0), Point(100, 0)]])))
        try h.sketch.setTool(.reticle)
        try h.sketch.select(.vertex(part: 0, index: 1))
        h.map.pan(byScreenDeltaX: 96, dy: 5)
        #expect(h.sketch.reticlePoint == Point(-96, 5))
        try h.sketch.reticlePlace()
        #expect(h.parts[0] == [Point(-100, 0), Point(100, 0), Point(-100, 0)])
        #expect(events.value.count == 1)
    }

    @Test func graphicsLayersAreSnapTargetsPerSource() throws {
        let (h, events) = try Self.harness(.polyline(Polyline(paths: [])), {
            var s = Self.on
            s.layers = [SnapLayerSource(name: "parcels")]
            return s
        }())
        let layer = GraphicsLayer()
        try h.map.addLayer(layer, named: "parcels")
        let square = try layer.add(Graphic(geometry: .polygon(Polygon(rings: [[Point(20, 20), Point(20, 80), Point(80, 80), Point(80, 20)]]))))
        let dot = try layer.add(Graphic(geometry: .point(Point(-60, 60))))
        h.tap(Point(-55, 64))
        h.tap(Point(50, 86))
        h.tap(Point(76, 84))
        #expect(h.parts == [[Point(-60, 60), Point(50, 80), Point(80, 80)]])
        #expect(events.value.map(\.source) == [.layer(name: "parcels", graphic: dot), .layer(name: "parcels", graphic: square), .layer(name: "parcels", graphic: square)])
        #expect(events.value.map(\.kind) == [.vertex, .edge, .vertex])
        // The layer's vertices off: a tap 4.47 from the corner (80, 20) and 2 from the right
        // edge lands on the edge.
        h.sketch.snapSettings.layers = [SnapLayerSource(name: "parcels", vertices: false)]
        h.tap(Point(78, 24))
        #expect(h.parts[0].last == Point(80, 24))
        // A name that is not a graphics layer snaps to nothing: 2 from the square's left edge.
        h.sketch.snapSettings.layers = [SnapLayerSource(name: "nope")]
        h.tap(Point(22, 50))
        #expect(h.parts[0].last == Point(22, 50))
        #expect(events.value.count == 4)
    }

    // MARK: Property

    /// The snap of the model equals a brute-force nearest search over every candidate (sketch
    /// vertices and edges, a graphics layer's vertices and edges) with the stated precedence,
    /// over seeded random sketches and layers, through edits and undo.
    @Test(arguments: [1, 2, 3])
    func snappingEqualsABruteForceSearch(seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        let type: GeometryType = seed == 2 ? .polygon : .polyline
        var parts: [[Point]] = []
        for _ in 0..<3 {
            let n = rng.int(in: 3...(seed == 3 ? 3000 : 300))
            var p = Point(rng.double(in: -150...150), rng.double(in: -150...150))
            var part: [Point] = []
            for _ in 0..<n {
                part.append(p)
                p = Point(min(190, max(-190, p.x + rng.double(in: -12...12))), min(190, max(-190, p.y + rng.double(in: -12...12))))
            }
            parts.append(part)
        }
        let g: Geometry = type == .polygon ? .polygon(Polygon(rings: parts)) : .polyline(Polyline(paths: parts))
        let h = try SketchHarness(geometry: g)
        let layer = GraphicsLayer()
        try h.map.addLayer(layer, named: "L")
        var ids: [GraphicID] = []
        for i in 0..<400 {
            let c = Point(rng.double(in: -190...190), rng.double(in: -190...190))
            let geometry: Geometry
            switch i % 3 {
            case 0: geometry = .point(c)
            case 1:
                geometry = .polyline(Polyline(paths: [[c, Point(c.x + rng.double(in: -30...30), c.y + rng.double(in: -30...30)), Point(c.x + rng.double(in: -30...30), c.y)]]))
            default:
                geometry = .polygon(Polygon(rings: [[c, Point(c.x, c.y + 15), Point(c.x + 15, c.y + 15)]]))
            }
            ids.append(try layer.add(Graphic(geometry: geometry)))
        }
        var settings = Self.on
        settings.layers = [SnapLayerSource(name: "L")]
        for round in 0..<4 {
            for q in 0..<1000 {
                settings.snapsToSketchVertices = q % 5 != 1
                settings.snapsToSketchEdges = q % 7 != 2
                settings.layers[0].vertices = q % 3 != 0
                settings.layers[0].edges = q % 4 != 3
                settings.tolerance = [10, 4, 25][q % 3]
                h.sketch.snapSettings = settings
                let p = Point(rng.double(in: -200...200), rng.double(in: -200...200))
                let store = h.sketch.vertices
                let pi = rng.int(in: 0...(store.partCount - 1))
                let count = store.parts[pi].count
                let ctx: SnapContext
                switch q % 3 {
                case 0: ctx = .free
                case 1: ctx = .insert(part: pi, index: rng.int(in: 0...count))
                default: ctx = .move(part: pi, index: rng.int(in: 0...(count - 1)))
                }
                let got = h.sketch.snapTarget(for: p, context: ctx)
                let want = Self.bruteForce(p, sketch: h.sketch.geometry, layer: layer, ids: ids, settings: settings, context: ctx)
                #expect(got == want, "round \(round) query \(q) at \(p) \(ctx)")
                if got != want { return }
            }
            // Edits between rounds: moves, inserts, removals, an undo; graphics removed and added.
            for _ in 0..<50 {
                let pi = rng.int(in: 0...(h.sketch.vertices.partCount - 1))
                let n = h.sketch.vertices.parts[pi].count
                let p = Point(rng.double(in: -190...190), rng.double(in: -190...190))
                switch rng.int(in: 0...3) {
                case 0: try h.sketch.moveVertex(part: pi, index: rng.int(in: 0...(n - 1)), to: p)
                case 1: try h.sketch.insertVertex(p, part: pi, at: rng.int(in: 0...n))
                case 2: if n > 3 { try h.sketch.removeVertex(part: pi, index: rng.int(in: 0...(n - 1))) }
                default: h.sketch.undo()
                }
            }
            for _ in 0..<40 {
                let i = rng.int(in: 0...(ids.count - 1))
                _ = layer.remove(ids[i])
                ids.remove(at: i)
            }
            for _ in 0..<40 {
                ids.append(try layer.add(Graphic(geometry: .point(Point(rng.double(in: -190...190), rng.double(in: -190...190))))))
            }
        }
    }

    /// Every candidate, by the rules of SnapSettings, without any index.
    static func bruteForce(
        _ p: Point, sketch: Geometry, layer: GraphicsLayer, ids: [GraphicID], settings: SnapSettings, context: SnapContext
    ) -> SnapTarget? {
        let tol = settings.tolerance
        let closed = sketch.type == .polygon
        var moved = (part: -1, index: -1)
        if case .move(let mp, let mi) = context { moved = (mp, mi) }
        func d2(_ a: Point) -> Double { (a.x - p.x) * (a.x - p.x) + (a.y - p.y) * (a.y - p.y) }
        func closest(_ a: Point, _ b: Point) -> (Point, Double) {
            let dx = b.x - a.x, dy = b.y - a.y
            let len2 = dx * dx + dy * dy
            var t = len2 > 0 ? ((p.x - a.x) * dx + (p.y - a.y) * dy) / len2 : 0
            t = min(1, max(0, t))
            let c = Point(x: t == 0 ? a.x : (t == 1 ? b.x : a.x + t * dx), y: t == 0 ? a.y : (t == 1 ? b.y : a.y + t * dy))
            return (c, d2(c))
        }
        typealias Best = (d2: Double, part: Int, index: Int, point: Point)
        func consider(_ best: inout Best?, _ c: Best) {
            guard c.d2 <= tol * tol, c.d2 < (best?.d2 ?? .infinity) else { return }
            best = c
        }
        var candidates: [SnapTarget] = []
        var sv: Best?, se: Best?
        for (pi, part) in sketch.parts.enumerated() {
            for (i, v) in part.enumerated() where !(pi == moved.part && i == moved.index) { consider(&sv, (d2(v), pi, i, v)) }
            let segments = closed && part.count >= 3 ? part.count : max(0, part.count - 1)
            for i in 0..<segments {
                if pi == moved.part {
                    let before = moved.index > 0 ? moved.index - 1 : (closed && part.count >= 3 ? part.count - 1 : -1)
                    if i == moved.index || i == before { continue }
                }
                let (c, dd) = closest(part[i], part[(i + 1) % part.count])
                consider(&se, (dd, pi, i, c))
            }
        }
        if settings.snapsToSketchVertices, let v = sv {
            candidates.append(SnapTarget(kind: .vertex, source: .sketch, part: v.part, index: v.index, point: v.point, distance: v.d2.squareRoot()))
        }
        if settings.snapsToSketchEdges, let e = se {
            candidates.append(SnapTarget(kind: .edge, source: .sketch, part: e.part, index: e.index, point: e.point, distance: e.d2.squareRoot()))
        }
        // The layer: of equal distances the highest id wins, then the lowest part and index.
        var lv: (Best, GraphicID)?, le: (Best, GraphicID)?
        for id in ids.sorted(by: { $0.rawValue > $1.rawValue }) {
            guard let g = layer.graphic(id)?.geometry else { continue }
            for (pi, part) in g.parts.enumerated() {
                for (i, v) in part.enumerated() {
                    let dd = d2(v)
                    if dd <= tol * tol, dd < (lv?.0.d2 ?? .infinity) { lv = ((dd, pi, i, v), id) }
                }
                guard g.type == .polyline || g.type == .polygon else { continue }
                let segments = g.type == .polygon ? (part.count >= 2 ? part.count : 0) : max(0, part.count - 1)
                for i in 0..<segments {
                    let (c, dd) = closest(part[i], part[(i + 1) % part.count])
                    if dd <= tol * tol, dd < (le?.0.d2 ?? .infinity) { le = ((dd, pi, i, c), id) }
                }
            }
        }
        if settings.layers[0].vertices, let (v, id) = lv {
            candidates.append(SnapTarget(kind: .vertex, source: .layer(name: "L", graphic: id), part: v.part, index: v.index, point: v.point, distance: v.d2.squareRoot()))
        }
        if settings.layers[0].edges, let (e, id) = le {
            candidates.append(SnapTarget(kind: .edge, source: .layer(name: "L", graphic: id), part: e.part, index: e.index, point: e.point, distance: e.d2.squareRoot()))
        }
        return SnapTarget.best(candidates)
    }
}
