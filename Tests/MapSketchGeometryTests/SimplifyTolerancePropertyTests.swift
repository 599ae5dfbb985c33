import Foundation
import MapSketchGeometry
import MapSketchTestSupport
import Testing

/// Distances and lengths in `simplify`'s output, measured independently of the library.
struct ToleranceCheck {
    let tolerance: Double

    /// The smallest distance between two distinct vertices of the output, and whether some
    /// vertex is closer than the tolerance to an edge that does not end at it.
    static func closestPair(_ rings: [[Point]]) -> Double {
        var vs: [Point] = []
        var seen = Set<[Double]>()
        for r in rings { for p in r where seen.insert([p.x, p.y]).inserted { vs.append(p) } }
        var best = Double.infinity
        for i in vs.indices {
            for j in (i + 1)..<vs.count { best = min(best, hypot(vs[i].x - vs[j].x, vs[i].y - vs[j].y)) }
        }
        return best
    }

    /// The smallest distance from a vertex to an edge not ending at it (independent of the
    /// library: projection onto the segment, clamped).
    static func closestVertexToEdge(_ rings: [[Point]]) -> Double {
        var best = Double.infinity
        let vs = rings.flatMap { $0 }
        for r in rings {
            for k in r.indices {
                let a = r[k], b = r[(k + 1) % r.count]
                let dx = b.x - a.x, dy = b.y - a.y, len2 = dx * dx + dy * dy
                for v in vs where !(v.x == a.x && v.y == a.y) && !(v.x == b.x && v.y == b.y) {
                    let t = max(0, min(1, ((v.x - a.x) * dx + (v.y - a.y) * dy) / len2))
                    best = min(best, hypot(v.x - (a.x + t * dx), v.y - (a.y + t * dy)))
                }
            }
        }
        return best
    }

    static func perimeter(_ rings: [[Point]]) -> Double {
        var sum = 0.0
        for r in rings {
            for k in r.indices {
                let a = r[k], b = r[(k + 1) % r.count]
                sum += hypot(b.x - a.x, b.y - a.y)
            }
        }
        return sum
    }
}

extension RandomPolygons {
    /// A grid walk whose vertices are jittered by up to about the tolerance: near-coincident
    /// vertices, vertices next to edges, crossings next to vertices.
    static func jitteredGridWalk(_ rng: inout SeededRandom, tolerance: Double) -> [[Point]] {
        let n = rng.int(in: 4...30)
        return [(0..<n).map { _ in
            Point(Double(rng.int(in: 0...8)) + rng.double(in: -1.5...1.5) * tolerance,
                  Double(rng.int(in: 0...8)) + rng.double(in: -1.5...1.5) * tolerance)
        }]
    }

    /// Like the hardening report's example: an integer ring crossing itself many times, and an
    /// integer hole crossing it.
    static func integerRingAndHole(_ rng: inout SeededRandom) -> [[Point]] {
        let outer = (0..<rng.int(in: 5...12)).map { _ in Point(Double(rng.int(in: 0...20)), Double(rng.int(in: 0...14))) }
        let hole = (0..<rng.int(in: 3...6)).map { _ in Point(Double(rng.int(in: 0...20)), Double(rng.int(in: 0...14))) }
        return [outer, hole]
    }
}

/// What `simplify` promises about near-coincident vertices and crossings: polygons are repaired
/// exactly (noded at the resolution of their coordinates, whatever the xy tolerance), lines and
/// multipoints snap to the tolerance.
@Suite struct SimplifyTolerancePropertyTests {
    static let seed: UInt64 = 20_261_124
    static let count = 3000

    static func nearTheTwinCrossings(_ p: Point) -> Bool {
        abs(p.x - 11.051948051948052) < 1e-9 && abs(p.y - 9.064935064935065) < 1e-9
    }

    /// 2^-48 of the largest coordinate magnitude: the distance below which two computed points
    /// are one to the noder.
    static func resolution(_ rings: [[Point]]) -> Double {
        rings.flatMap { $0 }.reduce(0) { max($0, abs($1.x), abs($1.y)) } * 0x1p-48
    }

