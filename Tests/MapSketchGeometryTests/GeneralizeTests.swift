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
        func reference(_ i: Int, _ j: Int, into out: inout [Int]) {
            guard j > i + 1 else { return }
            var best = tolerance * tolerance, k = -1
            for m in (i + 1)..<j where referenceDistance2(walk[m], walk[i], walk[j]) > best {
                best = referenceDistance2(walk[m], walk[i], walk[j])
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

    /// Sizes at the edges of the search's structure: a chunk of 4 vertices, a leaf box of 32,
    /// a parent of 256 (also where splits stop being searched straight through) and of 2,048.
    static let edgeSizes = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 31, 32, 33, 34, 35, 36, 63, 64, 65, 255, 256, 257, 258, 259, 2047, 2048, 2049]

    /// The search passes over boxes and vertices it can prove nearer than the best so far, visits
    /// boxes out of order and measures four vertices at a time; none of that may change what is
    /// kept. Against the plain scan of every vertex, bit for bit, on strokes of every shape, at
    /// the edge sizes and random ones up to 5,000, tolerances from 0 to well above the wiggles.
    @Test(arguments: StrokeShape.allCases)
    func keepsExactlyWhatThePlainScanKeeps(shape: StrokeShape) {
        var rng = SeededRandom(seed: 0x6E4E_0000 + UInt64(StrokeShape.allCases.firstIndex(of: shape)!))
        // The plain scan is quadratic: under a sanitizer (10× slower) the random sizes stay below
        // 2,000 and the largest goes; the edge sizes, where the pyramid's levels begin, all run.
        let sizes =
            SanitizerRuntime.active == nil
            ? Self.edgeSizes + (0..<3).map { _ in rng.int(in: 10...5000) } + [5000] : Self.edgeSizes + [rng.int(in: 10...2000)]
        for n in sizes {
            let (points, scale) = shape.stroke(n, &rng)
            for tolerance in [0, scale * rng.double(in: 0.05...1), scale * rng.double(in: 1...4), scale * 30] {
                let expected = referenceGeneralize(points, maxDeviation: tolerance).map { points[$0] }
                let kept = GeometryEngine.generalize(points, maxDeviation: tolerance)
                let same = sameBits(kept, expected)
                #expect(same, "\(shape), \(n) vertices, tolerance \(tolerance): kept \(kept.count), expected \(expected.count)")
            }
        }
    }

    /// Coordinates that are not finite cannot be bounded: such a path is scanned plainly, and
    /// keeps what it kept before (a NaN distance never wins).
    @Test func nonFiniteCoordinatesKeepWhatThePlainScanKeeps() {
        var rng = SeededRandom(seed: 99)
        for bad in [Double.nan, .infinity, -.infinity] {
            for n in [5, 40, 300, 3000] {
                var (points, _) = StrokeShape.randomWalk.stroke(n, &rng)
                points[rng.int(in: 1...(n - 2))].x = bad
                if n > 100 { points[rng.int(in: 1...(n - 2))].y = bad }
                let expected = referenceGeneralize(points, maxDeviation: 1).map { points[$0] }
                let same = sameBits(GeometryEngine.generalize(points, maxDeviation: 1), expected)
                #expect(same, "\(bad), \(n) vertices")
            }
        }
    }
}
