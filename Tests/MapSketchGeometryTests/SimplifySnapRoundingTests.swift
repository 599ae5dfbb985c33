@testable import MapSketchGeometry
import MapSketchTestSupport
import Testing

/// The snap-rounding fallback of the noder, exercised directly.
@Suite struct SimplifySnapRoundingTests {
    @Test func snapRoundingFullyNodesRandomSegments() {
        var rng = SeededRandom(seed: 5)
        var nodedAtFinestGrid = 0
        for _ in 0..<50 {
            let segs = (0..<30).map { _ in
                Noder.Seg(a: Point(rng.double(in: 0...1), rng.double(in: 0...1)), b: Point(rng.double(in: 0...1), rng.double(in: 0...1)))
            }
            #expect(!Noder.isFullyNoded(segs))
            let snapped = Noder.snapRound(segs, cell: 0x1p-36)
            if Noder.isFullyNoded(snapped) { nodedAtFinestGrid += 1 }
            // Every snapped vertex is on the grid and within a pixel of the input's segments.
            #expect(snapped.allSatisfy { ($0.a.x / 0x1p-36).rounded() == $0.a.x / 0x1p-36 && ($0.b.y / 0x1p-36).rounded() == $0.b.y / 0x1p-36 })
            #expect(Noder.isFullyNoded(Noder.node(segs)))
        }
        #expect(nodedAtFinestGrid == 50)
    }

    /// The fallback of polygon repair starts at twice the resolution (2^-47 of the largest
    /// coordinate, rounded up to a power of two): on that grid snap rounding moves a vertex by
    /// at most 2^-47 of the coordinates, and still fully nodes random segments.
    @Test func snapRoundingAtTheResolutionFullyNodes() {
        var rng = SeededRandom(seed: 6)
        var noded = 0
        for _ in 0..<50 {
            let segs = (0..<30).map { _ in
                Noder.Seg(a: Point(rng.double(in: 0.5...1), rng.double(in: 0.5...1)), b: Point(rng.double(in: 0.5...1), rng.double(in: 0.5...1)))
            }
            let snapped = Noder.snapRound(segs, cell: 0x1p-47)
            if Noder.isFullyNoded(snapped) { noded += 1 }
            #expect(snapped.allSatisfy { ($0.a.x / 0x1p-47).rounded() == $0.a.x / 0x1p-47 && ($0.b.y / 0x1p-47).rounded() == $0.b.y / 0x1p-47 })
        }
        #expect(noded == 50)
    }

    /// The fallback itself, at the resolution polygon repair uses: fully noded, on the grid of
    /// 2^-47 of the coordinates (rounded up to a power of two), no vertex further than a pixel's
    /// diagonal from the input's segments (an end rounded by half of it, a crossing of rounded
    /// segments by half of it again).
    @Test func theFallbackSnapsToTheFinestGrid() {
        var rng = SeededRandom(seed: 7)
        for _ in 0..<20 {
            let segs = (0..<30).map { _ in
                Noder.Seg(a: Point(rng.double(in: 64...128), rng.double(in: 64...128)), b: Point(rng.double(in: 64...128), rng.double(in: 64...128)))
            }
            let resolution = Noder.resolution(of: segs)
            let cell = 128 * 0x1p-47
            let out = Noder.snapRounded(segs, tolerance: resolution)
            #expect(!out.isEmpty && Noder.isFullyNoded(out))
            for s in out {
                for p in [s.a, s.b] {
                    #expect((p.x / cell).rounded() == p.x / cell && (p.y / cell).rounded() == p.y / cell)
                    let near = segs.map { GeometryEngine.closest(p, $0.a, $0.b).1.squareRoot() }.min() ?? .infinity
                    #expect(near <= cell * 1.4143, "\(p) is \(near) from the input")
                }
            }
        }
    }
}
