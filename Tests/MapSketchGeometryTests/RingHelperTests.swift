@testable import MapSketchGeometry
import Testing

/// The one home of the ring rules: opening, closing, reversing and orienting.
@Suite struct RingHelperTests {
    let a = Point(0, 0), b = Point(0, 10), c = Point(10, 10), d = Point(10, 0)

    @Test func openDropsExactlyOneClosingVertex() {
        #expect(Polygon.open([a, b, c, a]) == [a, b, c])
        #expect(Polygon.open([a, b, c, a, a]) == [a, b, c, a])
        #expect(Polygon.open([a, b, c]) == [a, b, c])
        #expect(Polygon.open([a]) == [a])
        #expect(Polygon.open([]) == [])
        // 2D comparison: z and m do not matter.
        #expect(Polygon.open([Point(x: 0, y: 0, z: 1), b, c, Point(x: 0, y: 0, z: 2)]).count == 3)
    }

    @Test func closedIsIdempotentAndClosingVertexIsAlwaysAppended() {
        #expect(Polygon.closed([a, b, c]) == [a, b, c, a])
        #expect(Polygon.closed([a, b, c, a]) == [a, b, c, a])
        #expect(Polygon.closed([a]) == [a, a])
        #expect(Polygon.closed([]) == [])
        #expect(Polygon.withClosingVertex([a, b, c]) == [a, b, c, a])
        #expect(Polygon.withClosingVertex([a, b, c, a]) == [a, b, c, a, a])
        #expect(Polygon.withClosingVertex([]) == [])
        #expect(Polygon.open(Polygon.withClosingVertex([a, b, c, a])) == [a, b, c, a])
    }

    @Test func isClosed() {
        #expect(Polygon.isClosed([a, b, a]))
        #expect(Polygon.isClosed([a]))
        #expect(!Polygon.isClosed([a, b]))
        #expect(!Polygon.isClosed([]))
    }

    @Test func reversalKeepsTheFirstVertexFirst() {
        #expect(Polygon.reversedKeepingStart([a, b, c, d]) == [a, d, c, b])
        #expect(Polygon.reversedKeepingStart([a, b]) == [a, b])
        #expect(Polygon.reversedKeepingStart([]) == [])
    }

    @Test func orientationFollowsTheSignedArea() {
        let clockwise = [a, b, c, d]  // y up
        let counter = [a, d, c, b]
        #expect(Kernel.oriented(clockwise, clockwise: true) == clockwise)
        #expect(Kernel.oriented(counter, clockwise: true) == clockwise)
        #expect(Kernel.oriented(clockwise, clockwise: false) == counter)
        #expect(Kernel.oriented(counter, clockwise: false) == counter)
        // Zero area stays as it is, whichever way is asked for.
        let flat = [a, b, Point(0, 5)]
        #expect(Kernel.oriented(flat, clockwise: true) == flat)
        #expect(Kernel.oriented(flat, clockwise: false) == flat)
        #expect(!Kernel.isReversed([a, b], clockwise: true))
    }

    @Test func polygonStoringOpenRingsKeepsThemAsGiven() {
        let p = Polygon(openRings: [[a, b, c, a]], hasZ: false, hasM: false)
        #expect(p.rings == [[a, b, c, a]])
        #expect(Polygon(rings: [[a, b, c, a]]).rings == [[a, b, c]])
        let z = Polygon(openRings: [[Point(x: 0, y: 0, z: 1)]], hasZ: false, hasM: false)
        #expect(z.hasZ && !z.hasM)
    }
}
