import Foundation
import MapSketchGeometry
import MapSketchTestSupport
import Testing

/// The odd-even area of a set of rings by a vertical-slab sweep, independent of `simplify`:
/// between consecutive event x's (vertices and pairwise crossings) no two segments cross, so
/// sorting the segments spanning a slab by y at its middle and summing the trapezoids of
/// alternate intervals gives the area covered an odd number of times.
func oddEvenArea(_ rings: [[Point]]) -> Double {
    var segs: [(Point, Point)] = []
    for r in rings where r.count >= 2 {
        for i in r.indices {
            let a = r[i], b = r[(i + 1) % r.count]
            if a.x != b.x { segs.append(a.x < b.x ? (a, b) : (b, a)) }
        }
    }
    var xs = Set<Double>()
    for (a, b) in segs {
        xs.insert(a.x)
        xs.insert(b.x)
    }
    for i in segs.indices {
        for j in (i + 1)..<segs.count {
            let (p, q) = segs[i], (r, s) = segs[j]
            let d = (q.x - p.x) * (s.y - r.y) - (q.y - p.y) * (s.x - r.x)
            if d == 0 { continue }
            let t = ((r.x - p.x) * (s.y - r.y) - (r.y - p.y) * (s.x - r.x)) / d
            let u = ((r.x - p.x) * (q.y - p.y) - (r.y - p.y) * (q.x - p.x)) / d
            if t > 0 && t < 1 && u > 0 && u < 1 { xs.insert(p.x + t * (q.x - p.x)) }
        }
    }
    let events = xs.sorted()
    func y(_ s: (Point, Point), _ x: Double) -> Double {
        let (a, b) = s
        return a.y + (b.y - a.y) * ((x - a.x) / (b.x - a.x))
    }
    var area = 0.0
    for k in 0..<(max(events.count, 1) - 1) {
        let x0 = events[k], x1 = events[k + 1], xm = (x0 + x1) / 2
        let spanning = segs.filter { $0.0.x <= x0 && $0.1.x >= x1 }.sorted { y($0, xm) < y($1, xm) }
        var i = 0
        while i + 1 < spanning.count {
            let lo = spanning[i], hi = spanning[i + 1]
            area += ((y(hi, x0) - y(lo, x0)) + (y(hi, x1) - y(lo, x1))) / 2 * (x1 - x0)
            i += 2
        }
    }
    return area
}

/// Planar area of an Esri polygon: exteriors (clockwise) count positive, holes negative.
func esriArea(_ g: Geometry) -> Double {
    guard case .polygon(let pg) = g else { return 0 }
    return pg.rings.reduce(0) { $0 - Kernel.signedDoubleArea($1) / 2 }
}

enum RandomPolygons {
    static func star(_ rng: inout SeededRandom) -> [[Point]] {
        let n = rng.int(in: 5...13)
        let c = Point(rng.double(in: -100...100), rng.double(in: -100...100))
        let step = rng.int(in: 2...(n / 2))
        let r = rng.double(in: 10...50)
        return [(0..<n).map { i in
            let a = Double((i * step) % n) / Double(n) * 2 * Double.pi
            return Point(c.x + r * cos(a) + rng.double(in: -1...1), c.y + r * sin(a) + rng.double(in: -1...1))
        }]
    }

    static func bowTie(_ rng: inout SeededRandom) -> [[Point]] {
        let s = Double(rng.int(in: 1...20))
        return [[Point(0, 0), Point(s, s), Point(s, 0), Point(0, s)]]
    }

    static func walk(_ rng: inout SeededRandom) -> [[Point]] {
        let n = rng.int(in: 6...40)
        return [(0..<n).map { _ in Point(rng.double(in: 0...100), rng.double(in: 0...100)) }]
    }

    /// Integer grid walks: many collinear overlaps, shared vertices and T-junctions.
    static func gridWalk(_ rng: inout SeededRandom) -> [[Point]] {
        let n = rng.int(in: 4...25)
        return [(0..<n).map { _ in Point(Double(rng.int(in: 0...6)), Double(rng.int(in: 0...6))) }]
    }

    static func overlappingRings(_ rng: inout SeededRandom) -> [[Point]] {
        (0..<rng.int(in: 2...5)).map { _ in
            let x = Double(rng.int(in: 0...10)), y = Double(rng.int(in: 0...10))
            let w = Double(rng.int(in: 1...8)), h = Double(rng.int(in: 1...8))
            let ring = [Point(x, y), Point(x, y + h), Point(x + w, y + h), Point(x + w, y)]
            return rng.int(in: 0...1) == 0 ? ring : ring.reversed()
        }
    }

    static func any(_ rng: inout SeededRandom) -> [[Point]] {
        switch rng.int(in: 0...4) {
        case 0: star(&rng)
        case 1: bowTie(&rng)
        case 2: walk(&rng)
        case 3: gridWalk(&rng)
        default: overlappingRings(&rng)
        }
    }
}

