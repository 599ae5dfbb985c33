import MapSketchGeometry
import MapSketchTestSupport
import Testing

@Suite struct GeneralizeTests {
    @Test func keepsTheFarthestVertexWhileItIsBeyondTheTolerance() {
        // The documented example, worked by hand: (2, −0.1) is 1.72 from the chord (0,0)–(4,6);
        // then (1, 0.1) is 0.15 from (0,0)–(2,−0.1) (dropped) and (3, 5) 0.64 from (2,−0.1)–(4,6) (kept).
        let stroke = [Point(0, 0), Point(1, 0.1), Point(2, -0.1), Point(3, 5), Point(4, 6)]
        #expect(GeometryEngine.generalize(stroke, maxDeviation: 0.5) == [Point(0, 0), Point(2, -0.1), Point(3, 5), Point(4, 6)])
        #expect(GeometryEngine.generalize(stroke, maxDeviation: 0.7) == [Point(0, 0), Point(2, -0.1), Point(4, 6)])
        #expect(GeometryEngine.generalize(stroke, maxDeviation: 2) == [Point(0, 0), Point(4, 6)])
    }

    @Test func zeroToleranceDropsOnlyVerticesOnTheSegment() {
        let line = [Point(0, 0), Point(1, 1), Point(2, 2), Point(3, 2), Point(4, 2)]
        #expect(GeometryEngine.generalize(line, maxDeviation: 0) == [Point(0, 0), Point(2, 2), Point(4, 2)])
        #expect(GeometryEngine.generalize(line, maxDeviation: -1) == GeometryEngine.generalize(line, maxDeviation: 0))
        #expect(GeometryEngine.generalize(line, maxDeviation: .nan) == GeometryEngine.generalize(line, maxDeviation: 0))
        #expect(GeometryEngine.generalize([Point(0, 0), Point(1, 1)], maxDeviation: 5) == [Point(0, 0), Point(1, 1)])
        #expect(GeometryEngine.generalize([], maxDeviation: 5) == [])
    }

    @Test func aClosedLoopKeepsItsFarSide() {
        // First and last vertex coincide: distances are to that point, so the loop survives.
        let loop = [Point(0, 0), Point(5, 0.05), Point(10, 0), Point(10, 10), Point(0, 10), Point(0, 0.01), Point(0, 0)]
        let out = GeometryEngine.generalize(loop, maxDeviation: 0.5)
        #expect(out == [Point(0, 0), Point(10, 0), Point(10, 10), Point(0, 10), Point(0, 0)])
    }

    @Test func keepsZAndMAndOrder() {
        let pts = [Point(x: 0, y: 0, z: 1, m: 2), Point(x: 5, y: 9, z: 3, m: 4), Point(x: 10, y: 0, z: 5, m: 6)]
        #expect(GeometryEngine.generalize(pts, maxDeviation: 1) == pts)
    }

    /// Against a recursive reference on random walks: every kept vertex is the same.
    @Test(arguments: [UInt64(1), 2, 3, 4])
    func matchesTheRecursiveDefinition(seed: UInt64) {
        var rng = SeededRandom(seed: seed)
        var p = Point(0, 0)
        let walk = (0..<2000).map { _ -> Point in
            p = Point(p.x + rng.double(in: -1...1), p.y + rng.double(in: -1...1))
            return p
        }
        let tolerance = rng.double(in: 0.1...3)
        func dist2(_ q: Point, _ a: Point, _ b: Point) -> Double {
            let vx = b.x - a.x, vy = b.y - a.y
            let l2 = vx * vx + vy * vy
            let t = l2 > 0 ? min(1, max(0, ((q.x - a.x) * vx + (q.y - a.y) * vy) / l2)) : 0
            let cx = t == 0 ? a.x : (t == 1 ? b.x : a.x + t * vx), cy = t == 0 ? a.y : (t == 1 ? b.y : a.y + t * vy)
            return (q.x - cx) * (q.x - cx) + (q.y - cy) * (q.y - cy)
        }
        func reference(_ i: Int, _ j: Int, into out: inout [Int]) {
            guard j > i + 1 else { return }
            var best = tolerance * tolerance, k = -1
            for m in (i + 1)..<j where dist2(walk[m], walk[i], walk[j]) > best {
                best = dist2(walk[m], walk[i], walk[j])
                k = m
            }
            guard k >= 0 else { return }
            reference(i, k, into: &out)
            out.append(k)
            reference(k, j, into: &out)
        }
        var kept = [0]
        reference(0, walk.count - 1, into: &kept)
        kept.append(walk.count - 1)
        #expect(GeometryEngine.generalize(walk, maxDeviation: tolerance) == kept.map { walk[$0] })
    }
}
