@testable import MapSketchGeometry
import MapSketchTestSupport
import Testing

/// The orientation predicate and the ring and segment helpers over the whole double range:
/// coordinates near ±1e308 (where differences overflow) and down to 5e-324 (where products
/// underflow).
@Suite struct KernelWideRangeTests {
    /// The two triangles of the hardening report: a side of 5e-324, and a square spanning ±1e308.
    @Test func extremeTrianglesHaveTheirOrientation() {
        let t = Double.leastNonzeroMagnitude
        #expect(Kernel.orient2d(Point(0, 0), Point(t, 0), Point(0, t)) == 1)
        #expect(Kernel.orient2d(Point(0, 0), Point(0, t), Point(t, 0)) == -1)
        #expect(Kernel.orient2d(Point(0, 0), Point(t, t), Point(2 * t, 2 * t)) == 0)
        let h = 1e308
        #expect(Kernel.orient2d(Point(-h, -h), Point(h, -h), Point(h, h)) == 1)
        #expect(Kernel.orient2d(Point(-h, -h), Point(h, h), Point(h, -h)) == -1)
        #expect(Kernel.orient2d(Point(-h, -h), Point(0, 0), Point(h, h)) == 0)
        let g = Double.greatestFiniteMagnitude
        #expect(Kernel.orient2d(Point(-g, -g), Point(g, -g), Point(g, g)) == 1)
    }

    /// Large terms that cancel exactly, leaving the sign to a subnormal one: (a − c) × (b − c) =
    /// 2·t·X for a = (X, X), b = (−X, −X), c = (t, 0), whatever the magnitude of X.
    @Test func aSubnormalTermDecidesWhenHugeTermsCancel() {
        for x in [1.0, 1e-300, 1e300, 1e308, 0x1p-1000, 3.0] {
            for t in [Double.leastNonzeroMagnitude, -Double.leastNonzeroMagnitude, 0x1p-1063, 0x1p-1022] {
                let expected = t > 0 ? 1 : -1
                #expect(Kernel.orient2d(Point(x, x), Point(-x, -x), Point(t, 0)) == expected, "X \(x), t \(t)")
            }
            #expect(Kernel.orient2d(Point(x, x), Point(-x, -x), Point(0, 0)) == 0)
        }
    }

    /// Scaling three points by a power of two keeps their orientation; on small integer
    /// coordinates the scaling is exact anywhere from 2^-1074 to 2^1003, so the sign computed in
    /// the ordinary range must come out again at every scale.
    @Test func orientationIsInvariantUnderExactScaling() {
        var rng = SeededRandom(seed: 0x5CA1E)
        var collinear = 0
        for i in 0..<3000 {
            // Near-degenerate triples on a small grid: many collinear ones.
            let c = (0..<6).map { _ in Double(rng.int(in: -(1 << 10)...(1 << 10))) }
            var pts = [Point(c[0], c[1]), Point(c[2], c[3]), Point(c[4], c[5])]
            if i % 3 == 0 {
                // Make the third point collinear with the first two, exactly.
                let k = Double(rng.int(in: -4...4))
                pts[2] = Point(pts[0].x + k * (pts[1].x - pts[0].x), pts[0].y + k * (pts[1].y - pts[0].y))
            }
            let expected = Kernel.orient2d(pts[0], pts[1], pts[2])
            if expected == 0 { collinear += 1 }
            for e in [-1074, -1060, -1000, -600, -300, 0, 300, 600, 990, 1003] {
                let s = pts.map { Point(Kernel.scaled($0.x, by: e), Kernel.scaled($0.y, by: e)) }
                #expect(Kernel.orient2d(s[0], s[1], s[2]) == expected, "case \(i) at 2^\(e)")
                #expect(Kernel.orient2d(s[1], s[0], s[2]) == -expected)
            }
        }
        #expect(collinear >= 1000)
    }

    /// The wide integer path agrees with the floating-point expansion wherever both are exact.
    @Test func widePathAgreesWithTheExpansion() {
        var rng = SeededRandom(seed: 42)
        for _ in 0..<5000 {
            let base = rng.double(in: -1e6...1e6)
            let ax = base + rng.double(in: -1...1), ay = base + rng.double(in: -1...1)
            let bx = ax + rng.double(in: -1e3...1e3)
            let by = ay + (bx - ax) * 0.75
            let cx = ax + 2 * (bx - ax), cy = ay + 2 * (by - ay) + (rng.int(in: 0...1) == 0 ? 0 : 1e-9)
            #expect(Kernel._orient2dWide(ax, ay, bx, by, cx, cy) == Kernel._orient2dExact(ax, ay, bx, by, cx, cy))
        }
    }

    @Test func areasNeverBecomeNaN() {
        let h = 1e308
        let square = [Point(-h, -h), Point(-h, h), Point(h, h), Point(h, -h)]  // clockwise
        #expect(Kernel.signedDoubleArea(square) == -.infinity)
        #expect(Kernel.areaSign(square) == -1)
        #expect(Kernel.areaSign(Array(square.reversed())) == 1)
        let t = Double.leastNonzeroMagnitude
        let tiny = [Point(0, 0), Point(0, t), Point(t, 0)]  // clockwise
        #expect(Kernel.areaSign(tiny) == -1)
        #expect(Kernel.areaSign(Array(tiny.reversed())) == 1)
        #expect(Kernel.areaSign([Point(0, 0), Point(t, t), Point(2 * t, 2 * t)]) == 0)
    }

    @Test func intersectionPointsOfExtremeSegmentsAreFinite() {
        let h = 1e308
        let p = Kernel.intersectionPoint(Point(-h, -h), Point(h, h), Point(-h, h), Point(h, -h))
        #expect(p == Point(0, 0))
        let q = Kernel.intersectionPoint(Point(h, 0), Point(h, h), Point(h / 2, h / 2), Point(Double.greatestFiniteMagnitude, h / 2))
        #expect(q.x.isFinite && q.y.isFinite)
        #expect(q == Point(h, h / 2))
        let t = 0x1p-1070
        let r = Kernel.intersectionPoint(Point(0, 0), Point(4 * t, 4 * t), Point(0, 4 * t), Point(4 * t, 0))
        #expect(r == Point(2 * t, 2 * t))
    }
}
