// The simplify rules of multipoints and polylines, written once over any vertex source: the
// engine's `simplify` applies them to a tree geometry, `FlatCoordinates.simplify` to flat
// coordinates in place.

/// The cell of the snapping grid a point lies in: the grid of ``VertexSnapper`` and of the
/// multipoint simplify rule (``PointGrid``), one tolerance wide; for a zero tolerance, the point
/// itself (−0 folded into 0). Beyond 2^53 tolerances from the origin neighbouring cells
/// coincide, which is harmless: distinct coordinates there differ by at least a tolerance.
enum SnapCell {
    /// The cell of (x, y) for a non-negative, finite `tolerance`.
    @inline(__always)
    static func of(_ x: Double, _ y: Double, tolerance: Double) -> (Double, Double) {
        if tolerance == 0 { return (x == 0 ? 0 : x, y == 0 ? 0 : y) }
        return ((x / tolerance).rounded(.down), (y / tolerance).rounded(.down))
    }
}

/// The simplify rules of ``GeometryEngine/simplify(_:tolerance:)`` for multipoints and
/// polylines, over any ``VertexSource``. Non-finite vertices are dropped first.
enum SimplifyRule {
    /// Whether two vertices are the same under `tolerance`: equal, or closer than it.
    @inline(__always)
    static func isClose(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double, tolerance: Double) -> Bool {
        let dx = ax - bx, dy = ay - by
        return (ax == bx && ay == by) || dx * dx + dy * dy < tolerance * tolerance
    }

    /// The multipoint rule: calls `keep` with each point (of every part, in order) that is
    /// finite and neither equal to nor closer than `tolerance` (non-negative, finite) to a point
    /// kept before it — compared with the kept points in the nine grid cells around its own.
    /// `keep` is called before the next point is read.
    /// - Precondition: at most ``PointGrid/maxCapacity`` points.
    /// - Complexity: O(n) expected; memory about 26 + 16 bytes a point.
    static func keptPoints<S: VertexSource>(_ source: S, tolerance: Double, keep: (Point) -> Void) {
        var grid = PointGrid(tolerance: tolerance, capacity: source.partSizes.reduce(0, +))
        source.forEachVertex { _, _, p in
            guard p.x.isFinite, p.y.isFinite, !grid.hasNear(p.x, p.y) else { return }
            grid.keep(p.x, p.y)
            keep(p)
        }
    }

    /// The polyline rule: in each part, the finite vertices less each one equal to or closer
    /// than `tolerance` to the vertex kept before it — the part's last finite vertex, when so
    /// dropped, taking the place of the one kept before it unless that is the first (so the
    /// path still ends where it ended) or equal to it — and parts left with fewer than two
    /// vertices dropped. Calls `keep` with each kept vertex as `(part, vertex)`, in order, at
    /// most one kept vertex behind the vertex being read (a vertex is handed over only once the
    /// next one of its part is kept, or its part ends).
    /// - Complexity: O(n); memory O(1).
    static func keptPathVertices<S: VertexSource>(_ source: S, tolerance: Double, keep: (Int, Point) -> Void) {
        let sizes = source.partSizes
        var pending: Point?  // the last kept vertex, not yet handed over
        var replacement: Point?  // the part's last vertex so far, to replace `pending` if it stays last
        var kept = 0
        func end(_ part: Int) {
            if kept >= 2, let p = replacement ?? pending { keep(part, p) }
            (pending, replacement, kept) = (nil, nil, 0)
        }
        source.forEachVertex { part, k, p in
            if p.x.isFinite, p.y.isFinite {
                if let last = pending {
                    if isClose(last.x, last.y, p.x, p.y, tolerance: tolerance) {
                        replacement = kept >= 2 && !(last.x == p.x && last.y == p.y) ? p : nil
                    } else {
                        keep(part, last)
                        pending = p
                        replacement = nil
                        kept += 1
                    }
                } else {
                    pending = p
                    kept = 1
                }
            }
            if k == sizes[part] - 1 { end(part) }
        }
    }
}
