public import MapSketchGeometry

extension SyntheticMap {
    /// The graphics within `tolerance` of `p`, topmost (highest index) first, by testing every
    /// graphic: the slow, obviously right answer the benchmarks' preconditions compare with.
    ///
    /// A point is hit within `tolerance`; a polyline when a segment is within `tolerance`; a
    /// polygon when `p` is inside (even-odd) or within `tolerance` of its outline.
    /// - Complexity: O(v) for v vertices in the map.
    public func referenceHits(_ p: Point, tolerance: Double) -> [Int] {
        let t2 = tolerance * tolerance
        var hits: [Int] = []
        for i in stride(from: count - 1, through: 0, by: -1) {
            let s = Int(offsets[i])
            let e = Int(offsets[i + 1])
            func v(_ k: Int) -> (Double, Double) { (coordinates[2 * k], coordinates[2 * k + 1]) }
            var hit = false
            switch kind {
            case .point:
                let (x, y) = v(s)
                hit = (x - p.x) * (x - p.x) + (y - p.y) * (y - p.y) <= t2
            case .polyline:
                for k in s..<(e - 1) where segmentDistanceSquared(p, v(k), v(k + 1)) <= t2 {
                    hit = true
                    break
                }
            case .polygon:
                var inside = false
                var j = e - 1
                for k in s..<e {
                    let (xi, yi) = v(k)
                    let (xj, yj) = v(j)
                    if (yi > p.y) != (yj > p.y), p.x < (xj - xi) * (p.y - yi) / (yj - yi) + xi { inside.toggle() }
                    if segmentDistanceSquared(p, v(j), v(k)) <= t2 { hit = true }
                    j = k
                }
                hit = hit || inside
            }
            if hit { hits.append(i) }
        }
        return hits
    }
}

/// The squared distance from `p` to the segment a–b.
func segmentDistanceSquared(_ p: Point, _ a: (Double, Double), _ b: (Double, Double)) -> Double {
    let dx = b.0 - a.0
    let dy = b.1 - a.1
    let len2 = dx * dx + dy * dy
    var t = len2 > 0 ? ((p.x - a.0) * dx + (p.y - a.1) * dy) / len2 : 0
    t = min(max(t, 0), 1)
    let x = a.0 + t * dx - p.x
    let y = a.1 + t * dy - p.y
    return x * x + y * y
}
