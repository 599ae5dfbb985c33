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

    /// Whether `g` lies within `limit` of `p`: the same answer as
    /// `distance(from: p, to: g) <= limit`, but a polyline or polygon stops at the first segment
    /// close enough (a hit test needs the answer, not the nearest segment).
    /// - Complexity: O(v) for v vertices, less when a segment near the start is close enough.
    public static func isWithin(_ limit: Double, of p: Point, _ g: Geometry) -> Bool {
        switch g {
        case .polyline(let pl) where !pl.paths.isEmpty && pl.paths.allSatisfy({ $0.count >= 2 }):
            return anySegment(of: pl.paths, closed: false, within: limit, of: p)
        case .polygon(let pg) where !pg.rings.isEmpty && pg.rings.allSatisfy({ $0.count >= 2 }):
            // distance is 0 inside, else the nearest segment's: within ⇔ a segment is within
            // or the point is inside (checked second: it is the dearer test).
            return anySegment(of: pg.rings, closed: true, within: limit, of: p) || (0 <= limit && contains(pg, p))
        default:
            return distance(from: p, to: g) <= limit
        }
    }

    /// Whether a segment of `parts` (each closed back to its start when `closed`) lies within
    /// `limit` of `p`, by the distance ``distance(from:to:)`` takes the minimum of (so the
    /// answer is the same as comparing that minimum).
    static func anySegment(of parts: [[Point]], closed: Bool, within limit: Double, of p: Point) -> Bool {
        for part in parts {
            let found = part.withUnsafeBufferPointer { v -> Bool in
                let n = v.count
                for i in 0..<(closed ? n : n - 1) {
                    let (_, d2) = closest(p, v[i], v[i + 1 == n ? 0 : i + 1])
                    if d2.squareRoot() <= limit { return true }
                }
                return false
            }
            if found { return true }
        }
        return false
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
