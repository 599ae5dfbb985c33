@_spi(MapSketchInternal) import MapSketch
import MapSketchGeometry
import MapSketchTestSupport
import Testing

@MainActor
@Suite struct GraphicsLayerTests {
    let marker = Symbol.simpleMarker(SimpleMarkerSymbol(color: .blue))
    let line = Symbol.simpleLine(SimpleLineSymbol(color: .red, width: 2))
    let fill = Symbol.simpleFill(SimpleFillSymbol())

    @Test func addAssignsIncreasingIDsAndRemoveByID() throws {
        let layer = GraphicsLayer()
        let a = try layer.add(Graphic(Point(1, 1), symbol: marker))
        let more = try layer.add(contentsOf: [Graphic(Point(2, 2)), Graphic(Point(3, 3))])
        #expect(a < more[0] && more[0] < more[1])
        #expect(layer.count == 3)
        #expect(layer.graphicIDs == [a] + more)
        let removed = layer.remove(more[0])
        #expect(removed?.geometry == .point(Point(2, 2)))
        #expect(layer.remove(more[0]) == nil, "already removed")
        #expect(layer.graphic(more[0]) == nil)
        #expect(layer.graphic(more[1])?.geometry == .point(Point(3, 3)), "ids are stable after a removal")
        #expect(layer.count == 2)
        layer.removeAll()
        #expect(layer.count == 0 && layer.graphics.isEmpty)
        let b = try layer.add(Graphic(Point(0, 0)))
        #expect(b > more[1], "ids are never reused")
    }

    @Test func ownSymbolMismatchIsThrownAndAddsNothing() throws {
        let layer = GraphicsLayer()
        let polyline = Polyline(paths: [[Point(0, 0), Point(1, 1)]])
        #expect(throws: GraphicsLayerError.symbolMismatch(index: 1, symbolKind: .simpleMarker, geometryType: .polyline)) {
            try layer.add(contentsOf: [Graphic(Point(0, 0), symbol: marker), Graphic(polyline, symbol: marker)])
        }
        #expect(layer.count == 0, "a bad batch adds nothing")
        #expect(throws: GraphicsLayerError.nonFiniteGeometry(index: 0)) {
            try layer.add(Graphic(Point(.nan, 0)))
        }
        #expect(throws: GraphicsLayerError.noSuchGraphic(GraphicID(rawValue: 99))) {
            try layer.update(GraphicID(rawValue: 99)) { _ in }
        }
    }

    @Test func ownSymbolWinsOverTheRenderer() throws {
        let layer = GraphicsLayer()
        let own = try layer.add(Graphic(Point(0, 0), symbol: marker))
        let plain = try layer.add(Graphic(Point(1, 1)))
        #expect(layer.resolvedSymbol(plain) == nil, "no symbol and no renderer")
        let rs = Symbol.simpleMarker(SimpleMarkerSymbol(style: .square, color: .red))
        layer.renderer = .simple(rs)
        #expect(layer.resolvedSymbol(own) == marker)
        #expect(layer.resolvedSymbol(plain) == rs)
    }

    @Test func rendererMismatchIsReportedNotHidden() throws {
        let layer = GraphicsLayer()
        let map = MapView(screenSize: ScreenSize(width: 100, height: 100), viewport: Viewport(center: Point(0, 0), resolution: 1))
        try map.addLayer(layer, named: "g")
        var events: [MapEvent] = []
        map.addEventObserver { events.append($0) }
        let lineID = try layer.add(Graphic(Polyline(paths: [[Point(-10, 0), Point(10, 0)]])))
        _ = try layer.add(Graphic(Point(5, 5)))
        layer.renderer = .simple(marker)
        #expect(layer.symbolMismatchCount == 1)
        let m = layer.symbolMismatches()
        #expect(m == [SymbolMismatch(layerName: "g", graphicID: lineID, symbolKind: .simpleMarker, geometryType: .polyline, fromRenderer: true)])
        let svg = map.renderSVG()
        #expect(svg.contains("<!-- symbol mismatch: graphic #\(lineID.rawValue) in layer &quot;g&quot;: a simpleMarker symbol from the renderer cannot draw a polyline -->"))
        #expect(events.contains(.symbolMismatch(m[0])))
        layer.renderer = .simple(.composite([marker, line]))
        #expect(layer.symbolMismatchCount == 2, "a composite fits only what all its parts fit")
        layer.renderer = .simple(.text(TextSymbol(text: "x")))
        #expect(layer.symbolMismatchCount == 0, "text fits every geometry")
    }

    @Test func classBreaksRendererResolvesPerGraphicAndDataChangedReResolves() throws {
        let layer = GraphicsLayer()
        let small = Symbol.simpleMarker(SimpleMarkerSymbol(size: 4))
        let big = Symbol.simpleMarker(SimpleMarkerSymbol(size: 20))
        layer.renderer = .classBreaks(ClassBreaksRenderer(field: "v", breaks: [ClassBreak(maxValue: 10, symbol: small), ClassBreak(maxValue: 100, symbol: big)]))
        let a = try layer.add(Graphic(Point(0, 0), attributes: ["v": 5]))
        let b = try layer.add(Graphic(Point(0, 0), attributes: ["v": 50]))
        let c = try layer.add(Graphic(Point(0, 0), attributes: ["v": 500]))
        #expect(layer.resolvedSymbol(a) == small)
        #expect(layer.resolvedSymbol(b) == big)
        #expect(layer.resolvedSymbol(c) == nil)
        try layer.update(a) { $0.attributes["v"] = 60 }
        #expect(layer.resolvedSymbol(a) == big, "update re-resolves")
        layer.dataChanged()
        #expect(layer.resolvedSymbol(a) == big)
    }

    @Test func updateKeepsIDAndOrderAndMovesTheGraphic() throws {
        let layer = GraphicsLayer()
        let a = try layer.add(Graphic(Point(0, 0), symbol: marker))
        let b = try layer.add(Graphic(Point(100, 100), symbol: marker))
        try layer.update(a) { $0.geometry = .point(Point(100, 100)) }
        #expect(layer.graphicIDs == [a, b])
        #expect(layer.hitTest(mapPoint: Point(100, 100), tolerance: 1, resolution: 1) == [b, a])
        #expect(layer.hitTest(mapPoint: Point(0, 0), tolerance: 1, resolution: 1).isEmpty)
        #expect(throws: GraphicsLayerError.symbolMismatch(index: 0, symbolKind: .simpleLine, geometryType: .point)) {
            try layer.update(a) { $0.symbol = line }
        }
        #expect(layer.graphic(a)?.symbol == marker, "a rejected update leaves the graphic unchanged")
    }

    @Test func graphicsReprojectIntoTheMapSpatialReference() throws {
        let map = MapView(
            screenSize: ScreenSize(width: 100, height: 100), viewport: Viewport(center: Point(0, 0), resolution: 1000),
            spatialReference: .webMercator)
        let layer = GraphicsLayer(spatialReference: .wgs84)
        _ = try layer.add(Graphic(Point(180, 0)))
        try map.addLayer(layer, named: "wgs")
        let later = try layer.add(Graphic(Point(-90, 45)))
        let first = try #require(layer.graphics.first?.geometry)
        guard case .point(let p?) = first else { Issue.record("not a point"); return }
        #expect(abs(p.x - 20_037_508.342789244) < 1e-6 && abs(p.y) < 1e-6)
        guard case .point(let q?) = layer.graphic(later)?.geometry else { Issue.record("not a point"); return }
        #expect(abs(q.x + 10_018_754.171394622) < 1e-6 && abs(q.y - 5_621_521.486192066) < 1e-3)
        let utm = GraphicsLayer(spatialReference: SpatialReference(wkid: 32615))
        try map.addLayer(utm, named: "utm")
        #expect(throws: GraphicsLayerError.cannotProject(from: SpatialReference(wkid: 32615), to: .webMercator)) {
            try utm.add(Graphic(Point(0, 0)))
        }
    }

    @Test func manyRemovalsCompactWithoutLosingGraphics() throws {
        let layer = GraphicsLayer()
        let ids = try layer.add(contentsOf: (0..<5000).map { Graphic(Point(Double($0), 0), symbol: marker) })
        for id in ids where id.rawValue % 3 != 0 { layer.remove(id) }
        #expect(layer.count == 1667)
        for id in ids {
            let present = layer.graphic(id) != nil
            #expect(present == (id.rawValue % 3 == 0))
        }
        #expect(layer.hitTest(mapPoint: Point(300, 0), tolerance: 0.5, resolution: 0.1) == [ids[300]])
        #expect(layer.hitTest(mapPoint: Point(301, 0), tolerance: 0.5, resolution: 0.1).isEmpty)
    }
}

