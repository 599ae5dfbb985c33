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
}
