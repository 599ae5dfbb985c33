import Foundation
@_spi(MapSketchInternal) import MapSketch
import MapSketchGeometry
import MapSketchTestSupport
import Testing

/// Loading graphics as columns (`GraphicsLayer.add(columns:)`) gives the same layer as adding
/// the same graphics one by one: the same graphics back, the same symbols, hits, callouts and
/// SVG; and a bad batch adds nothing and says which row or column is wrong.
@MainActor
@Suite struct GraphicColumnsTests {
    static let states = ["MN", "WI", "IA", "ND", "a value longer than sixteen bytes"]

    /// A batch of points, lines and polygons (some multipart, some with z) with an integer, a
    /// string, a double (sometimes missing) and a mixed column.
    static func batch(_ r: inout SeededRandom, count: Int, pointsOnly: Bool = false) -> GraphicColumns {
        var geometry = GeometryColumn()
        var ids: [Int] = [], names: [String] = [], heights: [AttributeValue?] = [], mixed: [AttributeValue?] = []
        for i in 0..<count {
            let c = r.point(in: Envelope(xmin: 0, ymin: 0, xmax: 1000, ymax: 1000))
            switch pointsOnly ? 0 : r.int(in: 0...5) {
            case 0, 1: geometry.appendPoint(x: c.x, y: c.y)
            case 2:
                geometry.append(.polyline(Polyline(paths: [[c, Point(c.x + 20, c.y + 5), Point(c.x + 30, c.y - 10)]])))
            case 3:
                geometry.append(
                    .polygon(
                        Polygon(rings: [[c, Point(c.x, c.y + 15), Point(c.x + 15, c.y + 15), Point(c.x + 15, c.y)]])))
            case 4:
                geometry.append(
                    .polyline(
                        Polyline(paths: [[c, Point(c.x + 9, c.y)], [Point(c.x, c.y + 9), Point(c.x + 9, c.y + 9)]])))
            default: geometry.append(.point(Point(x: c.x, y: c.y, z: 12)))
            }
            ids.append(i)
            names.append(states[r.int(in: 0...(states.count - 1))])
            heights.append(r.int(in: 0...4) == 0 ? nil : .double(r.double(in: 0...100)))
            mixed.append([.integer(1), .string("one"), .null, nil][r.int(in: 0...3)])
        }
        return GraphicColumns(
            geometry: geometry,
            attributes: [
                AttributeColumn("ID", integers: ids), AttributeColumn("STATE", strings: names),
                AttributeColumn("HEIGHT", values: heights), AttributeColumn("MIXED", values: mixed),
            ])
    }

    static func renderer() -> Renderer {
        .uniqueValue(
            UniqueValueRenderer(
                field: "STATE",
                uniqueValues: [
                    UniqueValue(value: "MN", symbol: .simpleMarker(SimpleMarkerSymbol(size: 14))),
                    UniqueValue(value: "WI", symbol: .simpleLine(SimpleLineSymbol(width: 6))),
                    UniqueValue(
                        value: "IA", symbol: .simpleFill(SimpleFillSymbol(outline: SimpleLineSymbol(width: 4)))),
                ], defaultSymbol: .text(TextSymbol(text: "?"))))
    }

