@testable import MapSketch
import MapSketchGeometry
import MapSketchTestSupport
import Testing

/// Lines and polygons hit-tested from the layer's packed shape records (one-part geometries drawn
/// with no symbol or a renderer's) against the general per-graphic test (the same graphics with
/// the same symbols as their own), and against the geometry engine directly; and the packed
/// vertex store kept right through updates, removals and compaction.
@MainActor
@Suite struct HitTestShapeTests {
    /// A closed star-ish ring of 3–9 vertices around `c`, clockwise, some vertices repeated.
    func ring(_ c: Point, _ r: inout SeededRandom) -> [Point] {
        let n = r.int(in: 3...9)
        return (0..<n).map { k in
            let a = -Double(k) / Double(n) * 2 * Double.pi
            let radius = r.double(in: 4...30)
            return Point(c.x + radius * cosine(a), c.y + radius * sine(a))
        }
    }

    func path(_ c: Point, _ r: inout SeededRandom) -> [Point] {
        var p = c
        return (0..<r.int(in: 2...8)).map { _ in
            p = Point(p.x + r.double(in: -25...25), p.y + r.double(in: -25...25))
            return p
        }
    }

    /// One random graphic near `c`: one-part lines and polygons (the packed path), and multipart
    /// ones, envelopes and points (the general path) mixed in.
    func geometry(_ c: Point, _ r: inout SeededRandom) -> Geometry {
        switch r.int(in: 0...9) {
        case 0...3: .polyline(Polyline(paths: [path(c, &r)]))
        case 4...7: .polygon(Polygon(rings: [ring(c, &r)]))
        case 8: .polygon(Polygon(rings: [ring(c, &r), ring(Point(c.x + 70, c.y), &r)]))
        default: .polyline(Polyline(paths: [path(c, &r), path(Point(c.x, c.y + 50), &r)]))
        }
    }

    @Test(arguments: [UInt64(11), 12])
    func rendererLineAndFillShapesMatchTheGeneralTest(seed: UInt64) throws {
        var r = SeededRandom(seed: seed)
        let symbols: [Symbol] = [
            .simpleLine(SimpleLineSymbol(width: 12)),
            .simpleLine(SimpleLineSymbol(width: 0.5)),
            .simpleFill(SimpleFillSymbol(outline: SimpleLineSymbol(width: 9))),
            .simpleFill(SimpleFillSymbol(outline: nil)),
            .composite([.simpleLine(SimpleLineSymbol(width: 3)), .simpleLine(SimpleLineSymbol(width: 20))]),
            .composite([.simpleFill(SimpleFillSymbol()), .simpleLine(SimpleLineSymbol(width: 14))]),
            .simpleMarker(SimpleMarkerSymbol(size: 30)),  // cannot draw a line or polygon
        ]
        let values = (0..<symbols.count).map { UniqueValue(value: "s\($0)", symbol: symbols[$0]) }
        let byRenderer = GraphicsLayer()
        byRenderer.renderer = .uniqueValue(UniqueValueRenderer(field: "kind", uniqueValues: values))
        let ownSymbols = GraphicsLayer()
        var rendered: [Graphic] = []
        var owned: [Graphic] = []
        for _ in 0..<600 {
            let g = geometry(r.point(in: Envelope(xmin: 0, ymin: 0, xmax: 600, ymax: 600)), &r)
            let k = r.int(in: 0...symbols.count)  // symbols.count: no matching value, no symbol
            rendered.append(Graphic(geometry: g, attributes: ["kind": .string("s\(k)")]))
            let own: Symbol? = k < symbols.count && symbols[k].fits(g.type) ? symbols[k] : nil
            owned.append(Graphic(geometry: g, symbol: own))
        }
        try byRenderer.add(contentsOf: rendered)
        try ownSymbols.add(contentsOf: owned)
        expectSameHits(byRenderer, ownSymbols, queriesIn: Envelope(xmin: -40, ymin: -40, xmax: 640, ymax: 640), &r)
    }

    /// Bare graphics (no symbol) against `GeometryEngine.isWithin` on every graphic, while the
    /// layer is edited: geometries replaced, graphics removed (enough to compact the slots and the
    /// packed vertices), new ones added one by one and in a batch.
    @Test func packedVerticesStayRightThroughEdits() throws {
        var r = SeededRandom(seed: 13)
        let layer = GraphicsLayer()
        var truth: [GraphicID: Geometry] = [:]
        func addBatch(_ n: Int) throws {
            let gs = (0..<n).map { _ in geometry(r.point(in: Envelope(xmin: 0, ymin: 0, xmax: 2_000, ymax: 2_000)), &r) }
            for (id, g) in zip(try layer.add(contentsOf: gs.map { Graphic(geometry: $0) }), gs) { truth[id] = g }
        }
        func check(_ stage: String) {
            var mismatches: [String] = []
            for _ in 0..<150 {
                let q = r.point(in: Envelope(xmin: -40, ymin: -40, xmax: 2_040, ymax: 2_040))
                let tol = r.double(in: 0...10)
                let got = layer.hitTest(mapPoint: q, tolerance: tol, resolution: 1)
                let want = truth.filter { GeometryEngine.isWithin(tol, of: q, $0.value) }.keys.sorted { $0.rawValue > $1.rawValue }
                if got != want { mismatches.append("\(stage): q \(q) tol \(tol): \(got) vs \(want)") }
            }
            #expect(mismatches.isEmpty, "\(mismatches.prefix(3))")
        }
        try addBatch(2_400)
        check("bulk")
        // Replace a third of the geometries (their packed runs die, new ones are appended).
        for id in truth.keys.sorted(by: { $0.rawValue < $1.rawValue }) where r.int(in: 0...2) == 0 {
            let g = geometry(r.point(in: Envelope(xmin: 0, ymin: 0, xmax: 2_000, ymax: 2_000)), &r)
            try layer.update(id) { $0.geometry = g }
            truth[id] = g
        }
        check("updated")
        // Remove two thirds: the slots compact and the dead vertices are dropped.
        for id in truth.keys.sorted(by: { $0.rawValue < $1.rawValue }) where r.int(in: 0...2) > 0 {
            #expect(layer.remove(id) != nil)
            truth[id] = nil
        }
        check("removed")
        for _ in 0..<50 {
            let g = geometry(r.point(in: Envelope(xmin: 0, ymin: 0, xmax: 2_000, ymax: 2_000)), &r)
            truth[try layer.add(Graphic(geometry: g))] = g
        }
        try addBatch(500)
        check("added")
        layer.removeAll()
        truth.removeAll()
        try addBatch(200)
        check("after removeAll")
    }
}
