import MapSketch
import MapSketchGeometry
import MapSketchTestSupport
import Testing

/// The layer's snapping queries (nearest vertex, nearest edge within a distance) must answer as a
/// brute-force scan of every graphic with the geometry engine does, through adds, removals past
/// compaction and updates, for every kind of geometry the layer stores.
@MainActor
@Suite struct GraphicsLayerSnappingTests {
    /// The scan: each live graphic's nearest vertex or segment, the nearest within `d` kept, ties
    /// to the highest id.
    static func reference(_ graphics: [(GraphicID, Graphic)], _ q: Point, _ d: Double, edges: Bool) -> GraphicSnapCandidate? {
        var best: GraphicSnapCandidate?
        for (id, g) in graphics {
            let f = edges ? GeometryEngine.nearestSegment(to: q, in: g.geometry) : GeometryEngine.nearestVertex(to: q, in: g.geometry)
            guard let f else { continue }
            let dx = f.point.x - q.x, dy = f.point.y - q.y
            let d2 = dx * dx + dy * dy
            guard d2 <= d * d else { continue }
            if let b = best, b.distance * b.distance < d2 { continue }
            if let b = best, b.distance * b.distance == d2, b.graphic > id { continue }
            best = GraphicSnapCandidate(graphic: id, part: f.part, index: f.index, point: f.point, distance: d2.squareRoot())
        }
        return best
    }

    static func geometry(_ r: inout SeededRandom) -> Geometry {
        let c = r.point(in: Envelope(xmin: 0, ymin: 0, xmax: 400, ymax: 400))
        func near() -> Point { Point(c.x + r.double(in: -25...25), c.y + r.double(in: -25...25)) }
        switch r.int(in: 0...6) {
        case 0: return .point(c)
        case 1: return .polyline(Polyline(paths: [[c, near(), near()]]))
        case 2: return .polygon(Polygon(rings: [[c, near(), near(), near()]]))
        case 3: return .multipoint(Multipoint(points: [c, near(), near()]))
        case 4: return .polyline(Polyline(paths: [[c, near()], [near(), near(), near()]]))
        case 5: return .envelope(Envelope(xmin: c.x, ymin: c.y, xmax: c.x + 12, ymax: c.y + 7))
        default: return .polygon(Polygon(rings: [[c, near(), near()], [near(), near(), near(), near()]]))
        }
    }

    @Test func nearestVertexAndEdgeMatchABruteForceScanThroughEdits() throws {
        var r = SeededRandom(seed: 16)
        let layer = GraphicsLayer()
        var ids: [GraphicID] = []
        for round in 0..<6 {
            ids += try layer.add(contentsOf: (0..<150).map { _ in Graphic(geometry: Self.geometry(&r)) })
            // Removals (enough over the rounds to compact) and geometry updates.
            for _ in 0..<60 where !ids.isEmpty {
                let k = r.int(in: 0...(ids.count - 1))
                if r.int(in: 0...2) == 0 {
                    try layer.update(ids[k]) { $0.geometry = Self.geometry(&r) }
                } else {
                    _ = layer.remove(ids.remove(at: k))
                }
            }
            let live = layer.graphicIDs.compactMap { id in layer.graphic(id).map { (id, $0) } }
            #expect(live.count == ids.count)
            for _ in 0..<80 {
                let q = r.point(in: Envelope(xmin: -20, ymin: -20, xmax: 420, ymax: 420))
                let d = [0.5, 4, 15, 60][r.int(in: 0...3)]
                for edges in [false, true] {
                    let got = edges ? layer.nearestEdge(to: q, within: d) : layer.nearestVertex(to: q, within: d)
                    #expect(got == Self.reference(live, q, d, edges: edges), "round \(round), \(q) within \(d), edges: \(edges)")
                }
            }
        }
    }

    @Test func exactVertexAndBoundsAndRefusedQueries() throws {
        let layer = GraphicsLayer()
        let a = try layer.add(Graphic(geometry: .point(Point(10, 10))))
        let b = try layer.add(Graphic(geometry: .polygon(Polygon(rings: [[Point(0, 0), Point(20, 0), Point(20, 20), Point(0, 20)]]))))
        // A point on a vertex of both: the topmost graphic (the polygon, added last) wins.
        #expect(layer.nearestVertex(to: Point(0, 0), within: 0) == GraphicSnapCandidate(graphic: b, part: 0, index: 0, point: Point(0, 0), distance: 0))
        #expect(layer.nearestVertex(to: Point(10, 12), within: 2) == GraphicSnapCandidate(graphic: a, part: 0, index: 0, point: Point(10, 10), distance: 2))
        #expect(layer.nearestVertex(to: Point(10, 12), within: 1.9) == nil)
        // The closing edge of the ring, from the last vertex back to the first.
        #expect(layer.nearestEdge(to: Point(-3, 5), within: 3) == GraphicSnapCandidate(graphic: b, part: 0, index: 3, point: Point(0, 5), distance: 3))
        // A point has no edge.
        _ = layer.remove(b)
        #expect(layer.nearestEdge(to: Point(10, 10), within: 100) == nil)
        #expect(layer.nearestVertex(to: Point(.nan, 0), within: 5) == nil)
        #expect(layer.nearestVertex(to: Point(10, 10), within: -1) == nil)
        #expect(layer.nearestVertex(to: Point(10, 10), within: .infinity) == nil)
    }

    @Test func queriesAreInTheMapsCoordinatesForAProjectedLayer() throws {
        let map = MapView(
            screenSize: ScreenSize(width: 100, height: 100), viewport: Viewport(center: Point(0, 0), resolution: 1000),
            spatialReference: .webMercator)
        let layer = GraphicsLayer(spatialReference: .wgs84)
        try map.addLayer(layer, named: "wgs84")
        let line = Polyline(paths: [[Point(10, 45), Point(11, 46)]])
        let id = try layer.add(Graphic(geometry: .polyline(line)))
        guard case .polyline(let projected) = try GeometryEngine.project(.polyline(line), from: .wgs84, to: .webMercator)
        else {
            Issue.record("not a polyline")
            return
        }
        let end = projected.paths[0][1]
        #expect(
            layer.nearestVertex(to: Point(end.x + 3, end.y), within: 5)
                == GraphicSnapCandidate(graphic: id, part: 0, index: 1, point: end, distance: 3))
        // Degrees are not map units: the unprojected vertex is nowhere near.
        #expect(layer.nearestVertex(to: Point(11, 46), within: 5) == nil)
    }
}
