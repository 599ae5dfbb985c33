package import MapSketchGeometry

/// A graphic's vertex, or the closest point on one of its edges, near a map point: what snapping
/// asks a layer for (see ``GraphicsLayer/nearestVertex(to:within:)`` and
/// ``GraphicsLayer/nearestEdge(to:within:)``).
package struct GraphicSnapCandidate: Hashable, Sendable {
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
    package func nearestVertex(to q: Point, within distance: Double) -> GraphicSnapCandidate? {
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
    package func nearestEdge(to q: Point, within distance: Double) -> GraphicSnapCandidate? {
        slots.nearest(to: q, within: distance, edges: true)
    }
}

/// The best snap candidate of one kind found so far in a pass over the slots: the squared
/// distance, the slot, the part and index, the point (-1 as the slot: none yet).
struct SlotSnapNearest {
    var d2 = Double.infinity
    var slot = -1
    var part = 0
    var index = 0
    var point = Point(x: 0, y: 0)

    /// Whether a candidate was found.
    var found: Bool { slot >= 0 }

    /// Keeps the candidate when it is within `limit` (a squared distance) and nearer; at the
    /// same distance the higher slot wins, then the earlier part and index.
    @inline(__always)
    mutating func offer(_ d2: Double, limit: Double, _ s: Int, _ part: Int, _ index: Int, _ point: @autoclosure () -> Point) {
        guard d2 <= limit else { return }
        if slot >= 0 && (d2 > self.d2 || (d2 == self.d2 && (s < slot || (s == slot && (part, index) >= (self.part, self.index))))) {
            return
        }
        self.d2 = d2
        slot = s
        self.part = part
        self.index = index
        self.point = point()
    }
}

extension GraphicSlots {
    /// The nearest vertex (or edge point) to `q` within `distance`, over the slots whose envelope
    /// the index finds within `distance`.
    func nearest(to q: Point, within distance: Double, edges: Bool) -> GraphicSnapCandidate? {
        let found = nearest(to: q, within: distance, vertices: !edges, edges: edges)
        return edges ? found.edge : found.vertex
    }

    /// The nearest vertex and the nearest edge point to `q` within `distance` (each only when
    /// asked for), from one search of the index (see ``nearestSlots(to:within:vertices:edges:edgesUnlessVertex:)``).
    /// - Complexity: O(log n + v) for the v vertices of the graphics whose envelope lies within
    ///   `distance` of `q`.
    func nearest(
        to q: Point, within distance: Double, vertices: Bool, edges: Bool
    ) -> (vertex: GraphicSnapCandidate?, edge: GraphicSnapCandidate?) {
        let found = nearestSlots(to: q, within: distance, vertices: vertices, edges: edges, edgesUnlessVertex: false)
        return (candidate(found.vertex), candidate(found.edge))
    }

    /// The nearest vertex and the nearest edge point to `q` within `distance` (each only when
    /// asked for) as the slot, part, index, point and squared distance, from one search of the
    /// index: its candidates are written into the hit test's buffer (no closure, no copy of the
    /// index; nothing is allocated unless more candidates turn up than any query before), the
    /// vertices are weighed first, then the edges. With `edgesUnlessVertex`, the edges are not
    /// weighed when a vertex is in reach (no edge can win over a vertex: a caller that only
    /// wants the winner of the two leaves them).
    /// - Complexity: O(log n + v) for the v vertices of the graphics whose envelope lies within
    ///   `distance` of `q`.
    func nearestSlots(
        to q: Point, within distance: Double, vertices: Bool, edges: Bool, edgesUnlessVertex: Bool
    ) -> (vertex: SlotSnapNearest, edge: SlotSnapNearest) {
        var v = SlotSnapNearest(), e = SlotSnapNearest()
        guard vertices || edges, q.isFinite, distance >= 0, distance.isFinite else { return (v, e) }
        let query = Envelope(xmin: q.x - distance, ymin: q.y - distance, xmax: q.x + distance, ymax: q.y + distance)
        let limit = distance * distance
        if candidates.capacity < 64 { candidates.reserveCapacity(64) }
        guard var out = candidates.base else { return (v, e) }
        var n = index.collect(query, into: out, capacity: candidates.capacity)
        if n > candidates.capacity {
            candidates.reserveCapacity(n)
            guard let grown = candidates.base else { return (v, e) }
            out = grown
            n = min(index.collect(query, into: out, capacity: n), n)
        }
        guard n > 0 else { return (v, e) }
        let p = SIMD2(q.x, q.y)
        if vertices { v = nearestVertex(to: p, limit: limit, among: UnsafeBufferPointer(start: out, count: n)) }
        if edges && !(edgesUnlessVertex && v.found) { e = nearestEdge(to: p, limit: limit, among: UnsafeBufferPointer(start: out, count: n)) }
        return (v, e)
    }

    /// The nearest vertex to `p` within `limit` (a squared distance) of the graphics in `slots`.
    private func nearestVertex(to p: SIMD2<Double>, limit: Double, among slots: UnsafeBufferPointer<Int32>) -> SlotSnapNearest {
        var v = SlotSnapNearest()
        for slot in slots {
            let s = Int(slot)
            let shape = shapes[s]
            switch shape.kind {
            case .dead, .emptyPoint:
                break
            case .point:
                let d = shape.point - p
                v.offer((d * d).sum(), limit: limit, s, 0, 0, Point(x: shape.x, y: shape.y))
            case .path, .ring:
                let r = run(shape)
                for i in 0..<r.count {
                    let d = r[i] - p
                    v.offer((d * d).sum(), limit: limit, s, 0, i, Point(x: r[i].x, y: r[i].y))
                }
            case .general:
                if let f = GeometryEngine.nearestVertex(to: Point(x: p.x, y: p.y), in: general[shape.row]) {
                    let dx = f.point.x - p.x, dy = f.point.y - p.y
                    v.offer(dx * dx + dy * dy, limit: limit, s, f.part, f.index, f.point)
                }
            }
        }
        return v
    }

    /// The nearest edge point to `p` within `limit` (a squared distance) of the graphics in `slots`.
    private func nearestEdge(to p: SIMD2<Double>, limit: Double, among slots: UnsafeBufferPointer<Int32>) -> SlotSnapNearest {
        var e = SlotSnapNearest()
        let q = Point(x: p.x, y: p.y)
        for slot in slots {
            let s = Int(slot)
            let shape = shapes[s]
            switch shape.kind {
            case .dead, .emptyPoint, .point:
                break
            case .path, .ring:
                let r = run(shape)
                let segments = shape.kind == .ring ? (r.count >= 2 ? r.count : 0) : max(r.count - 1, 0)
                for i in 0..<segments {
                    let a = r[i], b = r[i + 1 == r.count ? 0 : i + 1]
                    let c = GeometryEngine.closestPoint(to: q, onSegment: Point(x: a.x, y: a.y), Point(x: b.x, y: b.y))
                    e.offer(c.distanceSquared, limit: limit, s, 0, i, c.point)
                }
            case .general:
                if let f = GeometryEngine.nearestSegment(to: q, in: general[shape.row]) {
                    let dx = f.point.x - p.x, dy = f.point.y - p.y
                    e.offer(dx * dx + dy * dy, limit: limit, s, f.part, f.index, f.point)
                }
            }
        }
        return e
    }

    private func candidate(_ b: SlotSnapNearest) -> GraphicSnapCandidate? {
        guard b.found else { return nil }
        return GraphicSnapCandidate(
            graphic: GraphicID(rawValue: id(b.slot)), part: b.part, index: b.index, point: b.point,
            distance: b.d2.squareRoot())
    }
}