    /// The hardening report's example: simplify made a sliver ring
    /// `[[10,10],[11.051948051948052,9.064935064935066],[11.051948051948052,9.064935064935064]]`
    /// from two crossings 2e-15 apart, closer than the resolution of the arithmetic: they are
    /// one vertex.
    @Test func theReportedSliverIsGone() throws {
        let g = try WKT.decode(
            "POLYGON((0 4, 10 10, 19 2, 10 10, 2 1, 17 5, 1 1, 8 10, 14 12, 1 7, 0 4), (15 14, 11 9, 11 5, 2 6, 18 11, 15 14))")
        let s = GeometryEngine.simplify(g)
        guard case .polygon(let pg) = s else {
            Issue.record("expected a polygon")
            return
        }
        #expect(GeometryEngine.validate(s, mode: .esriSimple).isEmpty)
        #expect(pg.rings.allSatisfy { Kernel.areaSign($0) != 0 && $0.count >= 3 })
        let twins = Set(pg.rings.flatMap { $0 }.filter(Self.nearTheTwinCrossings).map { [$0.x, $0.y] })
        #expect(twins.count <= 1, "the two crossings 2e-15 apart are never both vertices: \(twins)")
        #expect(abs(esriArea(s) - oddEvenArea(pg.rings)) < 1e-9)
        let input: [[Point]] = { if case .polygon(let p) = g { return p.rings } else { return [] } }()
        let expected = ExactSlabArea.area(input)
        #expect(abs(ExactSlabArea.polygonArea(s) - expected) <= 1e-12 * expected)
        #expect(GeometryEngine.simplify(s) == s)
    }

    /// Thousands of seeded random self-intersecting polygons with near-coincidences at tolerances
    /// from 0.001 to 0.5 on coordinates up to 100 — vertices jittered by about the tolerance,
    /// vertices next to edges, crossings next to vertices: the output is valid (our validator,
    /// Esri rules), has no ring of zero area, no two vertices closer than the resolution, no
    /// vertex closer than it to an edge not ending at it, the input's odd-even area (computed
    /// independently by a slab sweep) to 1e-9 relative, whatever the tolerance, and simplifying
    /// it again changes nothing.
    @Test func nearCoincidencesKeepTheArea() {
        var rng = SeededRandom(seed: Self.seed)
        var nearCases = 0
        for i in 0..<Self.count {
            let tolerance = [0.001, 0.01, 0.1, 0.5][rng.int(in: 0...3)]
            let rings: [[Point]]
            switch rng.int(in: 0...5) {
            case 0, 1: rings = RandomPolygons.any(&rng)
            case 2, 3: rings = RandomPolygons.jitteredGridWalk(&rng, tolerance: tolerance)
            default: rings = RandomPolygons.integerRingAndHole(&rng)
            }
            let g = Geometry.polygon(Polygon(rings: rings))
            let s = GeometryEngine.simplify(g, tolerance: tolerance)
            guard case .polygon(let pg) = s else {
                Issue.record("case \(i): not a polygon")
                continue
            }
            let label = "case \(i), tolerance \(tolerance): \(WKT.encode(g)) → \(WKT.encode(s))"
            #expect(GeometryEngine.validate(s, mode: .esriSimple).isEmpty, "\(label)")
            #expect(pg.rings.allSatisfy { $0.count >= 3 && Kernel.areaSign($0) != 0 }, "zero-area ring: \(label)")
            let resolution = Self.resolution(rings)
            #expect(ToleranceCheck.closestPair(pg.rings) >= resolution, "vertices closer than the resolution: \(label)")
            #expect(ToleranceCheck.closestVertexToEdge(pg.rings) >= resolution * (1 - 1e-12), "vertex near an edge: \(label)")
            if ToleranceCheck.closestPair(pg.rings) < tolerance { nearCases += 1 }
            let expected = ExactSlabArea.area(rings)
            let area = ExactSlabArea.polygonArea(s)
            #expect(abs(area - expected) <= 1e-9 * max(expected, 1), "area \(area) vs odd-even \(expected): \(label)")
            #expect(s == GeometryEngine.simplify(g, tolerance: 0), "the tolerance changed a polygon: \(label)")
            #expect(GeometryEngine.simplify(s, tolerance: tolerance) == s, "not idempotent: \(label)")
        }
        #expect(nearCases > Self.count / 20, "the generator makes vertices closer than the tolerance: \(nearCases)")
        print("simplify near-coincidence property test: \(Self.count) random polygons, seed \(Self.seed); \(nearCases) keep vertices closer than the tolerance")
    }

