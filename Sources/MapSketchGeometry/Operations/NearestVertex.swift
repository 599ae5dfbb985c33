extension GeometryEngine {
    /// The vertex of `g` nearest to `p` (ties go to the first in part, then index order), for
    /// vertex hit-testing. An envelope's vertices are its four corners (as in ``Geometry/parts``).
    /// - Complexity: O(n) for n vertices, no allocation.
    package static func nearestVertex(to p: Point, in g: Geometry) -> (part: Int, index: Int, point: Point, distance: Double)? {
        var best: (part: Int, index: Int, point: Point, d2: Double)?
        func visit(_ part: Int, _ i: Int, _ q: Point) {
            let dx = q.x - p.x, dy = q.y - p.y
            let d2 = dx * dx + dy * dy
            if best.map({ d2 < $0.d2 }) ?? true { best = (part, i, q, d2) }
        }
        switch g {
        case .point(let q): if let q { visit(0, 0, q) }
        case .multipoint(let mp): for (i, q) in mp.points.enumerated() { visit(0, i, q) }
        case .polyline(let pl):
            for (pi, path) in pl.paths.enumerated() { for (i, q) in path.enumerated() { visit(pi, i, q) } }
        case .polygon(let pg):
            for (pi, ring) in pg.rings.enumerated() { for (i, q) in ring.enumerated() { visit(pi, i, q) } }
        case .envelope(let e):
            visit(0, 0, Point(e.xmin, e.ymin))
            visit(0, 1, Point(e.xmin, e.ymax))
            visit(0, 2, Point(e.xmax, e.ymax))
            visit(0, 3, Point(e.xmax, e.ymin))
        }
        return best.map { ($0.part, $0.index, $0.point, $0.d2.squareRoot()) }
    }
}
