// Ring predicates: signed area and point-in-ring location. One ray-crossing rule serves the plain
// test (every edge), the prepared ring (the edges of one band) and both vertex layouts.

extension Kernel {
    /// Twice the signed area of an open ring (shoelace): negative for clockwise rings (y up).
    ///
    /// Computed relative to the first vertex to limit cancellation. Never NaN for finite
    /// vertices: a ring whose coordinate differences overflow (near ±1e308) is measured scaled
    /// down by a power of two, and its area is ±infinity when it exceeds the double range.
    ///
    /// - Complexity: O(n) for n vertices.
    package static func signedDoubleArea(_ ring: [Point]) -> Double {
        guard ring.count >= 3 else { return 0 }
        let s = shoelace(ring, scale: 0)
        if s.isFinite { return s }
        let k = scaleExponent(ring)
        return scaled(shoelace(ring, scale: k), by: -2 * k)
    }

    /// The sign of a ring's signed area (−1 clockwise, +1 counter-clockwise, 0 no area), right
    /// over the whole double range: a ring whose area overflows or underflows is measured
    /// scaled by a power of two.
    ///
    /// - Complexity: O(n) for n vertices.
    package static func areaSign(_ ring: [Point]) -> Int {
        guard ring.count >= 3 else { return 0 }
        return areaSign(ring, signedDoubleArea: shoelace(ring, scale: 0))
    }

    /// ``areaSign(_:)`` given the ring's ``signedDoubleArea(_:)``, which decides it unless it is
    /// zero, tiny or infinite.
    package static func areaSign(_ ring: [Point], signedDoubleArea a: Double) -> Int {
        guard ring.count >= 3 else { return 0 }
        var s = a
        if !(s.isFinite && s.magnitude >= 0x1p-900) {
            s = shoelace(ring, scale: scaleExponent(ring))
        }
        return s > 0 ? 1 : (s < 0 ? -1 : 0)
    }

    /// The shoelace sum of the ring with every coordinate multiplied by 2^`scale` (exactly,
    /// unless that underflows).
    private static func shoelace(_ ring: [Point], scale k: Int) -> Double {
        let ox = scaled(ring[0].x, by: k), oy = scaled(ring[0].y, by: k)
        var s = 0.0
        var px = scaled(ring[ring.count - 1].x, by: k) - ox, py = scaled(ring[ring.count - 1].y, by: k) - oy
        for p in ring {
            let x = scaled(p.x, by: k) - ox, y = scaled(p.y, by: k) - oy
            s += px * y - x * py
            px = x
            py = y
        }
        return s
    }

    /// The power of two that brings the largest finite coordinate magnitude of `points` into
    /// 1…2 (0 when every coordinate is zero or non-finite).
    package static func scaleExponent(_ points: [Point]) -> Int {
        var m = 0.0
        for p in points {
            if p.x.isFinite { m = Swift.max(m, p.x.magnitude) }
            if p.y.isFinite { m = Swift.max(m, p.y.magnitude) }
        }
        return m > 0 ? -Int(m.exponent) : 0
    }

    /// `v` · 2^`k`, exact unless the result leaves the normal range; `k` may exceed what one
    /// power of two can hold (2^1074 scales a subnormal up).
    @inline(__always)
    package static func scaled(_ v: Double, by k: Int) -> Double {
        guard k != 0, v != 0, v.isFinite else { return v }
        return Double(sign: v.sign, exponent: v.exponent + k, significand: v.significand)
    }

    /// Whether an open ring runs the other way from the one wanted: counter-clockwise (positive
    /// signed area, y up) when `clockwise`, clockwise when not. A zero-area ring (fewer than three
    /// vertices, or collinear) never does.
    ///
    /// - Complexity: O(n) for n vertices.
    static func isReversed(_ ring: [Point], clockwise: Bool) -> Bool {
        let a = areaSign(ring)
        return clockwise ? a > 0 : a < 0
    }

    /// An open ring oriented clockwise (`clockwise`) or counter-clockwise (y up): reversed,
    /// keeping its first vertex first (``Polygon/reversedKeepingStart(_:)``), when it runs the
    /// other way; a zero-area ring is returned as it is.
    ///
    /// - Complexity: O(n) for n vertices.
    package static func oriented(_ ring: [Point], clockwise: Bool) -> [Point] {
        isReversed(ring, clockwise: clockwise) ? Polygon.reversedKeepingStart(ring) : ring
    }

    /// Where a point lies relative to a ring.
    package enum RingLocation: Hashable, Sendable { case interior, boundary, exterior }

    /// Locates `p` relative to an open ring with an exact ray-crossing count (the JTS
    /// `RayCrossingCounter` rule: upward edges include their start, downward edges their end).
    ///
    /// - Complexity: O(n) for n vertices. For many queries against one large ring,
    ///   ``PreparedRing`` gives the same answers in about O(√n) each.
    package static func locate(_ p: Point, inRing ring: [Point]) -> RingLocation {
        ring.withUnsafeBufferPointer { location(of: p, inRing: $0) }
    }

    /// ``locate(_:inRing:)`` on a ring of packed x, y coordinates.
    ///
    /// - Complexity: O(n) for n vertices.
    package static func locate(_ p: Point, inRing ring: UnsafeBufferPointer<SIMD2<Double>>) -> RingLocation {
        location(of: p, inRing: ring)
    }

    /// ``locate(_:inRing:)`` for any vertex layout: the crossings of every edge, the closing edge
    /// (last vertex to first) first.
    @inline(__always)
    static func location<V: PlanarXY>(of p: Point, inRing ring: UnsafeBufferPointer<V>) -> RingLocation {
        let n = ring.count
        guard n > 0 else { return .exterior }
        var crossings = 0
        var p1 = ring[n - 1]
        for p2 in ring {
            switch rayCrossing(p, p1, p2) {
            case .boundary: return .boundary
            case .crossing: crossings += 1
            case .none: break
            }
            p1 = p2
        }
        return crossings % 2 == 1 ? .interior : .exterior
    }

    /// What one ring edge contributes to the location of a point.
    enum RayCrossing {
        /// The edge does not cross the ray from the point towards +x.
        case none
        /// The edge crosses the ray (counted once per edge).
        case crossing
        /// The point lies on the edge: the point is on the ring's boundary, whatever the other
        /// edges say.
        case boundary
    }

    /// How edge p1→p2 meets the ray from `p` towards +x, exactly (JTS
    /// `RayCrossingCounter.countSegment`): an upward edge includes its start and excludes its end,
    /// a downward edge the reverse, so a ray through a vertex counts once; horizontal edges only
    /// detect the boundary. An edge whose y-range does not hold `p.y` gives ``RayCrossing/none``
    /// unless `p` is its end vertex `p2`.
    @inline(__always)
    static func rayCrossing<V: PlanarXY>(_ p: Point, _ p1: V, _ p2: V) -> RayCrossing {
        if p1.x < p.x && p2.x < p.x { return .none }
        if p.x == p2.x && p.y == p2.y { return .boundary }
        if p1.y == p.y && p2.y == p.y {
            return p.x >= min(p1.x, p2.x) && p.x <= max(p1.x, p2.x) ? .boundary : .none
        }
        if (p1.y > p.y && p2.y <= p.y) || (p2.y > p.y && p1.y <= p.y) {
            var o = orient2d(p1.x, p1.y, p2.x, p2.y, p.x, p.y)
            if o == 0 { return .boundary }
            if p2.y < p1.y { o = -o }
            return o > 0 ? .crossing : .none
        }
        return .none
    }
}
