import MapSketch
import MapSketchGeometry
import MapSketchTestSupport
import Testing

@MainActor
@Suite struct HitTestTests {
    /// 400 × 300 points, resolution 1, center (200, 150): screen (x, y) is map (x, 300 − y).
    func makeMap() -> MapView {
        MapView(screenSize: ScreenSize(width: 400, height: 300), viewport: Viewport(center: Point(200, 150), resolution: 1))
    }

    func screen(_ x: Double, _ y: Double) -> ScreenPoint { ScreenPoint(x: x, y: 300 - y) }

    @Test func markersHitWithinTheirSize() throws {
        let map = makeMap()
        let layer = GraphicsLayer()
        try map.addLayer(layer, named: "g")
        let big = try layer.add(Graphic(Point(100, 100), symbol: .simpleMarker(SimpleMarkerSymbol(size: 20))))
        let square = try layer.add(Graphic(Point(200, 100), symbol: .simpleMarker(SimpleMarkerSymbol(style: .square, size: 20))))
        #expect(map.hitTest(at: screen(109, 100), tolerance: 0).map(\.graphicID) == [big])
        #expect(map.hitTest(at: screen(112, 100), tolerance: 0).isEmpty)
        #expect(map.hitTest(at: screen(112, 100), tolerance: 3).map(\.graphicID) == [big])
        #expect(map.hitTest(at: screen(107.5, 107.5), tolerance: 0).isEmpty, "a circle's corner is outside it")
        #expect(map.hitTest(at: screen(209.5, 109.5), tolerance: 0).map(\.graphicID) == [square], "a square's corner is inside it")
        map.zoom(by: 2)  // resolution 0.5: a 20 pt marker covers 5 map units
        let p = map.toScreen(Point(104, 100))
        #expect(map.hitTest(at: p, tolerance: 0).map(\.graphicID) == [big])
        #expect(map.hitTest(at: map.toScreen(Point(106, 100)), tolerance: 0).isEmpty, "sizes are in points, not map units")
    }

    @Test func pictureMarkersTextAndCompositesHitWithinTheirBoxes() throws {
        let map = makeMap()
        let layer = GraphicsLayer()
        try map.addLayer(layer, named: "g")
        let pin = try layer.add(Graphic(Point(100, 100), symbol: .pictureMarker(PictureMarkerSymbol(image: "pin.png", width: 10, height: 30, yOffset: 15))))
        #expect(map.hitTest(at: screen(100, 128), tolerance: 0).map(\.graphicID) == [pin], "the offset image reaches 30 pt up")
        #expect(map.hitTest(at: screen(100, 96), tolerance: 0).isEmpty, "nothing below the anchor")
        #expect(map.hitTest(at: screen(106, 110), tolerance: 0).isEmpty, "half the width is 5 pt")
        let label = try layer.add(Graphic(Point(300, 100), symbol: .text(TextSymbol(text: "ABCDEFGHIJ", fontSize: 10))))
        #expect(map.hitTest(at: screen(328, 102), tolerance: 0).map(\.graphicID) == [label], "10 characters × 6 pt wide")
        #expect(map.hitTest(at: screen(300, 107), tolerance: 0).isEmpty, "5 pt tall each side")
        let combo = try layer.add(Graphic(Point(200, 250), symbol: .composite([.simpleMarker(SimpleMarkerSymbol(size: 4)), .simpleMarker(SimpleMarkerSymbol(size: 20))])))
        #expect(map.hitTest(at: screen(209, 250), tolerance: 0).map(\.graphicID) == [combo], "the larger part counts")
    }

    @Test func linesHitWithinWidthPlusTolerance() throws {
        let map = makeMap()
        let layer = GraphicsLayer()
        try map.addLayer(layer, named: "g")
        let thick = try layer.add(Graphic(Polyline(paths: [[Point(0, 50), Point(400, 50)]]), symbol: .simpleLine(SimpleLineSymbol(width: 10))))
        #expect(map.hitTest(at: screen(200, 54.9), tolerance: 0).map(\.graphicID) == [thick])
        #expect(map.hitTest(at: screen(200, 56), tolerance: 0).isEmpty)
        #expect(map.hitTest(at: screen(200, 56), tolerance: 2).map(\.graphicID) == [thick])
        let bare = try layer.add(Graphic(Polyline(paths: [[Point(0, 200), Point(400, 200)]])))
        #expect(map.hitTest(at: screen(30, 203), tolerance: 3).map(\.graphicID) == [bare], "no symbol: the bare line within the tolerance")
    }

