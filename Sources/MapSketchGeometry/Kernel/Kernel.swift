/// Robust geometric predicates: the one place orientation and on-segment decisions are made.
///
/// Every algorithm in ``GeometryEngine`` decides "left, right or on" through ``orient2d(_:_:_:)``,
/// which returns the exact sign of the orientation determinant for any finite double inputs.
/// There are no epsilons here: the filter bound guarantees the fast path is correct whenever it
/// answers, and the exact path sums the determinant as a floating-point expansion.
///
/// Source: J. R. Shewchuk, "Adaptive Precision Floating-Point Arithmetic and Fast Robust
/// Geometric Predicates", Discrete & Computational Geometry 18:305–363, 1997 (error bound
/// `ccwerrboundA`, `Two-Product`, `Grow-Expansion`).
public enum Kernel {
    /// The orientation of three points.
    public enum Orientation: Int, Sendable {
        /// c lies to the right of the directed line a→b (the turn a→b→c is clockwise).
        case clockwise = -1
        /// a, b and c lie on one line.
        case collinear = 0
        /// c lies to the left of the directed line a→b (the turn a→b→c is counter-clockwise).
        case counterClockwise = 1
    }

    /// The exact sign of `(a - c) × (b - c)`: +1 counter-clockwise, −1 clockwise, 0 collinear.
    ///
    /// - Complexity: O(1); the exact fallback runs only when the filtered result is uncertain.
    @inlinable
    public static func orient2d(_ a: Point, _ b: Point, _ c: Point) -> Int {
        orient2d(a.x, a.y, b.x, b.y, c.x, c.y)
    }

    /// ``orient2d(_:_:_:)`` on raw coordinates.
    @inlinable
    public static func orient2d(
        _ ax: Double, _ ay: Double, _ bx: Double, _ by: Double, _ cx: Double, _ cy: Double
    ) -> Int {
        let detLeft = (ax - cx) * (by - cy)
        let detRight = (ay - cy) * (bx - cx)
        let det = detLeft - detRight
        let detSum: Double
        if detLeft > 0 {
            if detRight <= 0 { return det > 0 ? 1 : (det < 0 ? -1 : 0) }
            detSum = detLeft + detRight
        } else if detLeft < 0 {
            if detRight >= 0 { return det > 0 ? 1 : (det < 0 ? -1 : 0) }
            detSum = -detLeft - detRight
        } else {
            return det > 0 ? 1 : (det < 0 ? -1 : 0)
        }
        // Shewchuk's ccwerrboundA = (3 + 16ε)ε with ε = 2^-53.
        let errBound = 3.3306690738754716e-16 * detSum
        if det >= errBound { return 1 }
        if -det >= errBound { return -1 }
        return _orient2dExact(ax, ay, bx, by, cx, cy)
    }

    /// The orientation as an enum.
    @inlinable
    public static func orientation(_ a: Point, _ b: Point, _ c: Point) -> Orientation {
        switch orient2d(a, b, c) {
        case 1: .counterClockwise
        case -1: .clockwise
        default: .collinear
        }
    }

    /// The exact sign of the determinant, summed as a nonoverlapping expansion of twelve
    /// products (the c·c terms cancel algebraically).
    @usableFromInline
    static func _orient2dExact(
        _ ax: Double, _ ay: Double, _ bx: Double, _ by: Double, _ cx: Double, _ cy: Double
    ) -> Int {
        // det = ax·by − ax·cy − cx·by − ay·bx + ay·cx + cy·bx
        var e = _Expansion()
        e.addProduct(ax, by)
        e.addProduct(-ax, cy)
        e.addProduct(-cx, by)
        e.addProduct(-ay, bx)
        e.addProduct(ay, cx)
        e.addProduct(cy, bx)
        return e.sign
    }

    /// Whether `p` lies on the closed segment a–b (exact).
    @inlinable
    public static func isOnSegment(_ p: Point, _ a: Point, _ b: Point) -> Bool {
        if p.x < min(a.x, b.x) || p.x > max(a.x, b.x) || p.y < min(a.y, b.y) || p.y > max(a.y, b.y) {
            return false
        }
        return orient2d(a, b, p) == 0
    }

