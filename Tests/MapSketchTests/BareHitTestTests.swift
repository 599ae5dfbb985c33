import MapSketch
import MapSketchGeometry
import MapSketchTestSupport
import Testing

/// Graphics without a symbol, as large layers hold them: a point is hit within the tolerance of
/// itself, a line within the tolerance of a segment, a polygon inside or within the tolerance of
/// its outline. The hit test takes a path of its own for them (a squared distance per point,
/// no symbol lookup), checked here against a brute-force scan through bulk loads, single adds
/// (the index's dynamic part), updates, removals and compactions.
@MainActor
@Suite struct BareHitTestTests {
    /// Brute force on the bare geometry: the hit test suite's independent predicate, given
    /// symbols that add nothing to the tolerance (a marker of size 0, a line of width 0, a fill
    /// without outline).
    static func hits(_ g: Geometry, _ q: Point, tol: Double, res: Double) -> Bool {
        let symbol: Symbol
        switch g {
        case .polyline: symbol = .simpleLine(SimpleLineSymbol(width: 0))
        case .polygon: symbol = .simpleFill(SimpleFillSymbol(outline: nil))
        default: symbol = .simpleMarker(SimpleMarkerSymbol(size: 0))
        }
        return HitTestTests.bruteHits(Graphic(geometry: g, symbol: symbol), q, tol: tol, res: res)
    }

    /// Mostly points (as in a large layer), some short lines and small polygons, in a 600 × 600
    /// square: dense enough that a tap often finds several graphics.
    static func geometry(_ r: inout SeededRandom) -> Geometry {
        let c = r.point(in: Envelope(xmin: 0, ymin: 0, xmax: 600, ymax: 600))
        switch r.int(in: 0...5) {
        case 0:
            let pts = (0..<r.int(in: 2...4)).map { _ in Point(c.x + r.double(in: -20...20), c.y + r.double(in: -20...20)) }
            return .polyline(Polyline(paths: [pts]))
        case 1:
            let n = r.int(in: 3...7)
            let ring = (0..<n).map { i -> Point in
                let a = -Double(i) / Double(n) * 2 * Double.pi
                let rr = r.double(in: 4...15)
                return Point(c.x + rr * cosine(a), c.y + rr * sine(a))
            }
            return .polygon(Polygon(rings: [ring]))
        default:
            return .point(c)
        }
    }

    @Test(arguments: [UInt64(11), 12, 13])
    func bareGraphicsHitAsBruteForceThroughEditsRemovalsAndCompaction(seed: UInt64) throws {
        var r = SeededRandom(seed: seed)
        let layer = GraphicsLayer()
        var truth: [GraphicID: Geometry] = [:]
        let initial = (0..<3000).map { _ in Self.geometry(&r) }
        for (id, g) in zip(try layer.add(contentsOf: initial.map { Graphic(geometry: $0) }), initial) { truth[id] = g }
        var mismatches: [String] = []
        var hits = 0
        for round in 0..<12 {
            switch round % 4 {
            case 1:
                // Remove well over half: the layer compacts its slots.
                for id in truth.keys.sorted() where r.int(in: 0...9) < 7 {
                    layer.remove(id)
                    truth[id] = nil
                }
            case 2:
                // One at a time: the index's buffer and runs.
                for _ in 0..<r.int(in: 40...400) {
                    let g = Self.geometry(&r)
                    truth[try layer.add(Graphic(geometry: g))] = g
                }
            case 3:
                // Geometry updates: moved points, a point turned into a line and back.
                for id in truth.keys.sorted() where r.int(in: 0...19) == 0 {
                    let g = Self.geometry(&r)
                    try layer.update(id) { $0.geometry = g }
                    truth[id] = g
                }
            default:
                let batch = (0..<r.int(in: 200...2000)).map { _ in Self.geometry(&r) }
                for (id, g) in zip(try layer.add(contentsOf: batch.map { Graphic(geometry: $0) }), batch) { truth[id] = g }
            }
            for k in 0..<150 {
                // Half the taps on or beside a graphic's first vertex, half anywhere.
                let q: Point
                if k % 2 == 0, let g = truth.values.randomElement(using: &r), let v = g.firstVertexForTests {
                    q = Point(v.x + r.double(in: -6...6), v.y + r.double(in: -6...6))
                } else {
                    q = r.point(in: Envelope(xmin: -20, ymin: -20, xmax: 620, ymax: 620))
                }
                let tol = r.double(in: 0...12)
                let res = [0.25, 0.5, 1, 2][r.int(in: 0...3)]
                let got = layer.hitTest(mapPoint: q, tolerance: tol, resolution: res)
                let want = truth.filter { Self.hits($0.value, q, tol: tol, res: res) }.keys.sorted(by: >)
                hits += want.count
                if got != want { mismatches.append("round \(round) q \(q) tol \(tol) res \(res): \(got) vs \(want)") }
                if layer.topmostHit(mapPoint: q, tolerance: tol, resolution: res) != want.first {
                    mismatches.append("round \(round) q \(q): topmost")
                }
                if layer.hitTest(mapPoint: q, tolerance: tol, resolution: res, maxResults: 2) != Array(want.prefix(2)) {
                    mismatches.append("round \(round) q \(q): first two")
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(3))")
        #expect(hits > 1000, "the taps should hit often enough to compare: \(hits)")
        #expect(layer.count == truth.count)
    }
}

extension Geometry {
    /// The first vertex of a point, line or polygon.
    fileprivate var firstVertexForTests: Point? {
        switch self {
        case .point(let p): p
        case .polyline(let l): l.paths.first?.first
        case .polygon(let p): p.rings.first?.first
        default: nil
        }
    }
}
