extension GeometryEngine {
    /// The planar distance from `p` to `g`: 0 inside a polygon or envelope (odd-even, boundary
    /// included), otherwise the distance to the nearest vertex or segment. Infinity for an
    /// empty geometry.
    /// - Complexity: O(n) for n vertices, no allocation.
    public static func distance(from p: Point, to g: Geometry) -> Double {
        switch g {
        case .point(let q): return q.map { hypot2(p, $0) } ?? .infinity
        case .multipoint(let mp):
            var best = Double.infinity
            for q in mp.points { best = min(best, hypot2(p, q)) }
            return best
        case .polyline, .polygon, .envelope:
            if case .polygon(let pg) = g, contains(pg, p) { return 0 }
            if case .envelope(let e) = g { return e.distanceSquared(to: p).squareRoot() }
            return nearestSegment(to: p, in: g)?.distance ?? (g.isEmpty ? .infinity : nearestVertex(to: p, in: g)?.distance ?? .infinity)
        }
    }

    /// The closest point to `p` on segment a–b and its squared distance.
    @inline(__always) static func closest(_ p: Point, _ a: Point, _ b: Point) -> (Point, Double) {
        let dx = b.x - a.x, dy = b.y - a.y
        let len2 = dx * dx + dy * dy
        var t = len2 > 0 ? ((p.x - a.x) * dx + (p.y - a.y) * dy) / len2 : 0
        t = min(1, max(0, t))
        let c = t == 0 ? a.xy : (t == 1 ? b.xy : Point(a.x + t * dx, a.y + t * dy))
        let ex = p.x - c.x, ey = p.y - c.y
        return (c, ex * ex + ey * ey)
    }
}
