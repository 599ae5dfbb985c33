extension Kernel {
    /// Whether `p` lies on the closed segment a–b (exact).
    @inlinable
    package static func isOnSegment(_ p: Point, _ a: Point, _ b: Point) -> Bool {
        if p.x < min(a.x, b.x) || p.x > max(a.x, b.x) || p.y < min(a.y, b.y) || p.y > max(a.y, b.y) {
            return false
        }
        return orient2d(a, b, p) == 0
    }

    /// How two closed segments meet.
    package enum SegmentIntersection: Hashable, Sendable {
        /// The segments share no point.
        case none
        /// They cross at one point interior to both (no endpoint involved). The point is
        /// approximate (computed in floating point and clamped to both segments' envelopes).
        case proper(Point)
        /// They meet at exactly one point which is an endpoint of at least one segment (exact).
        case vertex(Point)
        /// They are collinear and overlap along a segment from `from` to `to` (exact endpoints).
        case overlap(from: Point, to: Point)
    }

    /// Classifies how segments p0–p1 and q0–q1 intersect, with exact predicates.
    ///
    /// - Complexity: O(1).
    package static func intersect(_ p0: Point, _ p1: Point, _ q0: Point, _ q1: Point) -> SegmentIntersection {
        // Envelope rejection.
        if max(p0.x, p1.x) < min(q0.x, q1.x) || max(q0.x, q1.x) < min(p0.x, p1.x)
            || max(p0.y, p1.y) < min(q0.y, q1.y) || max(q0.y, q1.y) < min(p0.y, p1.y)
        {
            return .none
        }
        let pq0 = orient2d(p0, p1, q0)
        let pq1 = orient2d(p0, p1, q1)
        if (pq0 > 0 && pq1 > 0) || (pq0 < 0 && pq1 < 0) { return .none }
        let qp0 = orient2d(q0, q1, p0)
        let qp1 = orient2d(q0, q1, p1)
        if (qp0 > 0 && qp1 > 0) || (qp0 < 0 && qp1 < 0) { return .none }
        if pq0 == 0 && pq1 == 0 && qp0 == 0 && qp1 == 0 {
            return collinearIntersection(p0, p1, q0, q1)
        }
        if pq0 != 0 && pq1 != 0 && qp0 != 0 && qp1 != 0 {
            return .proper(intersectionPoint(p0, p1, q0, q1))
        }
        // Exactly one point, and it is an endpoint lying on the other segment.
        if p0.equals2D(q0) || p0.equals2D(q1) { return .vertex(p0.xy) }
        if p1.equals2D(q0) || p1.equals2D(q1) { return .vertex(p1.xy) }
        if pq0 == 0 { return .vertex(q0.xy) }
        if pq1 == 0 { return .vertex(q1.xy) }
        if qp0 == 0 { return .vertex(p0.xy) }
        return .vertex(p1.xy)
    }

    private static func collinearIntersection(_ p0: Point, _ p1: Point, _ q0: Point, _ q1: Point)
        -> SegmentIntersection
    {
        // Order along the dominant axis; all four points are collinear.
        let useX = abs(p1.x - p0.x) + abs(q1.x - q0.x) >= abs(p1.y - p0.y) + abs(q1.y - q0.y)
        func key(_ p: Point) -> Double { useX ? p.x : p.y }
        let (pa, pb) = key(p0) <= key(p1) ? (p0, p1) : (p1, p0)
        let (qa, qb) = key(q0) <= key(q1) ? (q0, q1) : (q1, q0)
        let lo = key(pa) >= key(qa) ? pa : qa
        let hi = key(pb) <= key(qb) ? pb : qb
        if key(lo) > key(hi) { return .none }
        if lo.equals2D(hi) { return .vertex(lo.xy) }
        return .overlap(from: lo.xy, to: hi.xy)
    }

    /// The intersection point of the lines through p0–p1 and q0–q1, computed relative to the
    /// segments' common centre for conditioning and clamped into both segments' envelopes.
    /// Segments with coordinates beyond 2^500 or below 2^-500 in magnitude are intersected
    /// scaled by a power of two, so nothing overflows and tiny segments keep their precision.
    package static func intersectionPoint(_ p0: Point, _ p1: Point, _ q0: Point, _ q1: Point) -> Point {
        let m = max(p0.x.magnitude, p0.y.magnitude, p1.x.magnitude, p1.y.magnitude,
                    q0.x.magnitude, q0.y.magnitude, q1.x.magnitude, q1.y.magnitude)
        if m.isFinite, m > 0x1p500 || (m < 0x1p-500 && m > 0) {
            let k = -Int(m.exponent)
            func s(_ p: Point, _ k: Int) -> Point { Point(x: scaled(p.x, by: k), y: scaled(p.y, by: k)) }
            let r = intersectionPoint(s(p0, k), s(p1, k), s(q0, k), s(q1, k))
            return clamped(s(r, -k), p0, p1, q0, q1)
        }
        let mx = (min(p0.x, p1.x, q0.x, q1.x) + max(p0.x, p1.x, q0.x, q1.x)) / 2
        let my = (min(p0.y, p1.y, q0.y, q1.y) + max(p0.y, p1.y, q0.y, q1.y)) / 2
        let ax = p0.x - mx, ay = p0.y - my, bx = p1.x - mx, by = p1.y - my
        let cx = q0.x - mx, cy = q0.y - my, dx = q1.x - mx, dy = q1.y - my
        let rx = bx - ax, ry = by - ay, sx = dx - cx, sy = dy - cy
        let denom = rx * sy - ry * sx
        var x: Double
        var y: Double
        if denom == 0 || !denom.isFinite {
            x = (ax + bx + cx + dx) / 4
            y = (ay + by + cy + dy) / 4
        } else {
            let t = ((cx - ax) * sy - (cy - ay) * sx) / denom
            x = ax + t * rx
            y = ay + t * ry
        }
        return clamped(Point(x: x + mx, y: y + my), p0, p1, q0, q1)
    }

    /// `p` clamped into the intersection of the two segments' envelopes (where it is not empty).
    private static func clamped(_ p: Point, _ p0: Point, _ p1: Point, _ q0: Point, _ q1: Point) -> Point {
        var x = p.x, y = p.y
        let xlo = max(min(p0.x, p1.x), min(q0.x, q1.x)), xhi = min(max(p0.x, p1.x), max(q0.x, q1.x))
        let ylo = max(min(p0.y, p1.y), min(q0.y, q1.y)), yhi = min(max(p0.y, p1.y), max(q0.y, q1.y))
        if xlo <= xhi { x = min(max(x, xlo), xhi) }
        if ylo <= yhi { y = min(max(y, ylo), yhi) }
        return Point(x: x, y: y)
    }
}