    @Test(arguments: [UInt64(1), 2])
    func columnsLoadLikeGraphics(seed: UInt64) throws {
        var r = SeededRandom(seed: seed)
        let columns = Self.batch(&r, count: 700)
        let graphics = (0..<columns.count).map { columns.graphic(at: $0) }
        let byColumns = GraphicsLayer()
        let byGraphics = GraphicsLayer()
        byColumns.renderer = Self.renderer()
        byGraphics.renderer = Self.renderer()
        let range = try byColumns.add(columns: columns)
        let ids = try byGraphics.add(contentsOf: graphics)
        #expect(Array(range) == ids)
        #expect(byColumns.graphics == graphics && byGraphics.graphics == graphics)
        #expect(byColumns.symbolMismatchCount == byGraphics.symbolMismatchCount && byColumns.symbolMismatchCount > 0)
        for id in ids { #expect(byColumns.resolvedSymbol(id) == byGraphics.resolvedSymbol(id)) }
        expectSameHits(byColumns, byGraphics, queriesIn: Envelope(xmin: -20, ymin: -20, xmax: 1020, ymax: 1020), &r)
        // A second batch joins the first; a field new to the layer is missing on the earlier rows.
        var more = Self.batch(&r, count: 50, pointsOnly: true)
        more.attributes.append(AttributeColumn("NEW", bools: (0..<50).map { $0 % 2 == 0 }))
        let second = try byColumns.add(columns: more)
        #expect(byColumns.graphic(ids[0])?.attributes["NEW"] == nil)
        #expect(byColumns.graphic(second.lowerBound)?.attributes["NEW"] == .bool(true))
        #expect(byColumns.graphic(second.lowerBound) == more.graphic(at: 0))
        #expect(byColumns.count == 750)
    }

    @Test func removalsPastCompactionKeepEveryColumn() throws {
        var r = SeededRandom(seed: 9)
        let layer = GraphicsLayer()
        layer.renderer = Self.renderer()
        var columns = Self.batch(&r, count: 3_000)
        columns.infoTemplate = .callout(CalloutTemplate(title: "${STATE} #${ID}"))
        let ids = Array(try layer.add(columns: columns))
        for (row, id) in ids.enumerated() where row % 3 != 0 { layer.remove(id) }
        #expect(layer.count == 1_000)
        for (row, id) in ids.enumerated() {
            #expect(layer.graphic(id) == (row % 3 == 0 ? columns.graphic(at: row) : nil))
        }
        let kept = ids.enumerated().filter { $0.offset % 3 == 0 }
        let reference = GraphicsLayer()
        reference.renderer = Self.renderer()
        try reference.add(contentsOf: kept.map { columns.graphic(at: $0.offset) })
        for (k, (row, id)) in kept.enumerated() {
            #expect(layer.resolvedSymbol(id) == reference.resolvedSymbol(GraphicID(rawValue: k)), "row \(row)")
            #expect(
                layer.calloutContent(id, screen: ScreenPoint(x: 0, y: 0), mapPoint: Point(0, 0))?.title
                    == "\(columns.attributes[1][row].map(\.displayString) ?? "") #\(row)")
        }
        #expect(layer.symbolMismatchCount == reference.symbolMismatchCount)
        let later = try layer.add(columns: Self.batch(&r, count: 10))
        #expect(layer.graphic(later.lowerBound) != nil && later.lowerBound.rawValue == 3_000)
    }

    @Test func bulkPointsRenderTheSameSVG() throws {
        var r = SeededRandom(seed: 5)
        let columns = Self.batch(&r, count: 300, pointsOnly: true)
        func render(_ add: (GraphicsLayer) throws -> Void) throws -> String {
            let map = MapView(
                screenSize: ScreenSize(width: 200, height: 200),
                viewport: Viewport(center: Point(500, 500), resolution: 5))
            let layer = GraphicsLayer()
            try map.addLayer(layer, named: "points")
            layer.renderer = Self.renderer()
            try add(layer)
            return map.renderSVG()
        }
        let a = try render { try $0.add(columns: columns) }
        let b = try render { try $0.add(contentsOf: (0..<columns.count).map { columns.graphic(at: $0) }) }
        #expect(a == b && a.contains("<circle"))
    }

