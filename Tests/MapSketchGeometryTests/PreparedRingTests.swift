@testable import MapSketchGeometry
import MapSketchTestSupport
import Testing

/// The kernel's point-in-ring rule, run three ways: on `[Point]`, on packed x, y pairs, and
/// through the prepared (banded) ring.
@Suite struct PreparedRingTests {
    @Test func preparedRingLocatesAsTheKernel() {
        var rng = SeededRandom(seed: 2024)
        for _ in 0..<20 {
            let ring = GeoJSONRingGroupingTests.star(
                &rng, n: rng.int(in: 3...400), cx: 0, cy: 0, r: 100, clockwise: rng.int(in: 0...1) == 0)
            let prepared = Kernel.PreparedRing(ring)
            var queries = ring  // every vertex (boundary)
            for k in ring.indices {  // edge midpoints (boundary or near it)
                let a = ring[k], b = ring[(k + 1) % ring.count]
                queries.append(Point((a.x + b.x) / 2, (a.y + b.y) / 2))
            }
            for _ in 0..<500 {
                queries.append(Point((rng.double(in: -120...120) * 4).rounded() / 4, rng.double(in: -120...120)))
            }
            let packed = ring.map { SIMD2($0.x, $0.y) }
            for q in queries {
                #expect(prepared.locate(q) == Kernel.locate(q, inRing: ring), "\(q)")
                #expect(packed.withUnsafeBufferPointer { Kernel.locate(q, inRing: $0) } == Kernel.locate(q, inRing: ring))
            }
        }
    }

    @Test func degenerateRings() {
        #expect(Kernel.PreparedRing([]).locate(Point(0, 0)) == .exterior)
        let flat = [Point(0, 0), Point(10, 0), Point(5, 0)]
        let prepared = Kernel.PreparedRing(flat)
        for q in [Point(0, 0), Point(7, 0), Point(11, 0), Point(5, 1), Point(.nan, 0), Point(0, .nan)] {
            #expect(prepared.locate(q) == Kernel.locate(q, inRing: flat), "\(q)")
        }
    }

    @Test func edgeBandsListEveryEdgeSpanningAY() {
        var bands = EdgeBands(ymin: 0, ymax: 100, count: 10)
        bands.add(0, y0: 5, y1: 5)
        bands.add(1, y0: 95, y1: 3)
        bands.add(2, y0: 40, y1: 60)
        #expect(bands.edges(at: 5).contains(0) && bands.edges(at: 5).contains(1))
        #expect(bands.edges(at: 50) == [1, 2])
        #expect(bands.edges(at: -1e300) == bands.edges(at: 0))
        #expect(bands.edges(at: 1e300) == bands.edges(at: 100))
        #expect(bands.edges(at: .nan) == bands.edges(at: 0))
        #expect(EdgeBands(ymin: 3, ymax: 3, count: 0).bands.count == 1)
    }
}
