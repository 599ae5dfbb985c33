@testable import MapSketchGeometry
import MapSketchTestSupport
import Testing

/// `PreparedPolygon` against the exact kernel (`GeometryEngine.contains`) on random polygons
/// with holes, grid-snapped vertices (horizontal edges, shared y values, collinear runs) and
/// queries on vertices, on edge midpoints, on the grid and at random.
@Suite struct PreparedPolygonTests {
    /// A polygon of 1–4 random star rings (an exterior, holes inside it, sometimes a ring that
    /// crosses the others), vertices on a quarter grid.
    static func randomPolygon(_ rng: inout SeededRandom) -> Polygon {
        var rings = [
            GeoJSONRingGroupingTests.star(&rng, n: rng.int(in: 3...300), cx: 0, cy: 0, r: 100, clockwise: true)
        ]
        for _ in 0..<rng.int(in: 0...3) {
            rings.append(
                GeoJSONRingGroupingTests.star(
                    &rng, n: rng.int(in: 3...60), cx: rng.double(in: -40...40).rounded(), cy: rng.double(in: -40...40).rounded(),
                    r: rng.double(in: 5...70), clockwise: false))
        }
        return Polygon(rings: rings)
    }

    static func queries(_ polygon: Polygon, _ rng: inout SeededRandom) -> [Point] {
        var queries: [Point] = []
        for ring in polygon.rings {
            queries += ring  // every vertex (boundary)
            for k in ring.indices {  // edge midpoints (on the edge when exactly representable)
                let a = ring[k], b = ring[(k + 1) % ring.count]
                queries.append(Point((a.x + b.x) / 2, (a.y + b.y) / 2))
                queries.append(Point(a.x - 0.25, a.y))  // beside a vertex, on its y
                queries.append(Point(a.x + 0.25, a.y))
            }
        }
        for _ in 0..<600 {  // on the grid (vertex y values, horizontal edges) and off it
            queries.append(Point((rng.double(in: -130...130) * 4).rounded() / 4, (rng.double(in: -130...130) * 4).rounded() / 4))
            queries.append(Point(rng.double(in: -130...130), rng.double(in: -130...130)))
        }
        return queries
    }

    @Test func containsAsTheExactKernelOnRandomPolygons() {
        var rng = SeededRandom(seed: 2026)
        var boundary = 0, inside = 0, outside = 0
        for _ in 0..<60 {
            let polygon = Self.randomPolygon(&rng)
            let prepared = PreparedPolygon(polygon)
            for q in Self.queries(polygon, &rng) {
                let expected = GeometryEngine.contains(polygon, q)
                #expect(prepared.contains(q) == expected, "\(q) in \(polygon.rings.map(\.count))")
                let ringsLocations = polygon.rings.map { Kernel.locate(q, inRing: $0) }
                if ringsLocations.contains(.boundary) { boundary += 1 } else if expected { inside += 1 } else { outside += 1 }
            }
        }
        // The cases the test means to cover all occur.
        #expect(boundary > 1_000 && inside > 1_000 && outside > 1_000, "\(boundary) \(inside) \(outside)")
    }

    @Test func largeRingsAndManyBands() {
        var rng = SeededRandom(seed: 7)
        let ring = GeoJSONRingGroupingTests.star(&rng, n: 20_000, cx: 0, cy: 0, r: 1_000, clockwise: true)
        let polygon = Polygon(rings: [ring])
        let prepared = PreparedPolygon(polygon)
        for _ in 0..<3_000 {
            let q = Point((rng.double(in: -1_100...1_100) * 4).rounded() / 4, (rng.double(in: -1_100...1_100) * 4).rounded() / 4)
            #expect(prepared.contains(q) == GeometryEngine.contains(polygon, q), "\(q)")
        }
        for q in ring.prefix(500) { #expect(prepared.contains(q)) }
        // At most 8 band copies per edge on average, plus the band table.
        #expect(prepared.indexFootprint <= 20_000 * 8 * 32 + 4 * 1_000)
    }

    @Test func edgesSpanningEveryBandStayBounded() {
        // A comb: every tooth spans the full height, so no band count keeps the copies small;
        // the band count halves until each edge is listed about 8 times at most.
        var ring: [Point] = []
        for k in 0..<2_000 {
            ring.append(Point(Double(2 * k), 0))
            ring.append(Point(Double(2 * k) + 1, 1_000))
        }
        ring.append(Point(4_000, -10))
        ring.append(Point(0, -10))
        let polygon = Polygon(rings: [ring])
        let prepared = PreparedPolygon(polygon)
        #expect(prepared.indexFootprint <= (8 * ring.count + 200) * 32 + 4 * 200)
        var rng = SeededRandom(seed: 3)
        for _ in 0..<2_000 {
            let q = Point((rng.double(in: -10...4_010) * 2).rounded() / 2, rng.double(in: -20...1_010).rounded())
            #expect(prepared.contains(q) == GeometryEngine.contains(polygon, q), "\(q)")
        }
    }

    @Test func degeneratePolygons() {
        for polygon in [Polygon(rings: []), Polygon(rings: [[]]), Polygon(rings: [[Point(0, 0), Point(10, 0), Point(5, 0)]])] {
            let prepared = PreparedPolygon(polygon)
            for q in [Point(0, 0), Point(7, 0), Point(11, 0), Point(5, 1), Point(.nan, 0), Point(0, .nan), Point(.infinity, 0)] {
                #expect(prepared.contains(q) == GeometryEngine.contains(polygon, q), "\(q) in \(polygon.rings)")
            }
        }
    }
}
