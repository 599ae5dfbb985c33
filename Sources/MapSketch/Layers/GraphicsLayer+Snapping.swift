public import MapSketchGeometry

/// A graphic's vertex, or the closest point on one of its edges, near a map point: what snapping
/// asks a layer for (see ``GraphicsLayer/nearestVertex(to:within:)`` and
/// ``GraphicsLayer/nearestEdge(to:within:)``).
public struct GraphicSnapCandidate: Hashable, Sendable {
    /// The graphic the vertex or edge belongs to.
    public var graphic: GraphicID
    /// The part (path, ring) of the graphic's geometry; 0 for points, multipoints and envelopes.
    public var part: Int
    /// The vertex's index in its part, or the index of the edge's first vertex (a ring's closing
    /// edge, from its last vertex back to the first, has index `count - 1`).
    public var index: Int
    /// The vertex, or the closest point on the edge.
    public var point: Point
    /// The distance from the queried point to ``point``, in map units.
    public var distance: Double

    /// A candidate from its parts.
    public init(graphic: GraphicID, part: Int, index: Int, point: Point, distance: Double) {
        self.graphic = graphic
        self.part = part
        self.index = index
        self.point = point
        self.distance = distance
    }
}

extension GraphicsLayer {
    /// The vertex nearest to `q` among the layer's graphics, within `distance` map units (the
    /// bound included), or nil when none is that close.
    ///
    /// Vertices are those of ``GeometryEngine/nearestVertex(to:in:)``: a point, each point of a
    /// multipoint, each vertex of a path or ring, an envelope's four corners. Of equally near
    /// vertices the topmost graphic's (highest id) wins, then the first in part and index order.
    /// Symbols, the renderer and ``isHitTestEnabled`` play no part: this is geometry, for snapping.
    /// `q`, `distance` and the result are in the coordinates the layer stores: the map's spatial
    /// reference once the layer is on a map (as for ``hitTest(mapPoint:tolerance:resolution:maxResults:)``).
    /// - Complexity: O(log n + v) for the v vertices of the graphics whose envelope lies within
    ///   `distance` of `q` (found through the spatial index); no allocation for points and one-part
    ///   lines and polygons.
    public func nearestVertex(to q: Point, within distance: Double) -> GraphicSnapCandidate? {
        slots.nearest(to: q, within: distance, edges: false)
    }

    /// The point on an edge (segment) of the layer's graphics nearest to `q`, within `distance`
    /// map units (the bound included), or nil when no edge is that close.
    ///
    /// Edges are those of ``GeometryEngine/nearestSegment(to:in:)``: between consecutive vertices
    /// of a path, and around a ring or an envelope, closing edge included; points and multipoints
    /// have none. Of equally near edges the topmost graphic's (highest id) wins, then the first in
    /// part and index order.
    /// - Complexity: O(log n + v) as for ``nearestVertex(to:within:)``.
    public func nearestEdge(to q: Point, within distance: Double) -> GraphicSnapCandidate? {
        slots.nearest(to: q, within: distance, edges: true)
    }
}

extension GraphicSlots {
    /// The nearest vertex (or edge point) to `q` within `distance`, over the slots whose envelope
    /// the index finds within `distance`.
    func nearest(to q: Point, within distance: Double, edges: Bool) -> GraphicSnapCandidate? {
        guard q.isFinite, distance >= 0, distance.isFinite else { return nil }
        let query = Envelope(xmin: q.x - distance, ymin: q.y - distance, xmax: q.x + distance, ymax: q.y + distance)
        let limit = distance * distance
        // The best so far: squared distance, slot, part, index, point.
        var best: (d2: Double, slot: Int, part: Int, index: Int, point: Point)?
        func offer(_ d2: Double, _ s: Int, _ part: Int, _ index: Int, _ p: Point) {
            guard d2 <= limit else { return }
            if let b = best {
                // Nearer wins; at the same distance the higher slot, then the earlier vertex.
                if d2 > b.d2 || (d2 == b.d2 && (s < b.slot || (s == b.slot && (part, index) >= (b.part, b.index)))) {
                    return
                }
            }
            best = (d2, s, part, index, p)
        }
        index.search(query) { s in
            let shape = shapes[s]
            switch shape.kind {
            case .dead, .emptyPoint:
                break
            case .point where !edges:
                let dx = shape.x - q.x, dy = shape.y - q.y
                offer(dx * dx + dy * dy, s, 0, 0, Point(x: shape.x, y: shape.y))
            case .point:
                break
            case .path, .ring:
                let r = run(shape)
                if edges {
                    let closed = shape.kind == .ring
                    let segments = closed ? (r.count >= 2 ? r.count : 0) : max(r.count - 1, 0)
                    for i in 0..<segments {
                        let a = r[i], b = r[i + 1 == r.count ? 0 : i + 1]
                        let c = GeometryEngine.closestPoint(to: q, onSegment: Point(x: a.x, y: a.y), Point(x: b.x, y: b.y))
                        offer(c.distanceSquared, s, 0, i, c.point)
                    }
                } else {
                    for i in 0..<r.count {
                        let dx = r[i].x - q.x, dy = r[i].y - q.y
                        offer(dx * dx + dy * dy, s, 0, i, Point(x: r[i].x, y: r[i].y))
                    }
                }
            case .general:
                let g = general[shape.row]
                let found =
                    edges ? GeometryEngine.nearestSegment(to: q, in: g) : GeometryEngine.nearestVertex(to: q, in: g)
                if let f = found {
                    let dx = f.point.x - q.x, dy = f.point.y - q.y
                    offer(dx * dx + dy * dy, s, f.part, f.index, f.point)
                }
            }
            return true
        }
        return best.map {
            GraphicSnapCandidate(
                graphic: GraphicID(rawValue: id($0.slot)), part: $0.part, index: $0.index, point: $0.point,
                distance: $0.d2.squareRoot())
        }
    }
}
