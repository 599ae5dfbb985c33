@testable import MapSketchGeometry
import MapSketchTestSupport
import Testing

/// The one simplify rule of multipoints and polylines, over every vertex source, against
/// plain restatements of it.
@Suite struct SimplifyRuleTests {
    static func randomPoints(_ r: inout SeededRandom, _ n: Int, finite: Bool) -> [Point] {
        (0..<n).map { _ in
            var p = Point(Double(r.int(in: -20...20)) * 0.25, Double(r.int(in: -20...20)) * 0.25)
            if r.int(in: 0...1) == 0 { p = Point(r.double(in: -5...5), r.double(in: -5...5)) }
            if r.int(in: 0...9) == 0 { p = Point(-0.0, 0) }
            if !finite, r.int(in: 0...12) == 0 { p.y = [.nan, .infinity][r.int(in: 0...1)] }
            return p
        }
    }

    /// A point is kept when finite and no kept point is equal to it or closer than the tolerance.
    static func bruteForcePoints(_ pts: [Point], _ t: Double) -> [Point] {
        var kept: [Point] = []
        for p in pts where p.x.isFinite && p.y.isFinite {
            if !kept.contains(where: { q in (q.x == p.x && q.y == p.y) || (q.x - p.x) * (q.x - p.x) + (q.y - p.y) * (q.y - p.y) < t * t }) {
                kept.append(p)
            }
        }
        return kept
    }

    /// The path rule as the engine stated it over whole arrays.
    static func referencePaths(_ paths: [[Point]], _ t: Double) -> [[Point]] {
        paths.compactMap { path in
            let finite = path.filter { $0.x.isFinite && $0.y.isFinite }
            var out: [Point] = []
            for (k, p) in finite.enumerated() {
                guard let last = out.last, (last.x == p.x && last.y == p.y) || (last.x - p.x) * (last.x - p.x) + (last.y - p.y) * (last.y - p.y) < t * t else {
                    out.append(p)
                    continue
                }
                if k == finite.count - 1, out.count >= 2, !(last.x == p.x && last.y == p.y) { out[out.count - 1] = p }
            }
            return out.count >= 2 ? out : nil
        }
    }

    @Test(arguments: [0.0, 0.3, 1, 2.5])
    func multipointsKeepWhatTheRuleSays(tolerance: Double) {
        var r = SeededRandom(seed: 31)
        for round in 0..<60 {
            let pts = Self.randomPoints(&r, r.int(in: 0...400), finite: round % 2 == 0)
            let expected = Self.bruteForcePoints(pts, tolerance)
            #expect(GeometryEngine.simplify(.multipoint(Multipoint(points: pts)), tolerance: tolerance) == .multipoint(Multipoint(points: expected)))
            guard round % 2 == 0, !pts.isEmpty else { continue }
            var flat = FlatCoordinates(type: .multipoint, xy: pts.flatMap { [$0.x, $0.y] }, partSizes: [pts.count])
            flat.simplify(tolerance: tolerance)
            #expect(flat.geometry == .multipoint(Multipoint(points: expected)))
        }
    }

    @Test(arguments: [0.0, 0.3, 1, 2.5])
    func pathsKeepWhatTheRuleSaysFromEverySource(tolerance: Double) throws {
        var r = SeededRandom(seed: 32)
        for round in 0..<80 {
            let finite = round % 2 == 0
            let paths = (0..<r.int(in: 0...4)).map { _ in Self.randomPoints(&r, r.int(in: 1...12), finite: finite) }
            let expected = Self.referencePaths(paths, tolerance)
            #expect(GeometryEngine.simplify(.polyline(Polyline(paths: paths)), tolerance: tolerance) == .polyline(Polyline(paths: expected)))
            guard finite else { continue }
            var flat = FlatCoordinates(type: .polyline, xy: paths.flatMap { $0.flatMap { [$0.x, $0.y] } }, partSizes: paths.map(\.count))
            flat.simplify(tolerance: tolerance)
            #expect(flat.geometry == .polyline(Polyline(paths: expected)))
            // A sketch's chunked parts.
            var store = try VertexStore(type: .polyline)
            for path in paths {
                _ = try store.addPart()
                for p in path { try store.append(p) }
            }
            var kept: [[Point]] = []
            var last = -1
            SimplifyRule.keptPathVertices(store, tolerance: tolerance) { part, p in
                if part != last { (kept, last) = (kept + [[]], part) }
                kept[kept.count - 1].append(p)
            }
            #expect(kept == expected)
        }
    }

    @Test func theGridCellIsOneRule() {
        #expect(SnapCell.of(-0.0, 0, tolerance: 0) == (0, 0))
        #expect(SnapCell.of(-0.0, 0, tolerance: 0).0.sign == .plus)
        #expect(SnapCell.of(-0.5, 2.5, tolerance: 1) == (-1, 2))
        #expect(SnapCell.of(7, -7, tolerance: 2) == (3, -4))
    }
}
