import MapSketch
import MapSketchGeometry
import Testing

@MainActor
@Suite struct CalloutTests {
    final class Recorder: MapTouchDelegate {
        var taps: [ScreenPoint] = []
        var allowCallouts = true
        func mapView(_ mapView: MapView, didClickAt screen: ScreenPoint, mapPoint: Point) { taps.append(screen) }
        func mapViewShouldShowCallouts(_ mapView: MapView) -> Bool { allowCallouts }
    }

    func setUp() throws -> (MapView, GraphicsLayer, GraphicID, [MapEvent]) {
        let map = MapView(screenSize: ScreenSize(width: 400, height: 300), viewport: Viewport(center: Point(200, 150), resolution: 1))
        let layer = GraphicsLayer()
        try map.addLayer(layer, named: "Cities")
        let id = try layer.add(
            Graphic(
                Point(100, 200), symbol: .simpleMarker(SimpleMarkerSymbol(size: 12)),
                attributes: ["CITY_NAME": "Minneapolis", "POPULATION": 382_578, "AREA": 151.3, "CAPITAL": false, "NOTE": .null],
                infoTemplate: .callout(CalloutTemplate(title: "${CITY_NAME}", detail: "Pop. ${POPULATION}, ${AREA} km², capital ${CAPITAL}${NOTE}${MISSING}"))))
        return (map, layer, id, [])
    }

    func tap(_ map: MapView, _ p: ScreenPoint, at t: Double = 0) {
        map.handle(TouchEvent(time: t, phase: .began, x: p.x, y: p.y))
        map.handle(TouchEvent(time: t + 0.1, phase: .ended, x: p.x, y: p.y))
    }

    @Test func tapOnAGraphicShowsItsCalloutWithTokensReplaced() throws {
        let (map, _, id, _) = try setUp()
        var events: [MapEvent] = []
        map.eventHandler = { events.append($0) }
        let delegate = Recorder()
        map.touchDelegate = delegate
        tap(map, map.toScreen(Point(103, 201)))
        let c = try #require(map.callout)
        #expect(c.layerName == "Cities" && c.graphicID == id)
        #expect(c.title == "Minneapolis")
        #expect(c.detail == "Pop. 382578, 151.3 km², capital false")
        #expect(delegate.taps.count == 1, "the touch delegate still hears the tap")
        #expect(events.contains(.calloutShown(c)))
        #expect(events.first == .gesture(.tap(map.toScreen(Point(103, 201)))))
        // A tap on empty map dismisses it.
        tap(map, ScreenPoint(x: 390, y: 290), at: 1)
        #expect(map.callout == nil)
        #expect(events.last == .calloutDismissed(c))
    }

    @Test func noTemplateOrCalloutsOffOrDelegateSaysNoShowsNothing() throws {
        let (map, layer, id, _) = try setUp()
        let p = map.toScreen(Point(100, 200))
        layer.calloutsEnabled = false
        tap(map, p)
        #expect(map.callout == nil, "callouts off for the layer")
        layer.calloutsEnabled = true
        let delegate = Recorder()
        delegate.allowCallouts = false
        map.touchDelegate = delegate
        tap(map, p, at: 1)
        #expect(map.callout == nil, "the touch delegate (e.g. a sketch) says no")
        #expect(delegate.taps.count == 1)
        map.touchDelegate = nil
        try layer.update(id) { $0.infoTemplate = nil }
        tap(map, p, at: 2)
        #expect(map.callout == nil, "no info template, no callout")
        layer.isHitTestEnabled = false
        try layer.update(id) { $0.infoTemplate = .callout(CalloutTemplate(title: "x")) }
        tap(map, p, at: 3)
        #expect(map.callout == nil, "hit tests off for the layer")
    }

    @Test func customTemplateContent() throws {
        let (map, layer, id, _) = try setUp()
        let custom = CustomInfoTemplate(id: "coords") { g, _, mapPoint in
            CalloutContent(title: "custom", custom: "\(g.attributes["CITY_NAME"]?.displayString ?? "?") @ \(Int(mapPoint.x)),\(Int(mapPoint.y))")
        }
        try layer.update(id) { $0.infoTemplate = .custom(custom) }
        tap(map, map.toScreen(Point(101, 202)))
        #expect(map.callout?.content == CalloutContent(title: "custom", detail: "", custom: "Minneapolis @ 101,202"))
        #expect(InfoTemplate.custom(custom) == .custom(CustomInfoTemplate(id: "coords") { _, _, _ in CalloutContent() }), "templates compare by id")
    }

    /// Main-actor state a template reads: a class that is not `Sendable`.
    final class TapLog {
        var count = 0
    }

    @Test func aCustomTemplateRunsOnTheMainActorAndReadsTheMap() throws {
        let (map, layer, id, _) = try setUp()
        let log = TapLog()
        // Captures a map and a non-Sendable object and calls main-actor API directly: no
        // `@Sendable`, no `MainActor.assumeIsolated`.
        let custom = CustomInfoTemplate(id: "where") { graphic, screen, mapPoint in
            log.count += 1
            let drawn = map.toScreen(mapPoint)
            return CalloutContent(
                title: graphic.attributes["CITY_NAME"]?.displayString ?? "?",
                detail: "tap \(log.count) at \(Int(drawn.x)),\(Int(drawn.y)) of \(map.layerNames.joined())")
        }
        try layer.update(id) { $0.infoTemplate = .custom(custom) }
        tap(map, map.toScreen(Point(100, 200)))
        #expect(map.callout?.content == CalloutContent(title: "Minneapolis", detail: "tap 1 at 100,100 of Cities"))
        #expect(log.count == 1)
    }

    @Test func topmostGraphicWithATemplateWins() throws {
        let (map, layer, _, _) = try setUp()
        let upper = GraphicsLayer()
        try map.addLayer(upper, named: "Upper")
        let top = try upper.add(Graphic(Point(100, 200), symbol: .simpleMarker(SimpleMarkerSymbol()), infoTemplate: .callout(CalloutTemplate(title: "top"))))
        _ = try upper.add(Graphic(Point(100, 200), symbol: .simpleMarker(SimpleMarkerSymbol())))  // no template, topmost
        tap(map, map.toScreen(Point(100, 200)))
        #expect(map.callout?.graphicID == top && map.callout?.layerName == "Upper")
        upper.remove(top)
        #expect(map.callout == nil, "removing the graphic dismisses its callout")
        tap(map, map.toScreen(Point(100, 200)), at: 1)
        #expect(map.callout?.layerName == "Cities")
        try map.removeLayer(named: "Cities")
        #expect(map.callout == nil, "removing the layer dismisses its callout")
        _ = layer
    }

    @Test func tokenSubstitutionEdgeCases() {
        #expect(CalloutTemplate.substitute("${A}${A}-${B", ["A": "x"]) == "xx-${B", "an unclosed token stays")
        #expect(CalloutTemplate.substitute("no tokens", [:]) == "no tokens")
        #expect(CalloutTemplate.substitute("$${A}", ["A": 1]) == "$1")
        #expect(CalloutTemplate.substitute("${}", ["": "empty"]) == "empty")
    }
}