    @Test func aBadBatchAddsNothingAndSaysWhere() throws {
        let layer = GraphicsLayer()
        let points = GeometryColumn(x: [0, 1, 2], y: [0, 1, 2])
        #expect(throws: GraphicsLayerError.columnLength(field: "ID", expected: 3, found: 2)) {
            try layer.add(
                columns: GraphicColumns(geometry: points, attributes: [AttributeColumn("ID", integers: [1, 2])]))
        }
        #expect(throws: GraphicsLayerError.duplicateField("ID")) {
            try layer.add(
                columns: GraphicColumns(
                    geometry: points,
                    attributes: [
                        AttributeColumn("ID", integers: [1, 2, 3]), AttributeColumn("ID", doubles: [1, 2, 3]),
                    ]))
        }
        var mixed = points
        mixed.append(.polyline(Polyline(paths: [[Point(0, 0), Point(1, 1)]])))
        #expect(throws: GraphicsLayerError.symbolMismatch(index: 3, symbolKind: .simpleMarker, geometryType: .polyline))
        {
            try layer.add(columns: GraphicColumns(geometry: mixed, symbol: .simpleMarker(SimpleMarkerSymbol())))
        }
        #expect(throws: GraphicsLayerError.symbolMismatch(index: 0, symbolKind: .simpleLine, geometryType: .point)) {
            try layer.add(columns: GraphicColumns(geometry: points, symbol: .simpleLine(SimpleLineSymbol())))
        }
        #expect(throws: GraphicsLayerError.nonFiniteGeometry(index: 1)) {
            try layer.add(columns: GraphicColumns(geometry: GeometryColumn(x: [0, .infinity], y: [0, 0])))
        }
        #expect(layer.count == 0)
        #expect(
            GraphicsLayerError.columnLength(field: "ID", expected: 3, found: 2).description
                == "attribute column \"ID\": expected 3 rows (one per geometry), found 2")
    }

    @Test func columnsAreProjectedIntoTheMap() throws {
        let map = MapView(
            screenSize: ScreenSize(width: 100, height: 100), viewport: Viewport(center: Point(0, 0), resolution: 1000),
            spatialReference: .webMercator)
        let layer = GraphicsLayer(spatialReference: .wgs84)
        try map.addLayer(layer, named: "wgs")
        var geometry = GeometryColumn(x: [10, -90], y: [20, 45])
        geometry.append(.polyline(Polyline(paths: [[Point(0, 0), Point(1, 1)]])))
        geometry.append(
            .polygon(
                Polygon(rings: [
                    [Point(0, 0), Point(0, 1), Point(1, 1)], [Point(0.2, 0.2), Point(0.3, 0.2), Point(0.3, 0.3)],
                ])))
        let ids = try layer.add(columns: GraphicColumns(geometry: geometry))
        for (row, id) in ids.enumerated() {
            let expected = try GeometryEngine.project(geometry[row], from: .wgs84, to: .webMercator)
            #expect(layer.graphic(id)?.geometry == expected, "row \(row)")
        }
    }

    @Test func calloutsComeFromTheColumns() throws {
        let layer = GraphicsLayer()
        let template = InfoTemplate.callout(
            CalloutTemplate(title: "${NAME}", detail: "Pop. ${POP}, ${AREA} km², ${MISSING}${NOTE}${ bad"))
        let ids = try layer.add(
            columns: GraphicColumns(
                geometry: GeometryColumn(x: [0, 1], y: [0, 1]),
                attributes: [
                    AttributeColumn("NAME", strings: ["Minneapolis", "St. Paul"]),
                    AttributeColumn("POP", integers: [382_578, 285_068]),
                    AttributeColumn("AREA", values: [.double(151.3), nil]),
                    AttributeColumn("NOTE", values: [.null, "capital"]),
                ], infoTemplate: template))
        for id in ids {
            let g = try #require(layer.graphic(id))
            let content = layer.calloutContent(id, screen: ScreenPoint(x: 0, y: 0), mapPoint: Point(0, 0))
            #expect(content == template.content(for: g, screen: ScreenPoint(x: 0, y: 0), mapPoint: Point(0, 0)))
        }
        #expect(
            layer.calloutContent(ids.lowerBound, screen: ScreenPoint(x: 0, y: 0), mapPoint: Point(0, 0))?.detail
                == "Pop. 382578, 151.3 km², ${ bad")
        layer.calloutsEnabled = false
        #expect(layer.calloutContent(ids.lowerBound, screen: ScreenPoint(x: 0, y: 0), mapPoint: Point(0, 0)) == nil)
    }
}
