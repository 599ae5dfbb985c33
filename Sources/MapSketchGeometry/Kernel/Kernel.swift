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
package enum Kernel {
    /// The orientation of three points.
    package enum Orientation: Int, Sendable {
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
    package static func orient2d(_ a: Point, _ b: Point, _ c: Point) -> Int {
        orient2d(a.x, a.y, b.x, b.y, c.x, c.y)
    }

    /// ``orient2d(_:_:_:)`` on raw coordinates.
    ///
    /// Exact for every finite input, the whole double range included: where a product of
    /// differences overflows or falls below the normal range (coordinates near ±1e308 or down to
    /// 5e-324), the filter's error bound no longer holds, and the sign comes from
    /// ``_orient2dWide(_:_:_:_:_:_:)`` instead.
    @inlinable
    package static func orient2d(
        _ ax: Double, _ ay: Double, _ bx: Double, _ by: Double, _ cx: Double, _ cy: Double
    ) -> Int {
        let detLeft = (ax - cx) * (by - cy)
        let detRight = (ay - cy) * (bx - cx)
        let det = detLeft - detRight
        let detSum: Double
        // A difference of doubles has the sign of the exact difference (it never rounds to zero),
        // so a product's sign is exact unless the product underflowed to zero; a product of at
        // least 2^-1000 dwarfs any product that underflowed.
        if detLeft > 0 {
            if detRight <= 0 {
                if detRight < 0 || detLeft >= 0x1p-1000 || ay == cy || bx == cx { return det > 0 ? 1 : (det < 0 ? -1 : 0) }
                return _orient2dWide(ax, ay, bx, by, cx, cy)
            }
            detSum = detLeft + detRight
        } else if detLeft < 0 {
            if detRight >= 0 {
                if detRight > 0 || detLeft <= -0x1p-1000 || ay == cy || bx == cx { return det > 0 ? 1 : (det < 0 ? -1 : 0) }
                return _orient2dWide(ax, ay, bx, by, cx, cy)
            }
            detSum = -detLeft - detRight
        } else {
            // detLeft is exactly zero when one of its factors is; otherwise it underflowed.
            if ax == cx || by == cy {
                if detRight != 0 || ay == cy || bx == cx { return detRight < 0 ? 1 : (detRight > 0 ? -1 : 0) }
            } else if detRight >= 0x1p-1000 || detRight <= -0x1p-1000 {
                return detRight < 0 ? 1 : -1
            }
            return _orient2dWide(ax, ay, bx, by, cx, cy)
        }
        // Shewchuk's ccwerrboundA = (3 + 16ε)ε with ε = 2^-53, valid while neither product
        // overflowed and both are far above the underflow threshold.
        guard detSum >= 0x1p-900, detSum <= 0x1p1020 else { return _orient2dWide(ax, ay, bx, by, cx, cy) }
        let errBound = 3.3306690738754716e-16 * detSum
        if det >= errBound { return 1 }
        if -det >= errBound { return -1 }
        return _orient2dExact(ax, ay, bx, by, cx, cy)
    }

    /// The orientation as an enum.
    @inlinable
    package static func orientation(_ a: Point, _ b: Point, _ c: Point) -> Orientation {
        switch orient2d(a, b, c) {
        case 1: .counterClockwise
        case -1: .clockwise
        default: .collinear
        }
    }

    /// The exact sign of the determinant, summed as a nonoverlapping expansion of twelve
    /// products (the c·c terms cancel algebraically). The products are exact while every
    /// coordinate is zero or within 2^-460…2^510 in magnitude; beyond that range the sign comes
    /// from ``_orient2dWide(_:_:_:_:_:_:)``.
    @usableFromInline
    static func _orient2dExact(
        _ ax: Double, _ ay: Double, _ bx: Double, _ by: Double, _ cx: Double, _ cy: Double
    ) -> Int {
        guard _fitsExpansion(ax), _fitsExpansion(ay), _fitsExpansion(bx), _fitsExpansion(by), _fitsExpansion(cx),
            _fitsExpansion(cy)
        else { return _orient2dWide(ax, ay, bx, by, cx, cy) }
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

    /// Whether products of `v` with another such value are exact in ``_Expansion``: zero, or a
    /// magnitude within 2^-460…2^510 (no product overflows, none loses bits below 2^-1074).
    @usableFromInline
    static func _fitsExpansion(_ v: Double) -> Bool {
        v == 0 || (v.magnitude >= 0x1p-460 && v.magnitude <= 0x1p510)
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
