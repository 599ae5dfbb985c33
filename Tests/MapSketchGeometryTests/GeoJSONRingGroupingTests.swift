import Foundation
@testable import MapSketchGeometry
import MapSketchTestSupport
import Testing

@Suite("GeoJSON ring grouping internals")
struct GeoJSONRingGroupingTests {
    /// A star-shaped ring with `n` vertices around (cx, cy), clockwise when `clockwise`.
    static func star(_ rng: inout SeededRandom, n: Int, cx: Double, cy: Double, r: Double, clockwise: Bool) -> [Point] {
        var pts = (0..<n).map { k -> Point in
            let a = Double(k) / Double(n) * 2 * Double.pi
            let rr = r * rng.double(in: 0.5...1)
            // Snap some vertices to a coarse grid so horizontal edges and shared y values occur.
            let x = (cx + rr * cos(a) * 4).rounded() / 4
            let y = (cy + rr * sin(a) * 4).rounded() / 4
            return Point(x, y)
        }
        if clockwise { pts.reverse() }
        return pts
    }

    @Test func manyExteriorsEachWithAHole() {
        // 50 × 50 islands, each with a lake; rings shuffled. Each lake must join its own island.
        var rng = SeededRandom(seed: 5)
        var rings: [[Point]] = []
        for i in 0..<50 {
            for j in 0..<50 {
                let x = Double(i) * 10, y = Double(j) * 10
                rings.append([Point(x, y), Point(x, y + 8), Point(x + 8, y + 8), Point(x + 8, y)])  // clockwise
                rings.append([Point(x + 2, y + 2), Point(x + 6, y + 2), Point(x + 6, y + 6), Point(x + 2, y + 6)])  // ccw
            }
        }
        rings.shuffle(using: &rng)
        let groups = GeoJSON.groupRings(rings)
        #expect(groups.count == 2500)
        for g in groups {
            #expect(g.count == 2)
            let e = rings[g[0]], h = rings[g[1]]
            #expect(h[0].x == e[0].x + 2 && h[0].y == e[0].y + 2)
        }
    }

    @Test func bigExteriorWithManyHoles() {
        // A 4000-vertex exterior (indexed after its first test) holding 400 holes, plus holes outside.
        var rng = SeededRandom(seed: 6)
        let outer = Self.star(&rng, n: 4000, cx: 0, cy: 0, r: 1000, clockwise: true)
        var rings = [outer]
        var inside = 0
        for _ in 0..<500 {
            let cx = rng.double(in: -1100...1100), cy = rng.double(in: -1100...1100)
            let hole = [Point(cx, cy), Point(cx + 1, cy), Point(cx + 1, cy + 1), Point(cx, cy + 1)]  // ccw
            if hole.allSatisfy({ Kernel.locate($0, inRing: outer) == .interior }) {
                inside += 1
            } else if hole.contains(where: { Kernel.locate($0, inRing: outer) != .exterior }) {
                continue  // crossing the boundary: skip, covered elsewhere
            }
            rings.append(hole)
        }
        let groups = GeoJSON.groupRings(rings)
        #expect(groups[0].count == 1 + inside)
        #expect(groups.count == 1 + (rings.count - 1 - inside))
        #expect(inside > 100)
    }
}
