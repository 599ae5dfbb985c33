import Foundation
import MapSketch
import MapSketchGeometry
import MapSketchTestSupport
import Testing

@MainActor
@Suite struct SVGMapRenderTests {
    /// A map with every kind of symbol, two renderers, layer opacity, a hidden layer and a callout.
    static func scene() throws -> MapView {
        let map = MapView(
            screenSize: ScreenSize(width: 400, height: 300), viewport: Viewport(center: Point(200, 150), resolution: 1),
            spatialReference: .webMercator)
        let parcels = GraphicsLayer()
        try map.addLayer(parcels, named: "Parcels")
        try parcels.add(
            Graphic(
                Polygon(rings: [[Point(20, 20), Point(20, 140), Point(180, 140), Point(180, 20)], [Point(60, 60), Point(140, 60), Point(140, 100), Point(60, 100)]]),
                symbol: .simpleFill(SimpleFillSymbol(style: .solid, color: Color.purple.withAlpha(0.25), outline: SimpleLineSymbol(color: .darkGray, width: 2)))))
        try parcels.add(
            Graphic(
                Polygon(rings: [[Point(220, 20), Point(220, 120), Point(380, 120), Point(380, 20)]]),
                symbol: .simpleFill(SimpleFillSymbol(style: .diagonalCross, color: .green, outline: SimpleLineSymbol(style: .dash, color: .black, width: 1)))))
        let roads = GraphicsLayer()
        roads.view.opacity = 0.7
        try map.addLayer(roads, named: "Roads")
        roads.renderer = .uniqueValue(
            UniqueValueRenderer(
                field: "KIND",
                uniqueValues: [
                    UniqueValue(value: "highway", symbol: .simpleLine(SimpleLineSymbol(style: .solid, color: .red, width: 4))),
                    UniqueValue(value: "trail", symbol: .simpleLine(SimpleLineSymbol(style: .dot, color: .darkGray, width: 1.5))),
                ], defaultSymbol: .simpleLine(SimpleLineSymbol(style: .dashDot, color: .blue, width: 1))))
        try roads.add(Graphic(Polyline(paths: [[Point(0, 160), Point(400, 170.12345)]]), attributes: ["KIND": "highway"]))
        try roads.add(Graphic(Polyline(paths: [[Point(10, 290), Point(200, 200), Point(390, 290)]]), attributes: ["KIND": "trail"]))
        try roads.add(Graphic(Polyline(paths: [[Point(10, 180), Point(390, 180)], [Point(200, 175), Point(200, 195)]]), attributes: ["KIND": "lane"]))
        let cities = GraphicsLayer()
        try map.addLayer(cities, named: "Cities")
        cities.renderer = .classBreaks(
            ClassBreaksRenderer(
                field: "POP", minValue: 0,
                breaks: [
                    ClassBreak(label: "small", maxValue: 50_000, symbol: .simpleMarker(SimpleMarkerSymbol(style: .circle, color: .yellow, size: 6))),
                    ClassBreak(label: "big", maxValue: 1e9, symbol: .simpleMarker(SimpleMarkerSymbol(style: .circle, color: .red, size: 14, outline: SimpleLineSymbol(color: .white, width: 2)))),
                ]))
        let styles: [SimpleMarkerStyle] = [.square, .diamond, .cross, .x, .triangle]
        for (i, style) in styles.enumerated() {
            try cities.add(Graphic(Point(40 + Double(i) * 30, 230), symbol: .simpleMarker(SimpleMarkerSymbol(style: style, color: .blue, size: 12, angle: i == 1 ? 15 : 0))))
        }
        try cities.add(Graphic(Point(220, 240), attributes: ["POP": 1200]))
        try cities.add(
            Graphic(
                Point(300, 240), attributes: ["POP": 382_578, "NAME": "Minneapolis & St. Paul"],
                infoTemplate: .callout(CalloutTemplate(title: "${NAME}", detail: "Population ${POP}"))))
        try cities.add(Graphic(Point(350, 250), symbol: .pictureMarker(PictureMarkerSymbol(image: "pin.png", width: 16, height: 24, yOffset: 12))))
        try cities.add(Graphic(Point(340, 280), symbol: .text(TextSymbol(text: "<Downtown>", color: .darkGray, fontSize: 10))))
        try cities.add(Graphic(Point(370, 200), symbol: .composite([.simpleMarker(SimpleMarkerSymbol(size: 10)), .text(TextSymbol(text: "X", yOffset: 10))])))
        let hidden = GraphicsLayer()
        hidden.view.isHidden = true
        try map.addLayer(hidden, named: "Hidden")
        try hidden.add(Graphic(Point(200, 150), symbol: .simpleMarker(SimpleMarkerSymbol(size: 100))))
        // Tap the big city: the callout shows.
        let p = map.toScreen(Point(302, 241))
        map.handle(TouchEvent(time: 0, phase: .began, x: p.x, y: p.y))
        map.handle(TouchEvent(time: 0.1, phase: .ended, x: p.x, y: p.y))
        return map
    }

    @Test func mapRenderMatchesTheGoldenFile() throws {
        let map = try Self.scene()
        #expect(map.callout?.title == "Minneapolis & St. Paul")
        let svg = map.renderSVG()
        #expect(svg == (try Self.scene()).renderSVG(), "deterministic")
        let golden = "Tests/Golden/MapSketch/map-render.svg"
        if ProcessInfo.processInfo.environment["MAPSKETCH_RECORD_GOLDEN"] == "1" {
            try Data(svg.utf8).write(to: Fixtures.url(golden), options: .atomic)
            return
        }
        let expected = try Fixtures.string(golden)
        if svg != expected {
            let actual = Fixtures.url("Tests/Golden/MapSketch/map-render.actual.svg")
            try? Data(svg.utf8).write(to: actual, options: .atomic)
            Issue.record("SVG differs from \(golden); actual written to \(actual.path) (set MAPSKETCH_RECORD_GOLDEN=1 to record)")
        }
    }

    @Test func renderStructure() throws {
        let map = try Self.scene()
        let svg = map.renderSVG()
        let order = ["layer-Parcels", "layer-Roads", "layer-Cities", "id=\"callout\""].map { svg.range(of: $0)?.lowerBound }
        #expect(order.allSatisfy { $0 != nil })
        #expect(zip(order, order.dropFirst()).allSatisfy { a, b in a! < b! }, "bottom to top, then the callout")
        #expect(svg.contains("<g id=\"layer-Roads\" opacity=\"0.7\">"))
        #expect(!svg.contains("layer-Hidden"), "hidden layers are not drawn")
        #expect(svg.contains("stroke-dasharray=\"1.5 3\""), "the trail's dots")
        #expect(svg.contains("Minneapolis &amp; St. Paul"))
        #expect(svg.contains("&lt;Downtown&gt;"))
        #expect(!svg.contains("-0 ") && !svg.contains("\"-0\""), "no negative zero")
        map.dismissCallout()
        #expect(!map.renderSVG().contains("callout"))
        map.layer(named: "Roads")?.view.opacity = 1
        #expect(map.renderSVG().contains("<g id=\"layer-Roads\">"))
    }
}
