@_spi(MapSketchInternal) @testable import MapSketchGeometry
import MapSketchTestSupport
import Testing

@Suite struct AffineTransformTests {
    static let square = Geometry.polygon(Polygon(rings: [[Point(-100, -100), Point(-100, 100), Point(100, 100), Point(100, -100)]]))

    @Test func quarterTurnsOfASquareAreExact() {
        // Each corner goes a quarter turn counter-clockwise: (x, y) → (−y, x), bit for bit.
        let turned = GeometryEngine.transform(Self.square, by: .rotation(degrees: 90, about: Point(0, 0)))
        #expect(turned.parts == [[Point(100, -100), Point(-100, -100), Point(-100, 100), Point(100, 100)]])
        let half = GeometryEngine.transform(Self.square, by: .rotation(degrees: 180, about: Point(0, 0)))
        #expect(half.parts == [[Point(100, 100), Point(100, -100), Point(-100, -100), Point(-100, 100)]])
        let back = GeometryEngine.transform(Self.square, by: .rotation(degrees: -270, about: Point(0, 0)))
        #expect(back == turned)
        let full = GeometryEngine.transform(Self.square, by: .rotation(degrees: 720, about: Point(3, 4)))
        #expect(full == Self.square)
        // About another anchor: (x, y) → (ax − (y − ay), ay + (x − ax)).
        let p = AffineTransform.rotation(degrees: 90, about: Point(10, 20)).apply(Point(15, 20))
        #expect(p == Point(10, 25))
    }

    @Test func sinesAndCosinesOfWholeQuadrantsAreExactAndSigned() {
        for (deg, s, c) in [(0.0, 0.0, 1.0), (90, 1, 0), (180, 0, -1), (270, -1, 0), (-90, -1, 0), (450, 1, 0), (-360, 0, 1)] {
            let t = AffineTransform.rotation(degrees: deg, about: Point(0, 0))
            #expect(t.c == s && t.a == c, "\(deg)")
            #expect(t.a.sign == .plus || t.a != 0, "no negative zero at \(deg)")
            #expect(t.c.sign == .plus || t.c != 0, "no negative zero at \(deg)")
        }
        let thirty = AffineTransform.rotation(degrees: 30, about: Point(0, 0))
        #expect(abs(thirty.c - 0.5) < 1e-15 && abs(thirty.a - 0.75.squareRoot()) < 1e-15)
        let ninetyOne = AffineTransform.rotation(degrees: 91, about: Point(0, 0))
        #expect(abs(ninetyOne.c - 0.9998476951563913) < 1e-15)
    }

    @Test func translationAddsExactly() {
        let t = AffineTransform.translation(dx: 0.1, dy: -0.2)
        let p = t.apply(Point(x: 1e7 + 0.3, y: -5, z: 7, m: 9))
        #expect(p == Point(x: (1e7 + 0.3) + 0.1, y: -5 + -0.2, z: 7, m: 9))
    }

    @Test func scaleAboutAnAnchorKeepsTheAnchor() {
        let t = AffineTransform.scale(x: 2, y: 3, about: Point(10, 10))
        #expect(t.apply(Point(10, 10)) == Point(10, 10))
        #expect(t.apply(Point(11, 12)) == Point(12, 16))
        #expect(t.determinant == 6 && t.isInvertible)
        #expect(!AffineTransform.scale(x: 0, y: 1, about: Point(0, 0)).isInvertible)
        #expect(AffineTransform.scale(x: -1, y: 1, about: Point(0, 0)).determinant == -1)
    }

    @Test func rotationBetweenDirectionsNeedsNoTrigonometry() throws {
        // From east to north: a quarter turn counter-clockwise, exactly.
        let t = try #require(AffineTransform.rotation(from: (5, 0), to: (0, 3), about: Point(1, 1)))
        #expect(t.a == 0 && t.b == -1 && t.c == 1 && t.d == 0)
        #expect(t.apply(Point(2, 1)) == Point(1, 2))
        // 45°: the normalised dot and cross products.
        let d = try #require(AffineTransform.rotation(from: (1, 0), to: (1, 1), about: Point(0, 0)))
        #expect(abs(d.a - 0.5.squareRoot()) <= 2e-16 && abs(d.c - 0.5.squareRoot()) <= 2e-16)
        #expect(AffineTransform.rotation(from: (0, 0), to: (1, 1), about: Point(0, 0)) == nil)
    }

