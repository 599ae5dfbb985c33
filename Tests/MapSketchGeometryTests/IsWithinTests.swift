import MapSketchGeometry
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
}