    @Test func toleranceComesFromTheSpatialReference() throws {
        #expect(SpatialReference.webMercator.xyTolerance == 0.001)
        #expect(SpatialReference(wkid: 2193).xyTolerance == 0.001)
        #expect(abs(SpatialReference.wgs84.xyTolerance - 8.983152841195214e-9) < 1e-22)
        // Two vertices 0.4 mm apart in Web Mercator (4e-9 degrees in WGS 84) stay two vertices
        // of a polygon: merging them would change its area.
        let mercator = Geometry.polygon(Polygon(rings: [[Point(0, 0), Point(10, 0), Point(10, 10), Point(10.0004, 10), Point(10.0004, 20), Point(0, 20)]]))
        guard case .polygon(let m) = GeometryEngine.simplify(mercator, spatialReference: .webMercator) else { return }
        #expect(m.rings.flatMap { $0 }.count == 6)
        #expect(abs(esriArea(.polygon(m)) - 200.004) < 1e-12)
        let degrees = Geometry.polygon(Polygon(rings: [[Point(0, 0), Point(1, 0), Point(1, 1), Point(1.000000004, 1), Point(1.000000004, 2), Point(0, 2)]]))
        guard case .polygon(let d) = GeometryEngine.simplify(degrees, spatialReference: .wgs84) else { return }
        #expect(d.rings.flatMap { $0 }.count == 6, "the two vertices 4e-9° apart stay: \(d.rings)")
        #expect(GeometryEngine.simplify(degrees, tolerance: 0) == .polygon(d))
        // A line's vertices closer than the tolerance are one.
        let line = Geometry.polyline(Polyline(paths: [[Point(0, 0), Point(10, 0), Point(10.0004, 0), Point(20, 0)]]))
        #expect(GeometryEngine.simplify(line, spatialReference: .webMercator).pointCount == 3)
        #expect(GeometryEngine.simplify(line, spatialReference: .wgs84).pointCount == 4)
    }

    @Test func linesAndMultipointsSnapToo() {
        let line = Geometry.polyline(Polyline(paths: [[Point(0, 0), Point(0.0004, 0), Point(1, 0), Point(1, 0.0004)], [Point(5, 5), Point(5.0001, 5)]]))
        #expect(GeometryEngine.simplify(line) == .polyline(Polyline(paths: [[Point(0, 0), Point(1, 0.0004)]])),
                "the path keeps its last vertex in place of the one kept before it; a path shorter than the tolerance goes")
        let mp = Geometry.multipoint(Multipoint(points: [Point(1, 1), Point(1.0005, 1), Point(2, 2), Point(1, 1.002)]))
        #expect(GeometryEngine.simplify(mp) == .multipoint(Multipoint(points: [Point(1, 1), Point(2, 2), Point(1, 1.002)])))
    }

    /// Hardening reproducer 4: a polygon spanning ±1e308 and a triangle with a side of 5e-324.
    @Test func extremePolygonsSimplify() throws {
        let h = 1e308
        let huge = try WKT.decode("POLYGON ((-1e308 -1e308, 1e308 -1e308, 1e308 1e308, -1e308 1e308, -1e308 -1e308))")
        #expect(GeometryEngine.simplify(huge) == huge, "a valid square stays as it is")
        let bowTie = Geometry.polygon(Polygon(rings: [[Point(-h, -h), Point(h, h), Point(h, -h), Point(-h, h)]]))
        let s = GeometryEngine.simplify(bowTie)
        #expect(WKT.encode(s) == "MULTIPOLYGON (((-1e+308 -1e+308, -1e+308 1e+308, 0 0, -1e+308 -1e+308)), ((0 0, 1e+308 1e+308, 1e+308 -1e+308, 0 0)))")
        #expect(GeometryEngine.isValid(s, mode: .esriSimple))
        let g = Double.greatestFiniteMagnitude
        let widest = Geometry.polygon(Polygon(rings: [[Point(-g, -g), Point(g, g), Point(g, -g), Point(-g, g)]]))
        #expect(GeometryEngine.isValid(GeometryEngine.simplify(widest), mode: .esriSimple))
        // A triangle of sides 5e-324 is kept, valid (a polygon is never snapped to the tolerance).
        let t = Double.leastNonzeroMagnitude
        let tiny = Geometry.polygon(Polygon(rings: [[Point(0, 0), Point(t, 0), Point(0, t)]]))
        let kept = GeometryEngine.simplify(tiny)
        #expect(kept == .polygon(Polygon(rings: [[Point(0, 0), Point(0, t), Point(t, 0)]])))
        #expect(GeometryEngine.isValid(kept, mode: .esriSimple))
        let tinyBowTie = Geometry.polygon(Polygon(rings: [[Point(0, 0), Point(4 * t, 4 * t), Point(4 * t, 0), Point(0, 4 * t)]]))
        #expect(GeometryEngine.isValid(GeometryEngine.simplify(tinyBowTie, tolerance: 0), mode: .esriSimple))
    }
}
