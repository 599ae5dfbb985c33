@testable import MapSketchGeometry
import MapSketchTestSupport
import Testing

/// `GeometryEngine.isWithin` stops at the first segment close enough; it must give exactly the
/// answer of comparing `GeometryEngine.distance` with the limit, including at the limit itself.
@Suite struct IsWithinTests {
    static func randomParts(_ r: inout SeededRandom, minCount: Int) -> [[Point]] {
        (0..<r.int(in: 1...3)).map { _ in
            let c = r.point(in: Envelope(xmin: 0, ymin: 0, xmax: 100, ymax: 100))
            return (0..<r.int(in: minCount...7)).map { _ in Point(c.x + r.double(in: -30...30), c.y + r.double(in: -30...30)) }
        }
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func agreesWithTheDistance(seed: UInt64) {
        var r = SeededRandom(seed: seed)
        var mismatches: [String] = []
        var inside = 0, within = 0
        for round in 0..<3000 {
            let g: Geometry =
                switch round % 3 {
                case 0: .polyline(Polyline(paths: Self.randomParts(&r, minCount: 1)))
                case 1: .polygon(Polygon(rings: Self.randomParts(&r, minCount: 1)))
                default: .envelope(Envelope(xmin: 10, ymin: 20, xmax: r.double(in: 10...90), ymax: 80))
                }
            let p = r.point(in: Envelope(xmin: -20, ymin: -20, xmax: 120, ymax: 120))
            let d = GeometryEngine.distance(from: p, to: g)
            // Limits around the distance, and the distance itself (the boundary case).
            for limit in [0, d, d.nextDown, d.nextUp, d * 0.5, d * 2, r.double(in: 0...20)] {
                let got = GeometryEngine.isWithin(limit, of: p, g)
                if got != (d <= limit), mismatches.count < 3 { mismatches.append("\(g) \(p) limit \(limit): \(got), distance \(d)") }
                if got { within += 1 }
            }
            if d == 0 { inside += 1 }
        }
        #expect(mismatches.isEmpty, "\(mismatches)")
        #expect(inside > 100 && within > 3000, "cases inside \(inside), within \(within)")
    }

    /// The segment test's shortcuts change no bit: its squared distance is `closest`'s and its
    /// answer the square root's comparison, for random segments, zero-length ones, points on the
    /// segment's ends and beyond, huge and tiny coordinates, infinities and NaN, and limits at,
    /// just around, far from and exactly at the distance (where only the root can tell).
    @Test func theSegmentShortcutsGiveTheSameBits() {
        var r = SeededRandom(seed: 44)
        let specials: [Double] = [0, -0.0, 1, -1, 1e-160, 1e160, 1e300, .infinity, -.infinity, .nan, .leastNonzeroMagnitude, 0x1p-460]
        var mismatches: [String] = []
        var byRoot = 0
        for round in 0..<20_000 {
            func coordinate() -> Double {
                switch round % 5 {
                case 0: return specials[r.int(in: 0...(specials.count - 1))]
                case 1: return r.double(in: -1...1) * 1e12
                default: return r.double(in: -50...50)
                }
            }
            let ax = coordinate(), ay = coordinate()
            let (bx, by) = round % 7 == 0 ? (ax, ay) : (coordinate(), coordinate())
            var px = coordinate(), py = coordinate()
            if round % 11 == 0 { (px, py) = (bx + (bx - ax), by + (by - ay)) }
            let reference = GeometryEngine.closest(px, py, ax, ay, bx, by).d2
            let fast = GeometryEngine.squaredDistance(px, py, ax, ay, bx, by)
            if reference.bitPattern != fast.bitPattern && !(reference.isNaN && fast.isNaN), mismatches.count < 3 {
                mismatches.append("segment (\(ax), \(ay))-(\(bx), \(by)) point (\(px), \(py)): \(fast), want \(reference)")
            }
            let root = reference.squareRoot()
            for limit in [root, root.nextUp, root.nextDown, root * (1 + 0x1p-31), root * (1 - 0x1p-31), root * 2, root / 2, 0, coordinate()] {
                let bound = GeometryEngine.SquaredLimit(limit)
                let got = bound.holds(reference)
                if got != (root <= limit), mismatches.count < 3 { mismatches.append("d2 \(reference) limit \(limit): \(got)") }
                if !(reference <= bound.inside) && !(reference > bound.outside) { byRoot += 1 }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches)")
        #expect(byRoot > 20_000, "limits close enough to need the root: \(byRoot)")
    }
}
