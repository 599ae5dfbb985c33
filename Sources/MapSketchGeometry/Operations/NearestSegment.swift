extension GeometryEngine {
    /// The segment of `g` nearest to `p`: its part, the index of its start vertex, the closest
    /// point on it and the distance. Polygon rings (and an envelope) include the closing segment
    /// from the last vertex back to the first (start index `count - 1`). Nil when `g` has no
    /// segment (points, multipoints, single-vertex parts). For mid-vertex hit-testing.
    /// - Complexity: O(n) for n vertices, no allocation.
    package static func nearestSegment(to p: Point, in g: Geometry) -> (part: Int, index: Int, point: Point, distance: Double)? {
        var best: (part: Int, index: Int, point: Point, d2: Double)?
        func visit(_ part: Int, _ i: Int, _ a: Point, _ b: Point) {
            let (c, d2) = closest(p, a, b)
            if best.map({ d2 < $0.d2 }) ?? true { best = (part, i, c, d2) }
        }
        switch g {
        case .point, .multipoint: return nil
        case .polyline(let pl):
            for (pi, path) in pl.paths.enumerated() where path.count >= 2 {
                for i in 0..<(path.count - 1) { visit(pi, i, path[i], path[i + 1]) }
            }
        case .polygon(let pg):
            for (pi, ring) in pg.rings.enumerated() where ring.count >= 2 {
                for i in 0..<ring.count { visit(pi, i, ring[i], ring[i + 1 == ring.count ? 0 : i + 1]) }
            }
        case .envelope(let e):
            let c0 = Point(e.xmin, e.ymin), c1 = Point(e.xmin, e.ymax), c2 = Point(e.xmax, e.ymax), c3 = Point(e.xmax, e.ymin)
            visit(0, 0, c0, c1)
            visit(0, 1, c1, c2)
            visit(0, 2, c2, c3)
            visit(0, 3, c3, c0)
        }
        return best.map { ($0.part, $0.index, $0.point, $0.d2.squareRoot()) }
    }
}