@Suite struct SimplifyTests {
    static let seed: UInt64 = 20_261_121
    static let count = 600

    @Test func bowTieBecomesTwoTriangles() throws {
        let g = GeometryEngine.simplify(try WKT.decode("POLYGON ((0 0, 10 10, 10 0, 0 10, 0 0))"))
        #expect(WKT.encode(g) == "MULTIPOLYGON (((0 0, 0 10, 5 5, 0 0)), ((5 5, 10 10, 10 0, 5 5)))")
        #expect(GeometryEngine.validate(g, mode: .esriSimple).isEmpty)
    }

    @Test func orientationHolesSpikesAndDuplicates() throws {
        // Counter-clockwise exterior with a duplicate vertex, a spike, and a clockwise hole.
        let g = Geometry.polygon(Polygon(rings: [
            [Point(0, 0), Point(10, 0), Point(10, 0), Point(10, 10), Point(15, 10), Point(10, 10), Point(0, 10)],
            [Point(2, 2), Point(2, 8), Point(8, 8), Point(8, 2)],
        ]))
        let s = GeometryEngine.simplify(g)
        #expect(s == .polygon(Polygon(rings: [
            [Point(0, 0), Point(0, 10), Point(10, 10), Point(10, 0)],
            [Point(2, 2), Point(8, 2), Point(8, 8), Point(2, 8)],
        ])))
        #expect(esriArea(s) == 64)
    }

    @Test func holeTouchingExteriorAtAVertexStaysOnePolygon() throws {
        // One ring that touches itself (an inverted ring): becomes exterior + hole touching at (0 5).
        let g = try WKT.decode("POLYGON ((0 0, 0 5, 3 7, 3 3, 0 5, 0 10, 10 10, 10 0, 0 0))")
        let s = GeometryEngine.simplify(g)
        #expect(GeometryEngine.validate(s, mode: .esriSimple).isEmpty)
        guard case .polygon(let pg) = s else { return }
        #expect(pg.rings.count == 2)
        #expect(abs(esriArea(s) - (100 - 6)) < 1e-12)
    }

    @Test func linesMultipointsAndPoints() {
        let line = Geometry.polyline(Polyline(paths: [[Point(0, 0), Point(0, 0), Point(1, 1)], [Point(2, 2), Point(2, 2)]]))
        #expect(GeometryEngine.simplify(line) == .polyline(Polyline(paths: [[Point(0, 0), Point(1, 1)]])))
        let mp = Geometry.multipoint(Multipoint(points: [Point(1, 1), Point(2, 2), Point(1, 1), Point(.nan, 0)]))
        #expect(GeometryEngine.simplify(mp) == .multipoint(Multipoint(points: [Point(1, 1), Point(2, 2)])))
        #expect(GeometryEngine.simplify(.point(Point(3, 4))) == .point(Point(3, 4)))
        #expect(GeometryEngine.simplify(.point(Point(.nan, 4))) == .point(nil))
    }

    @Test func zAndMAreKeptAndInterpolated() throws {
        let g = try WKT.decode("POLYGON Z ((0 0 1, 10 10 1, 10 0 5, 0 10 5, 0 0 1))")
        guard case .polygon(let pg) = GeometryEngine.simplify(g) else { return }
        #expect(pg.hasZ)
        let all = pg.rings.flatMap { $0 }
        #expect(all.allSatisfy { $0.z != nil })
        #expect(all.contains { $0.x == 5 && $0.y == 5 && $0.z == 1 || $0.x == 5 && $0.y == 5 && $0.z == 5 })
    }

    @Test func nearlyDegenerateInputStaysValid() {
        // Nearly parallel crossing edges one ulp apart (GEOS ticket 588 style), and many rings through one point.
        var rng = SeededRandom(seed: 99)
        for _ in 0..<100 {
            let base = rng.double(in: 0...1)
            let ring = [Point(0, base), Point(1, base + 1e-15), Point(1, base - 1e-16), Point(0.5, base + 3e-16),
                        Point(0, base.nextUp), Point(0.25, base + 1)]
            let s = GeometryEngine.simplify(.polygon(Polygon(rings: [ring])))
            #expect(GeometryEngine.validate(s, mode: .esriSimple).isEmpty, "\(ring)")
        }
    }

    /// Property test: hundreds of seeded random self-intersecting polygons, without snapping
    /// (tolerance 0): the area is the odd-even area to rounding. `SimplifyTolerancePropertyTests`
    /// checks thousands more under tolerances.
    @Test func propertyValidAreaPreservingIdempotent() {
        var rng = SeededRandom(seed: Self.seed)
        var checked = 0
        for i in 0..<Self.count {
            let rings = RandomPolygons.any(&rng)
            let g = Geometry.polygon(Polygon(rings: rings))
            let s = GeometryEngine.simplify(g, tolerance: 0)
            let issues = GeometryEngine.validate(s, mode: .esriSimple)
            #expect(issues.isEmpty, "case \(i): \(WKT.encode(g)) → \(WKT.encode(s)): \(issues)")
            let expected = oddEvenArea(rings)
            let got = esriArea(s)
            let scale = max(1, rings.flatMap { $0 }.map { max(abs($0.x), abs($0.y)) }.max() ?? 1)
            #expect(abs(got - expected) <= 1e-9 * scale * scale, "case \(i): area \(got) vs odd-even \(expected) for \(WKT.encode(g))")
            #expect(GeometryEngine.simplify(s, tolerance: 0) == s, "case \(i): not idempotent for \(WKT.encode(g))")
            checked += 1
        }
        print("simplify property test: \(checked) random polygons, seed \(Self.seed)")
    }

    @Test func validInputKeepsAreaAndRingCount() {
        var rng = SeededRandom(seed: Self.seed ^ 0xABCD)
        for _ in 0..<200 {
            // A convex exterior with a square hole strictly inside.
            let cx = rng.double(in: -50...50), cy = rng.double(in: -50...50), r = rng.double(in: 20...40)
            let n = rng.int(in: 3...12)
            let ext = (0..<n).map { k in
                let a = -Double(k) / Double(n) * 2 * Double.pi
                return Point(cx + r * cos(a), cy + r * sin(a))
            }
            let h = r * 0.3
            let hole = [Point(cx - h, cy - h), Point(cx + h, cy - h), Point(cx + h, cy + h), Point(cx - h, cy + h)]
            let g = Geometry.polygon(Polygon(rings: [ext, hole]))
            #expect(GeometryEngine.isValid(g, mode: .esriSimple))
            let s = GeometryEngine.simplify(g)
            guard case .polygon(let pg) = s else { continue }
            #expect(pg.rings.count == 2)
            #expect(abs(esriArea(s) - esriArea(g)) <= 1e-9 * esriArea(g))
        }
    }

    /// Every JTS Java test input (GeometryFixerTest's make-valid inputs, and the simplifier and
    /// IsValidOp inputs too): simplify's output is valid by our own validator.
    @Test func jtsFixerInputsBecomeValid() throws {
        let data = try Fixtures.data(JTSConformanceTests.root + "java_test_literals_extracted.json")
        let json = try JSONSerialization.jsonObject(with: data)
        let cases = ((json as? [String: Any])?["cases"] as? [[String: Any]]) ?? []
        var total = 0, valid = 0, skipped = 0
        for c in cases {
            guard let wkt = (c["args"] as? [Any])?.first as? String else { continue }
            guard let g = try? WKT.decode(wkt) else {
                // GEOMETRYCOLLECTION inputs have no Geometry form.
                #expect(wkt.uppercased().hasPrefix("GEOMETRYCOLLECTION"), "\(wkt)")
                skipped += 1
                continue
            }
            total += 1
            let s = GeometryEngine.simplify(g)
            let issues = GeometryEngine.validate(s, mode: .esriSimple)
            #expect(issues.isEmpty, "\(wkt) → \(WKT.encode(s)): \(issues)")
            if issues.isEmpty { valid += 1 }
        }
        print("JTS Java test inputs: simplify output valid \(valid)/\(total) (\(skipped) GEOMETRYCOLLECTION skipped)")
        #expect(total >= 100)
    }
}

