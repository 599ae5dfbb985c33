/// Vertices kept at least a tolerance apart: each point offered either snaps to the nearest
/// kept vertex closer than the tolerance (or equal to it) or is kept itself. The clustering of
/// Esri's simplify: the first vertex of a cluster stands for it, so the result depends only on
/// the order points are offered in.
///
/// Kept vertices sit in a hash grid of cells one tolerance wide, so a point is compared only
/// with those in its own and the eight neighbouring cells.
///
/// - Complexity: ``snap(_:)`` and ``nearest(to:)`` O(1) expected (the vertices of nine cells,
///   which are at least a tolerance apart, so at most a few dozen).
struct VertexSnapper {
    /// The distance below which two points are the same vertex (0: only equal points are).
    let tolerance: Double
    /// The kept vertices, in the order they were kept.
    private(set) var vertices: [Point] = []
    private var grid: [Cell: [Int32]] = [:]

    private struct Cell: Hashable {
        var x: Double
        var y: Double
    }

    /// A snapper; a negative or non-finite tolerance is taken as 0.
    init(tolerance: Double) {
        self.tolerance = tolerance.isFinite && tolerance > 0 ? tolerance : 0
    }

    /// The cell of a point (``SnapCell``).
    private func cell(_ p: Point) -> Cell {
        let (x, y) = SnapCell.of(p.x, p.y, tolerance: tolerance)
        return Cell(x: x, y: y)
    }

    /// The index of the kept vertex nearest to `p` among those closer than the tolerance or
    /// equal to it (the earliest kept on a tie), or nil.
    func nearest(to p: Point) -> Int? {
        let c = cell(p)
        var best: Int?
        var bestD2 = Double.infinity
        let reach: [Double] = tolerance == 0 ? [0] : [-1, 0, 1]
        for dx in reach {
            for dy in reach {
                guard let ids = grid[Cell(x: c.x + dx, y: c.y + dy)] else { continue }
                for id in ids {
                    let v = vertices[Int(id)]
                    let ex = v.x - p.x, ey = v.y - p.y
                    let d2 = ex * ex + ey * ey
                    guard SimplifyRule.isClose(v.x, v.y, p.x, p.y, tolerance: tolerance) else { continue }
                    if d2 < bestD2 || (d2 == bestD2 && Int(id) < (best ?? Int.max)) {
                        best = Int(id)
                        bestD2 = d2
                    }
                }
            }
        }
        return best
    }

    /// The kept vertex `p` snaps to, keeping `p` when none is close enough.
    mutating func snap(_ p: Point) -> Point {
        if let i = nearest(to: p) { return vertices[i] }
        keep(p)
        return p
    }

    /// Keeps `p` as a vertex without looking for a near one (the caller knows there is none).
    mutating func keep(_ p: Point) {
        grid[cell(p), default: []].append(Int32(truncatingIfNeeded: vertices.count))
        vertices.append(p)
    }
}
