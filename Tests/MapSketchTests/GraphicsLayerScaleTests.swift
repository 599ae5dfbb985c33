import MapSketch
import MapSketchGeometry
import MapSketchTestSupport
import Testing

@MainActor
@Suite struct GraphicsLayerScaleTests {
    /// A million points on a 1000 × 1000 grid (x = id / 1000, y = id % 1000): every hit is known
    /// without a scan.
    @Test func aMillionGraphicsLoadAndAnswerHitTests() throws {
        let side = 1000
        var graphics: [Graphic] = []
        graphics.reserveCapacity(side * side)
        for i in 0..<side { for j in 0..<side { graphics.append(Graphic(geometry: .point(Point(Double(i), Double(j))))) } }
        let layer = GraphicsLayer()
        let map = MapView(screenSize: ScreenSize(width: 100, height: 100), viewport: Viewport(center: Point(500, 500), resolution: 0.1))
        try map.addLayer(layer, named: "grid")
        let ids = try layer.add(contentsOf: graphics)
        #expect(layer.count == 1_000_000)
        #expect(layer.indexMemoryFootprint < 40 * 1_000_000, "index bytes per graphic: \(Double(layer.indexMemoryFootprint) / 1e6)")
        var r = SeededRandom(seed: 7)
        var wrong: [String] = []
        for _ in 0..<200 {
            let q = Point(r.double(in: -2...1001), r.double(in: -2...1001))
            // Tolerance 3 points at 0.1 map units per point = 0.3 map units.
            let got = layer.hitTest(mapPoint: q, tolerance: 3, resolution: 0.1)
            let (gi, gj) = (q.x.rounded(), q.y.rounded())
            let inGrid = gi >= 0 && gi < Double(side) && gj >= 0 && gj < Double(side)
            let near = ((q.x - gi) * (q.x - gi) + (q.y - gj) * (q.y - gj)).squareRoot() <= 0.3
            let want = inGrid && near ? [ids[Int(gi) * side + Int(gj)]] : []
            if got != want { wrong.append("\(q): got \(got) want \(want)") }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(3))")
        // Remove a block and add on top: the index stays right.
        for i in 400..<410 { for j in 0..<side { layer.remove(ids[i * side + j]) } }
        #expect(layer.hitTest(mapPoint: Point(405, 7), tolerance: 3, resolution: 0.1).isEmpty)
        let top = try layer.add(Graphic(geometry: .point(Point(405, 7))))
        #expect(layer.hitTest(mapPoint: Point(405, 7), tolerance: 3, resolution: 0.1) == [top])
        #expect(layer.hitTest(mapPoint: Point(411, 7), tolerance: 3, resolution: 0.1) == [ids[411 * side + 7]])
        // Through the map: screen center is map (500, 500).
        #expect(map.hitTest(at: ScreenPoint(x: 50, y: 50), tolerance: 3) == [HitTestResult(layer: layer, layerName: "grid", graphicID: ids[500 * side + 500])])
    }
}