@Suite struct SimplifyScaleTests {
    /// A 20 000-vertex valid polygon and a 300-vertex random walk with thousands of crossings finish
    /// and are valid; the times are printed, not asserted (shared CI machines are noisy).
    @Test func largeInputs() {
        let clock = ContinuousClock()
        var times: [String] = []
        for n in [5_000, 20_000] {
            let circle = (0..<n).map { k -> Point in
                let a = -Double(k) / Double(n) * 2 * Double.pi
                return Point(1000 * cos(a), 1000 * sin(a))
            }
            var s = Geometry.point(nil)
            times.append("\(n): \(clock.measure { s = GeometryEngine.simplify(.polygon(Polygon(rings: [circle]))) })")
            #expect(s.pointCount == n)
        }
        var rng = SeededRandom(seed: 1)
        let walk = (0..<300).map { _ in Point(rng.double(in: 0...100), rng.double(in: 0...100)) }
        var w = Geometry.point(nil)
        let t2 = clock.measure { w = GeometryEngine.simplify(.polygon(Polygon(rings: [walk]))) }
        let t3 = clock.measure { #expect(GeometryEngine.isValid(w, mode: .esriSimple)) }
        print("simplify circles \(times); 300-vertex random walk \(t2) → \(w.pointCount) vertices, validated in \(t3)")
    }
}