    /// How two closed segments meet.
    public enum SegmentIntersection: Hashable, Sendable {
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
    public static func intersect(_ p0: Point, _ p1: Point, _ q0: Point, _ q1: Point) -> SegmentIntersection {
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
    public static func intersectionPoint(_ p0: Point, _ p1: Point, _ q0: Point, _ q1: Point) -> Point {
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
        x += mx
        y += my
        let xlo = max(min(p0.x, p1.x), min(q0.x, q1.x)), xhi = min(max(p0.x, p1.x), max(q0.x, q1.x))
        let ylo = max(min(p0.y, p1.y), min(q0.y, q1.y)), yhi = min(max(p0.y, p1.y), max(q0.y, q1.y))
        if xlo <= xhi { x = min(max(x, xlo), xhi) }
        if ylo <= yhi { y = min(max(y, ylo), yhi) }
        return Point(x: x, y: y)
    }

    /// Twice the signed area of an open ring (shoelace): negative for clockwise rings (y up).
    ///
    /// Computed relative to the first vertex to limit cancellation.
    /// - Complexity: O(n) for n vertices.
    public static func signedDoubleArea(_ ring: [Point]) -> Double {
        guard ring.count >= 3 else { return 0 }
        let ox = ring[0].x, oy = ring[0].y
        var s = 0.0
        var px = ring[ring.count - 1].x - ox, py = ring[ring.count - 1].y - oy
        for p in ring {
            let x = p.x - ox, y = p.y - oy
            s += px * y - x * py
            px = x
            py = y
        }
        return s
    }

    /// Where a point lies relative to a ring.
    public enum RingLocation: Hashable, Sendable { case interior, boundary, exterior }

    /// Locates `p` relative to an open ring with an exact ray-crossing count (the JTS
    /// `RayCrossingCounter` rule: upward edges include their start, downward edges their end).
    /// - Complexity: O(n) for n vertices.
    public static func locate(_ p: Point, inRing ring: [Point]) -> RingLocation {
        ring.withUnsafeBufferPointer { _locate(p, inRing: $0) }
    }

    /// ``locate(_:inRing:)`` on a ring of packed x, y coordinates.
    /// - Complexity: O(n) for n vertices.
    public static func locate(_ p: Point, inRing ring: UnsafeBufferPointer<SIMD2<Double>>) -> RingLocation {
        _locate(p, inRing: ring)
    }

    @inline(__always)
    static func _locate<V: _PlanarXY>(_ p: Point, inRing ring: UnsafeBufferPointer<V>) -> RingLocation {
        let n = ring.count
        guard n > 0 else { return .exterior }
        var crossings = 0
        var p1 = ring[n - 1]
        for p2 in ring {
            defer { p1 = p2 }
            if p1.x < p.x && p2.x < p.x { continue }
            if p.x == p2.x && p.y == p2.y { return .boundary }
            if p1.y == p.y && p2.y == p.y {
                if p.x >= min(p1.x, p2.x) && p.x <= max(p1.x, p2.x) { return .boundary }
                continue
            }
            if (p1.y > p.y && p2.y <= p.y) || (p2.y > p.y && p1.y <= p.y) {
                var o = orient2d(p1.x, p1.y, p2.x, p2.y, p.x, p.y)
                if o == 0 { return .boundary }
                if p2.y < p1.y { o = -o }
                if o > 0 { crossings += 1 }
            }
        }
        return crossings % 2 == 1 ? .interior : .exterior
    }
}

/// A nonoverlapping floating-point expansion with a fixed capacity (12 components suffice for
/// ``Kernel/orient2d(_:_:_:_:_:_:)``); stored inline so the exact path does not allocate.
@usableFromInline
struct _Expansion {
    @usableFromInline var c: (Double, Double, Double, Double, Double, Double, Double, Double,
                              Double, Double, Double, Double) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    @usableFromInline var count = 0

    @usableFromInline init() {}

    /// Adds `a·b` exactly (Two-Product via fused multiply-add).
    @usableFromInline mutating func addProduct(_ a: Double, _ b: Double) {
        let hi = a * b
        let lo = (-hi).addingProduct(a, b)
        add(lo)
        add(hi)
    }

    /// Grow-Expansion: adds one double exactly, dropping zero components.
    @usableFromInline mutating func add(_ b: Double) {
        let n = count
        var newCount = 0
        withUnsafeMutableBytes(of: &c) { raw in
            let comps = raw.bindMemory(to: Double.self)
            var q = b
            var out = 0
            for i in 0..<n {
                let e = comps[i]
                let s = q + e
                let bv = s - q
                let av = s - bv
                let err = (q - av) + (e - bv)
                q = s
                if err != 0 {
                    comps[out] = err
                    out += 1
                }
            }
            if q != 0 || out == 0 {
                comps[out] = q
                out += 1
            }
            newCount = out
        }
        count = newCount
    }

    /// The sign of the expansion's value: that of its most significant component.
    @usableFromInline var sign: Int {
        let n = count
        return withUnsafeBytes(of: c) { raw in
            let comps = raw.bindMemory(to: Double.self)
            var i = n - 1
            while i >= 0 {
                let v = comps[i]
                if v > 0 { return 1 }
                if v < 0 { return -1 }
                i -= 1
            }
            return 0
        }
    }
}