@MainActor
@Suite struct GraphicsLayerMoveTests {
    @Test func movingALayerToAnotherMapProjectsFromWhereItsGraphicsAre() throws {
        let mercator = MapView(screenSize: ScreenSize(width: 10, height: 10), viewport: Viewport(center: Point(0, 0), resolution: 1), spatialReference: .webMercator)
        let geographic = MapView(screenSize: ScreenSize(width: 10, height: 10), viewport: Viewport(center: Point(0, 0), resolution: 1), spatialReference: .wgs84)
        let layer = GraphicsLayer(spatialReference: .wgs84)
        let id = try layer.add(Graphic(Point(90, 45)))
        try mercator.addLayer(layer, named: "g")
        try mercator.removeLayer(named: "g")
        try geographic.addLayer(layer, named: "g")
        guard case .point(let p?) = layer.graphic(id)?.geometry else { Issue.record("not a point"); return }
        #expect(abs(p.x - 90) < 1e-9 && abs(p.y - 45) < 1e-9, "back in degrees, not projected twice: \(p)")
    }

    @Test func attributesWithShiftingKeysLandInTheirColumns() throws {
        // Key sets that grow, shrink and reorder from graphic to graphic and from call to call
        // (the layer compares each key with the previous graphic's at the same position).
        let layer = GraphicsLayer()
        var r = SeededRandom(seed: 5)
        let names = ["A", "B", "C", "D", "a field name longer than sixteen bytes", "F", "G", "H", "I", "J"]
        var expected: [GraphicID: [String: AttributeValue]] = [:]
        for call in 0..<12 {
            if call == 8 {
                layer.removeAll()
                expected = [:]
            }
            var batch: [Graphic] = []
            for i in 0..<(call % 3 == 0 ? 1 : 40) {
                var a: [String: AttributeValue] = [:]
                for name in names where r.int(in: 0...2) != 0 {
                    switch r.int(in: 0...4) {
                    case 0: a[name] = .integer(i)
                    case 1: a[name] = .string("v\(r.int(in: 0...3))")
                    case 2: a[name] = .null
                    case 3: a[name] = .double(Double(i) / 2)
                    default: a[name] = .string(name)
                    }
                }
                batch.append(Graphic(Point(Double(i), Double(call)), attributes: a))
            }
            for (id, g) in zip(try layer.add(contentsOf: batch), batch) { expected[id] = g.attributes }
        }
        #expect(layer.count == expected.count)
        for (id, attributes) in expected { #expect(layer.graphic(id)?.attributes == attributes, "\(id)") }
        for column in layer.attributeColumns where column.kind == .string {
            #expect(column.storage.distinctStringCount <= 5, "\(column.name): strings interned once")
        }
    }
}
