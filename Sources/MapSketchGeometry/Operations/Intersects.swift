extension GeometryEngine {
    /// Whether `p` is within `tolerance` of `g` (inside a polygon or envelope counts): the
    /// hit test for one geometry.
    /// - Complexity: O(n) for n vertices, no allocation.
    package static func intersects(_ g: Geometry, _ p: Point, tolerance: Double) -> Bool {
        switch g {
        case .point(let q): return q.map { hypot2(p, $0) <= tolerance } ?? false
        case .envelope(let e): return e.distanceSquared(to: p) <= tolerance * tolerance
        default: return distance(from: p, to: g) <= tolerance
        }
    }
}