    @Test func polygonsHitInsideAndNearTheOutlineButNotInHoles() throws {
        let map = makeMap()
        let layer = GraphicsLayer()
        try map.addLayer(layer, named: "g")
        let outer = [Point(50, 50), Point(50, 250), Point(350, 250), Point(350, 50)]
        let hole = [Point(150, 100), Point(250, 100), Point(250, 200), Point(150, 200)]
        let id = try layer.add(Graphic(Polygon(rings: [outer, hole]), symbol: .simpleFill(SimpleFillSymbol(outline: SimpleLineSymbol(width: 4)))))
        #expect(map.hitTest(at: screen(60, 60), tolerance: 0).map(\.graphicID) == [id])
        #expect(map.hitTest(at: screen(200, 150), tolerance: 0).isEmpty, "inside the hole")
        #expect(map.hitTest(at: screen(200, 101), tolerance: 0).map(\.graphicID) == [id], "on the hole's outline")
        #expect(map.hitTest(at: screen(47, 150), tolerance: 1).map(\.graphicID) == [id], "near the exterior")
        #expect(map.hitTest(at: screen(40, 150), tolerance: 1).isEmpty)
    }

    @Test func topmostFirstAcrossLayersAndWithinALayer() throws {
        let map = makeMap()
        let bottom = GraphicsLayer()
        let top = GraphicsLayer()
        try map.addLayer(bottom, named: "bottom")
        try map.addLayer(top, named: "top")
        let marker = Symbol.simpleMarker(SimpleMarkerSymbol(size: 10))
        let b1 = try bottom.add(Graphic(Point(100, 100), symbol: marker))
        let b2 = try bottom.add(Graphic(Point(101, 100), symbol: marker))
        let t1 = try top.add(Graphic(Point(99, 100), symbol: marker))
        let hits = map.hitTest(at: screen(100, 100), tolerance: 2)
        #expect(hits == [
            HitTestResult(layer: top, layerName: "top", graphicID: t1), HitTestResult(layer: bottom, layerName: "bottom", graphicID: b2),
            HitTestResult(layer: bottom, layerName: "bottom", graphicID: b1),
        ])
        #expect(map.hitTest(at: screen(100, 100), tolerance: 2, maxResults: 2).count == 2)
        top.isHitTestEnabled = false
        #expect(map.hitTest(at: screen(100, 100), tolerance: 2).map(\.layerName) == ["bottom", "bottom"])
        bottom.view.isHidden = true
        #expect(map.hitTest(at: screen(100, 100), tolerance: 2).isEmpty, "hidden layers are not hit")
        #expect(bottom.topmostHit(mapPoint: Point(100, 100), tolerance: 2, resolution: 1) == b2)
    }

    @Test func resultsCarryTheGraphicItsAttributesAndItsResolvedSymbol() throws {
        let map = makeMap()
        let layer = GraphicsLayer()
        try map.addLayer(layer, named: "Cities")
        let red = Symbol.simpleMarker(SimpleMarkerSymbol(color: .red, size: 12))
        let own = Symbol.simpleMarker(SimpleMarkerSymbol(size: 8))
        layer.renderer = .simple(red)
        let city = try layer.add(Graphic(Point(100, 100), attributes: ["NAME": "Minneapolis", "POP": 382_578]))
        let marked = try layer.add(Graphic(Point(300, 300), symbol: own, attributes: ["NAME": "Duluth"]))
        // No `layer(named:) as? GraphicsLayer`, `graphic(_:)` or `resolvedSymbol(_:)`: the hit has them.
        let hit = try #require(map.hitTest(at: screen(100, 100), tolerance: 2).first)
        #expect(hit.graphicID == city && hit.layer === layer && hit.layerName == "Cities")
        #expect(hit.graphic?.attributes["NAME"] == "Minneapolis" && hit.graphic?.attributes["POP"] == 382_578)
        #expect(hit.graphic?.geometry == .point(Point(100, 100)))
        #expect(hit.resolvedSymbol == red, "the renderer's symbol for a graphic without its own")
        let other = try #require(map.hitTest(at: screen(300, 300), tolerance: 2).first)
        #expect(other.graphicID == marked && other.resolvedSymbol == own, "the graphic's own symbol first")
        #expect("\(hit)" == "\"Cities\" \(city)")
        // The result reads the layer when asked: an update shows, a removal gives nil.
        try layer.update(city) { $0.attributes["POP"] = 400_000 }
        #expect(hit.graphic?.attributes["POP"] == 400_000)
        _ = layer.remove(city)
        #expect(hit.graphic == nil && hit.resolvedSymbol == nil)
    }

    @Test func wrapAroundHitsTheCopyAcrossTheAntimeridian() throws {
        let map = MapView(
            screenSize: ScreenSize(width: 200, height: 100), viewport: Viewport(center: Point(179, 0), resolution: 0.1),
            spatialReference: .wgs84)
        let layer = GraphicsLayer()
        try map.addLayer(layer, named: "g")
        let id = try layer.add(Graphic(Point(-179.5, 0), symbol: .simpleMarker(SimpleMarkerSymbol(size: 10))))
        let drawnAt = map.toScreen(Point(180.5, 0))
        #expect(map.hitTest(at: drawnAt, tolerance: 1).isEmpty, "without wrap-around the copy is not there")
        map.wrapAround = true
        #expect(map.hitTest(at: drawnAt, tolerance: 1).map(\.graphicID) == [id])
    }

    // MARK: Property test: index vs brute force

    enum Kind { case point, line, polygon }

    /// An independent brute-force predicate: marker circles, line width, polygon even-odd or outline.
    static func bruteHits(_ g: Graphic, _ q: Point, tol: Double, res: Double) -> Bool {
        func seg(_ p: Point, _ a: Point, _ b: Point) -> Double {
            let vx = b.x - a.x, vy = b.y - a.y
            let l = vx * vx + vy * vy
            let t = l == 0 ? 0 : max(0, min(1, ((p.x - a.x) * vx + (p.y - a.y) * vy) / l))
            let dx = p.x - (a.x + t * vx), dy = p.y - (a.y + t * vy)
            return (dx * dx + dy * dy).squareRoot()
        }
        switch (g.geometry, g.symbol) {
        case (.point(let p?), .simpleMarker(let m)?):
            return ((q.x - p.x) * (q.x - p.x) + (q.y - p.y) * (q.y - p.y)).squareRoot() <= (m.size / 2 + tol) * res
        case (.polyline(let l), .simpleLine(let s)?):
            let path = l.paths[0]
            return zip(path, path.dropFirst()).contains { seg(q, $0, $1) <= (s.width / 2 + tol) * res }
        case (.polygon(let poly), .simpleFill(let f)?):
            let ring = poly.rings[0]
            var inside = false
            for i in ring.indices {
                let a = ring[i], b = ring[(i + ring.count - 1) % ring.count]
                if (a.y > q.y) != (b.y > q.y), q.x < (b.x - a.x) * (q.y - a.y) / (b.y - a.y) + a.x { inside.toggle() }
            }
            if inside { return true }
            let w = (f.outline?.width ?? 0) / 2
            return ring.indices.contains { seg(q, ring[$0], ring[($0 + 1) % ring.count]) <= (w + tol) * res }
        default:
            return false
        }
    }

    static func randomGraphic(_ r: inout SeededRandom) -> Graphic {
        let c = r.point(in: Envelope(xmin: 0, ymin: 0, xmax: 1000, ymax: 1000))
        switch r.int(in: 0...2) {
        case 0:
            return Graphic(c, symbol: .simpleMarker(SimpleMarkerSymbol(size: r.double(in: 2...30))))
        case 1:
            let pts = (0..<r.int(in: 2...6)).map { _ in Point(c.x + r.double(in: -40...40), c.y + r.double(in: -40...40)) }
            return Graphic(Polyline(paths: [pts]), symbol: .simpleLine(SimpleLineSymbol(width: r.double(in: 1...8))))
        default:
            let n = r.int(in: 3...8)
            let rad = r.double(in: 5...60)
            let ring = (0..<n).map { i -> Point in
                let a = -Double(i) / Double(n) * 2 * Double.pi
                let rr = rad * r.double(in: 0.5...1)
                return Point(c.x + rr * cosine(a), c.y + rr * sine(a))
            }
            return Graphic(Polygon(rings: [ring]), symbol: .simpleFill(SimpleFillSymbol(outline: SimpleLineSymbol(width: r.double(in: 0...6)))))
        }
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func indexedHitTestMatchesBruteForceUnderAddAndRemove(seed: UInt64) throws {
        var r = SeededRandom(seed: seed)
        let layer = GraphicsLayer()
        var truth: [GraphicID: Graphic] = [:]
        let initial = (0..<600).map { _ in Self.randomGraphic(&r) }
        for (id, g) in zip(try layer.add(contentsOf: initial), initial) { truth[id] = g }
        var mismatches: [String] = []
        for round in 0..<20 {
            // Mutate: some adds (one by one, the dynamic part), some removes (tombstones).
            for _ in 0..<r.int(in: 0...60) {
                let g = Self.randomGraphic(&r)
                truth[try layer.add(g)] = g
            }
            let ids = truth.keys.sorted()
            for _ in 0..<r.int(in: 0...60) where !ids.isEmpty {
                let id = ids[r.int(in: 0...(ids.count - 1))]
                if truth.removeValue(forKey: id) != nil { layer.remove(id) }
            }
            for _ in 0..<15 {
                let q = r.point(in: Envelope(xmin: -50, ymin: -50, xmax: 1050, ymax: 1050))
                let tol = r.double(in: 0...12)
                let res = [0.5, 1, 2.5][r.int(in: 0...2)]
                let got = layer.hitTest(mapPoint: q, tolerance: tol, resolution: res)
                let want = truth.filter { Self.bruteHits($0.value, q, tol: tol, res: res) }.map(\.key).sorted(by: >)
                if got != want { mismatches.append("round \(round) q \(q): got \(got) want \(want)") }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(3))")
        #expect(layer.count == truth.count)
    }

    // MARK: Point graphics drawn by a renderer: the precomputed shape vs the general test

    /// Points drawn by a unique value renderer (round, square, offset, picture, text, composite
    /// and non-point symbols, and no symbol) must hit exactly where the same points carrying the
    /// same symbols as their own do: the first layer takes the precomputed per-symbol shape path,
    /// the second the general per-graphic test.
    @Test(arguments: [UInt64(7), 8])
    func rendererPointShapesMatchTheGeneralTest(seed: UInt64) throws {
        var r = SeededRandom(seed: seed)
        let symbols: [Symbol] = [
            .simpleMarker(SimpleMarkerSymbol(style: .circle, size: 14)),
            .simpleMarker(SimpleMarkerSymbol(style: .square, size: 9, xOffset: 4, yOffset: -3)),
            .simpleMarker(SimpleMarkerSymbol(style: .diamond, size: 20, xOffset: -6)),
            .pictureMarker(PictureMarkerSymbol(image: "pin.png", width: 24, height: 10, xOffset: 2, yOffset: 5)),
            .text(TextSymbol(text: "label", fontSize: 11, xOffset: 3)),
            .composite([.simpleMarker(SimpleMarkerSymbol(size: 6)), .text(TextSymbol(text: "x", fontSize: 20, yOffset: 8))]),
            .simpleLine(SimpleLineSymbol(width: 30)),  // cannot draw a point: the bare point is hit
        ]
        let values = (0..<symbols.count).map { UniqueValue(value: "s\($0)", symbol: symbols[$0]) }
        let byRenderer = GraphicsLayer()
        byRenderer.renderer = .uniqueValue(UniqueValueRenderer(field: "kind", uniqueValues: values))
        let ownSymbols = GraphicsLayer()
        var rendered: [Graphic] = []
        var owned: [Graphic] = []
        for _ in 0..<800 {
            let p = r.point(in: Envelope(xmin: 0, ymin: 0, xmax: 400, ymax: 400))
            let k = r.int(in: 0...symbols.count)  // symbols.count: no matching value, no symbol
            rendered.append(Graphic(p, attributes: ["kind": .string("s\(k)")]))
            let own: Symbol? = k < symbols.count && symbols[k]._fitsPointForTests ? symbols[k] : nil
            owned.append(Graphic(p, symbol: own))
        }
        try byRenderer.add(contentsOf: rendered)
        try ownSymbols.add(contentsOf: owned)
        expectSameHits(byRenderer, ownSymbols, queriesIn: Envelope(xmin: -20, ymin: -20, xmax: 420, ymax: 420), &r)
    }
}

/// 3,000 seeded taps in `area` (tolerance 0–12 points, resolution ¼–2) must hit the same
/// graphics in both layers, and hit often enough (over 1,000 hits) for that to mean something.
@MainActor
func expectSameHits(_ got: GraphicsLayer, _ want: GraphicsLayer, queriesIn area: Envelope, _ r: inout SeededRandom) {
    var mismatches: [String] = []
    var hits = 0
    for _ in 0..<3000 {
        let q = r.point(in: area)
        let tol = r.double(in: 0...12)
        let res = [0.25, 0.5, 1, 2][r.int(in: 0...3)]
        let a = got.hitTest(mapPoint: q, tolerance: tol, resolution: res)
        let b = want.hitTest(mapPoint: q, tolerance: tol, resolution: res)
        hits += b.count
        if a != b { mismatches.append("q \(q) tol \(tol) res \(res): \(a) vs \(b)") }
    }
    #expect(mismatches.isEmpty, "\(mismatches.prefix(3))")
    #expect(hits > 1000, "the queries should hit often enough to compare: \(hits)")
}

func sine(_ a: Double) -> Double {
    // Taylor series after range reduction: the test needs no Foundation.
    var x = a.truncatingRemainder(dividingBy: 2 * Double.pi)
    if x > Double.pi { x -= 2 * Double.pi }
    if x < -Double.pi { x += 2 * Double.pi }
    var term = x, sum = x
    for k in 1..<12 {
        term *= -x * x / Double((2 * k) * (2 * k + 1))
        sum += term
    }
    return sum
}

func cosine(_ a: Double) -> Double { sine(a + Double.pi / 2) }

extension Symbol {
    /// Whether the symbol can draw a point (markers, text, composites of those).
    var _fitsPointForTests: Bool {
        switch self {
        case .simpleMarker, .pictureMarker, .text: true
        case .composite(let parts): parts.allSatisfy(\._fitsPointForTests)
        case .simpleLine, .simpleFill: false
        }
    }
}
