import MapSketchGeometry
import MapSketchTestSupport
import Testing

@Suite struct KernelTests {
    @Test func orientationSigns() {
        #expect(Kernel.orient2d(Point(0, 0), Point(10, 0), Point(5, 5)) == 1)
        #expect(Kernel.orient2d(Point(0, 0), Point(10, 0), Point(5, -5)) == -1)
        #expect(Kernel.orient2d(Point(0, 0), Point(10, 0), Point(20, 0)) == 0)
    }

    /// Points on the line y = x offset by one ulp: naive double evaluation gets these wrong.
    @Test func orientationIsExactNearDegeneracy() {
        let a = Point(0.5, 0.5), b = Point(12, 12), c = Point(24, 24)
        #expect(Kernel.orient2d(a, b, c) == 0)
        let up = Point(0.5, 0.5.nextUp)
        #expect(Kernel.orient2d(b, c, up) == 1)
        let down = Point(0.5, 0.5.nextDown)
        #expect(Kernel.orient2d(b, c, down) == -1)
        // Shewchuk's classic grid test: the sign must be antisymmetric under swapping.
        var rng = SeededRandom(seed: 7)
        for _ in 0..<2000 {
            let p = Point(0.5 + Double(rng.int(in: 0...255)) * 0x1p-53, 0.5 + Double(rng.int(in: 0...255)) * 0x1p-53)
            #expect(Kernel.orient2d(b, c, p) == -Kernel.orient2d(c, b, p))
            let expected = p.y > p.x ? 1 : (p.y < p.x ? -1 : 0)
            #expect(Kernel.orient2d(b, c, p) == expected)
        }
    }

    @Test func segmentIntersectionClassification() {
        #expect(Kernel.intersect(Point(0, 0), Point(10, 10), Point(0, 10), Point(10, 0)) == .proper(Point(5, 5)))
        #expect(Kernel.intersect(Point(0, 0), Point(10, 0), Point(5, 0), Point(5, 5)) == .vertex(Point(5, 0)))
        #expect(Kernel.intersect(Point(0, 0), Point(10, 0), Point(10, 0), Point(20, 5)) == .vertex(Point(10, 0)))
        #expect(Kernel.intersect(Point(0, 0), Point(10, 0), Point(5, 0), Point(15, 0)) == .overlap(from: Point(5, 0), to: Point(10, 0)))
        #expect(Kernel.intersect(Point(0, 0), Point(10, 0), Point(10, 0), Point(15, 0)) == .vertex(Point(10, 0)))
        #expect(Kernel.intersect(Point(0, 0), Point(10, 0), Point(11, 0), Point(15, 0)) == .none)
        #expect(Kernel.intersect(Point(0, 0), Point(10, 0), Point(0, 1), Point(10, 1)) == .none)
    }

    @Test func pointOnSegmentAndRingLocation() {
        #expect(Kernel.isOnSegment(Point(5, 5), Point(0, 0), Point(10, 10)))
        #expect(!Kernel.isOnSegment(Point(11, 11), Point(0, 0), Point(10, 10)))
        let square = [Point(0, 0), Point(0, 10), Point(10, 10), Point(10, 0)]
        #expect(Kernel.locate(Point(5, 5), inRing: square) == .interior)
        #expect(Kernel.locate(Point(10, 5), inRing: square) == .boundary)
        #expect(Kernel.locate(Point(0, 0), inRing: square) == .boundary)
        #expect(Kernel.locate(Point(15, 5), inRing: square) == .exterior)
        #expect(Kernel.signedDoubleArea(square) == -200)
    }
}
