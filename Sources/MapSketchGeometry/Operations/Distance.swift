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
    package static func isWithin(_ limit: Double, of p: Point, _ g: Geometry) -> Bool {
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
            if part.withUnsafeBufferPointer({ anySegment(of: $0, closed: closed, within: limit, of: p) }) { return true }
        }
        return false
    }

    /// ``anySegment(of:closed:within:of:)`` on one part, of any vertex type.
    ///
    /// Each segment's squared distance is ``closest(_:_:_:_:_:_:)``'s, bit for bit, and so is
    /// the answer: the division is skipped where its result is known (the closest point an end
    /// of the segment), and the square root where the squared distance is clearly inside or
    /// outside the limit's square (``SquaredLimit``).
    @inline(__always)
    static func anySegment<V: PlanarXY>(of v: UnsafeBufferPointer<V>, closed: Bool, within limit: Double, of p: Point) -> Bool {
        let n = v.count
        let bound = SquaredLimit(limit)
        for i in 0..<(closed ? n : n - 1) {
            let a = v[i], b = v[i + 1 == n ? 0 : i + 1]
            if bound.holds(squaredDistance(p.x, p.y, a.x, a.y, b.x, b.y)) { return true }
        }
        return false
    }

    /// ``closest(_:_:_:_:_:_:)``'s squared distance, the same bits, without its division when
    /// the closest point is an end: `t` is 0 there when the projection is not positive (or NaN)
    /// and 1 when it reaches the squared length (a finite one).
    @inline(__always)
    static func squaredDistance(_ px: Double, _ py: Double, _ ax: Double, _ ay: Double, _ bx: Double, _ by: Double) -> Double {
        let dx = bx - ax, dy = by - ay
        let len2 = dx * dx + dy * dy
        let dot = (px - ax) * dx + (py - ay) * dy
        let cx: Double, cy: Double
        if !(len2 > 0) || !(dot > 0) {
            cx = ax
            cy = ay
        } else if dot >= len2 && len2 < .infinity {
            cx = bx
            cy = by
        } else {
            let t = min(1, max(0, dot / len2))
            cx = t == 0 ? ax : (t == 1 ? bx : ax + t * dx)
            cy = t == 0 ? ay : (t == 1 ? by : ay + t * dy)
        }
        let ex = px - cx, ey = py - cy
        return ex * ex + ey * ey
    }

    /// `d2.squareRoot() <= limit`, the same answer, mostly without the square root: a squared
    /// distance below the limit's square by more than a part in 2³⁰ is within, one above it by
    /// as much is not (far wider than the rounding of the square, the root and the comparison);
    /// only one in between (or a NaN, or a limit not positive or whose square is not a normal
    /// number) takes the root.
    struct SquaredLimit {
        let limit: Double
        let inside: Double
        let outside: Double

        @inline(__always)
        init(_ limit: Double) {
            self.limit = limit
            let l2 = limit * limit
            if limit > 0 && l2 >= 0x1p-900 && l2 < .infinity {
                inside = l2 * (1 - 0x1p-30)
                outside = l2 * (1 + 0x1p-30)
            } else {
                // Every comparison below fails: the root decides.
                inside = -.infinity
                outside = .infinity
            }
        }

        @inline(__always)
        func holds(_ d2: Double) -> Bool {
            if d2 <= inside { return true }
            if d2 > outside { return false }
            return d2.squareRoot() <= limit
        }
    }

    /// Whether the path `v` (x, y pairs; at least two) lies within `limit` of `p`: the answer
    /// ``isWithin(_:of:_:)`` gives for a one-path polyline with these vertices.
    /// - Complexity: O(v) for v vertices, less when a segment near the start is close enough.
    package static func isWithin(_ limit: Double, of p: Point, path v: UnsafeBufferPointer<SIMD2<Double>>) -> Bool {
        v.count >= 2 && anySegment(of: v, closed: false, within: limit, of: p)
    }

    /// Whether the ring `v` (x, y pairs, open: the last vertex joins the first; at least two)
    /// lies within `limit` of `p`, 0 inside: the answer ``isWithin(_:of:_:)`` gives for a one-ring
    /// polygon with these vertices.
    /// - Complexity: O(v) for v vertices.
    package static func isWithin(_ limit: Double, of p: Point, ring v: UnsafeBufferPointer<SIMD2<Double>>) -> Bool {
        guard v.count >= 2 else { return false }
        return anySegment(of: v, closed: true, within: limit, of: p) || (0 <= limit && Kernel.locate(p, inRing: v) != .exterior)
    }

    /// The closest point to `p` on segment a–b and its squared distance.
    @inline(__always) static func closest(_ p: Point, _ a: Point, _ b: Point) -> (Point, Double) {
        let c = closest(p.x, p.y, a.x, a.y, b.x, b.y)
        return (Point(c.x, c.y), c.d2)
    }

    /// ``closest(_:_:_:)`` on raw coordinates: the closest point (x, y) to (px, py) on the
    /// segment and its squared distance.
    @inline(__always) static func closest(
        _ px: Double, _ py: Double, _ ax: Double, _ ay: Double, _ bx: Double, _ by: Double
    ) -> (x: Double, y: Double, d2: Double) {
        let dx = bx - ax, dy = by - ay
        let len2 = dx * dx + dy * dy
        var t = len2 > 0 ? ((px - ax) * dx + (py - ay) * dy) / len2 : 0
        t = min(1, max(0, t))
        let cx = t == 0 ? ax : (t == 1 ? bx : ax + t * dx)
        let cy = t == 0 ? ay : (t == 1 ? by : ay + t * dy)
        let ex = px - cx, ey = py - cy
        return (cx, cy, ex * ex + ey * ey)
    }
}