    @Test func envelopesBecomePolygonsAndEmptyGeometryStaysEmpty() {
        let e = Geometry.envelope(Envelope(xmin: 0, ymin: 0, xmax: 2, ymax: 1))
        let g = GeometryEngine.transform(e, by: .translation(dx: 1, dy: 1))
        #expect(g.parts == [[Point(1, 1), Point(1, 2), Point(3, 2), Point(3, 1)]])
        #expect(GeometryEngine.transform(.point(nil), by: .translation(dx: 1, dy: 1)) == .point(nil))
    }

    @Test func chunkedTransformMatchesTheGeometryTransformAndLeavesTheSourceAlone() throws {
        var rng = SeededRandom(seed: 5)
        let points = (0..<1000).map { _ in Point(x: rng.double(in: -1e6...1e6), y: rng.double(in: -1e6...1e6), z: rng.double(in: 0...9)) }
        let part = ChunkedVertices(points)
        let t = AffineTransform.rotation(degrees: 33, about: Point(12, -7))
        let moved = try part.transformed(by: t)
        #expect(moved.array == points.map(t.apply))
        #expect(part.array == points)
        moved._checkInvariantsNow()
        let huge = AffineTransform.scale(x: 1e305, y: 1, about: Point(0, 0))
        #expect(throws: GeometryError.nonFiniteCoordinate(part: 3, index: 0)) { try part.transformed(by: huge, part: 3) }
    }

    @Test func storeTransformTouchesOnlyThePartAskedFor() throws {
        let g = Geometry.polyline(Polyline(paths: [[Point(0, 0), Point(10, 0)], [Point(0, 5), Point(10, 5)]]))
        let store = try VertexStore(g)
        let one = try store.transformed(by: .translation(dx: 1, dy: 2), part: 1)
        #expect(one.geometry.parts == [[Point(0, 0), Point(10, 0)], [Point(1, 7), Point(11, 7)]])
        let all = try store.transformed(by: .translation(dx: 1, dy: 2))
        #expect(all.geometry == GeometryEngine.transform(g, by: .translation(dx: 1, dy: 2)))
        #expect(store.geometry == g)
        #expect(throws: GeometryError.partIndexOutOfRange(part: 2, partCount: 2)) { try store.transformed(by: .identity, part: 2) }
        let point = try VertexStore(.point(Point(1, 1)))
        #expect(try point.transformed(by: .translation(dx: 1, dy: 0)).geometry == .point(Point(2, 1)))
    }

    /// The one-pass transform (x and y read in place, envelopes folded as it writes, finiteness
    /// summed) against `AffineTransform.apply` per vertex, on parts built every way (bulk, appended,
    /// edited in the middle so the part is a tree of views and runs), with and without z, sizes
    /// around the 128-vertex chunk; a non-finite result names the first vertex that has one.
    @Test(arguments: [1, 2, 127, 128, 129, 1_000, 40_000])
    func onePassTransformMatchesApplyOnEveryLayout(count: Int) throws {
        var rng = SeededRandom(seed: UInt64(count))
        let points = (0..<count).map { k in
            Point(x: rng.double(in: -1e5...1e5), y: rng.double(in: -1e5...1e5), z: k % 3 == 0 && count % 2 == 0 ? Double(k) : nil)
        }
        var appended = ChunkedVertices()
        for q in points { appended.append(q) }
        var edited = ChunkedVertices(points)
        edited.insert(Point(1, 2), at: count / 2)
        edited.remove(at: count / 2)
        for q in points.prefix(50) { edited.append(q) }
        var t = AffineTransform.rotation(degrees: 31, about: Point(3, -4))
        t.translationX = 0.5
        t.translationY = -7
        for part in [ChunkedVertices(points), appended, edited] {
            let moved = try part.transformed(by: t)
            #expect(moved.array == part.array.map(t.apply))
            moved._checkInvariantsNow()
            #expect(moved.envelope == Envelope(points: part.array.map(t.apply)))
        }
        // Only the vertex far out overflows: the error names it, whichever chunk it is in.
        var far = points
        let k = count / 2
        far[k] = Point(1e304, 0)
        let scale = AffineTransform.scale(x: 1e5, y: 1, about: Point(0, 0))
        #expect(throws: GeometryError.nonFiniteCoordinate(part: 2, index: k)) { try ChunkedVertices(far).transformed(by: scale, part: 2) }
    }
}
