import MapSketch
import MapSketchGeometry
import Testing

@MainActor
@Suite struct MapViewLayerStackTests {
    func makeMap(_ sr: SpatialReference? = nil) -> MapView {
        MapView(screenSize: ScreenSize(width: 400, height: 300), viewport: Viewport(center: Point(0, 0), resolution: 1), spatialReference: sr)
    }

    @Test func addInsertNamesLookupRemove() throws {
        let map = makeMap()
        var events: [MapEvent] = []
        map.eventHandler = { events.append($0) }
        let a = GraphicsLayer(), b = GraphicsLayer(), c = GraphicsLayer(), d = GraphicsLayer()
        try map.addLayer(a, named: "A")
        try map.addLayer(b, named: "B")
        try map.insertLayer(c, named: "C", at: 0)
        try map.insertLayer(d, named: "D", at: 2)
        #expect(map.layerNames == ["C", "A", "D", "B"], "bottom to top; index 0 is the bottom")
        #expect(map.layer(named: "D") === d && map.layer(named: "nope") == nil)
        #expect(a.name == "A" && a.mapView === map)
        #expect(throws: MapViewError.duplicateLayerName("A")) { try map.addLayer(GraphicsLayer(), named: "A") }
        #expect(throws: MapViewError.layerIndexOutOfRange(index: 5, count: 4)) { try map.insertLayer(GraphicsLayer(), named: "E", at: 5) }
        #expect(throws: MapViewError.layerIndexOutOfRange(index: -1, count: 4)) { try map.insertLayer(GraphicsLayer(), named: "E", at: -1) }
        #expect(throws: MapViewError.layerAlreadyInAMap("A")) { try map.addLayer(a, named: "A2") }
        let removed = try map.removeLayer(named: "D")
        #expect(removed === d && d.mapView == nil && d.name == nil)
        #expect(throws: MapViewError.noSuchLayer("D")) { try map.removeLayer(named: "D") }
        #expect(map.layerNames == ["C", "A", "B"])
        try map.addLayer(d, named: "D")
        #expect(map.layerNames.last == "D", "a removed layer can join again")
        #expect(events == [
            .layerAdded(name: "A"), .layerAdded(name: "B"), .layerAdded(name: "C"), .layerAdded(name: "D"),
            .layerRemoved(name: "D"), .layerAdded(name: "D"),
        ])
    }

    @Test func firstLayerSetsTheSpatialReference() throws {
        let map = makeMap()
        try map.addLayer(GraphicsLayer(spatialReference: .wgs84), named: "base")
        #expect(map.spatialReference == .wgs84)
        try map.addLayer(GraphicsLayer(spatialReference: .webMercator), named: "second")
        #expect(map.spatialReference == .wgs84, "only the first layer sets it")
        let preset = makeMap(.webMercator)
        try preset.addLayer(GraphicsLayer(spatialReference: .wgs84), named: "g")
        #expect(preset.spatialReference == .webMercator, "a spatial reference given at creation stays")
    }

    @Test func oneTouchDelegateAtATime() throws {
        final class Counter: MapTouchDelegate {
            var taps = 0
            func mapView(_ mapView: MapView, didClickAt screen: ScreenPoint, mapPoint: Point) { taps += 1 }
        }
        let map = makeMap()
        let first = Counter(), second = Counter()
        map.touchDelegate = first
        map.dispatch(.tap(ScreenPoint(x: 1, y: 1)))
        map.touchDelegate = second
        map.dispatch(.tap(ScreenPoint(x: 1, y: 1)))
        map.dispatch(.tap(ScreenPoint(x: 2, y: 2)))
        #expect(first.taps == 1 && second.taps == 2, "setting a new delegate replaces the previous one")
    }

    @Test func eventObserversAreCalledInOrderAndCanBeRemoved() throws {
        let map = makeMap()
        var log: [String] = []
        map.eventHandler = { _ in log.append("handler") }
        let t1 = map.addEventObserver { _ in log.append("one") }
        map.addEventObserver { _ in log.append("two") }
        map.dispatch(.panEnded)
        map.removeEventObserver(t1)
        map.dispatch(.panEnded)
        #expect(log == ["handler", "one", "two", "handler", "two"])
    }

    @Test func pinchAndPanGesturesMoveTheViewport() {
        let map = makeMap()
        var events: [MapEvent] = []
        map.eventHandler = { events.append($0) }
        map.dispatch(.pan(from: ScreenPoint(x: 10, y: 10), to: ScreenPoint(x: 30, y: 10)))
        #expect(map.viewport.center == Point(-20, 0))
        let step = PinchStep(startFocalPoint: ScreenPoint(x: 200, y: 150), focalPoint: ScreenPoint(x: 200, y: 150), scale: 2)
        map.dispatch(.pinch(step))
        #expect(map.viewport.resolution == 0.5)
        #expect(map.viewport.center == Point(-20, 0), "zoomed about the screen centre")
        #expect(events == [.gesture(.pan(from: ScreenPoint(x: 10, y: 10), to: ScreenPoint(x: 30, y: 10))), .gesture(.pinch(step))])
    }

    @Test func wrapAroundFoldsTheCenterAndListsWorldCopies() {
        let map = MapView(screenSize: ScreenSize(width: 360, height: 180), viewport: Viewport(center: Point(170, 0), resolution: 0.5), spatialReference: .wgs84)
        #expect(map.worldWidth == nil && map.visibleWorldShifts == [0], "off by default")
        map.pan(byScreenDeltaX: -40, dy: 0)
        #expect(map.viewport.center.x == 190, "without wrap-around the center leaves the world")
        map.wrapAround = true
        #expect(map.worldWidth == 360)
        map.normalizeCenter()
        #expect(map.viewport.center.x == -170)
        #expect(map.visibleWorldShifts == [-360, 0], "the screen spans the antimeridian: x from -260 to -80")
        map.pan(byScreenDeltaX: 200, dy: 0)  // content right: center moves left by 100°
        #expect(map.viewport.center.x == 90, "-270 folds to 90")
        #expect(map.normalizeX(540) == -180 && map.normalizeX(-180) == -180 && map.normalizeX(179.5) == 179.5)
        let mercator = MapView(screenSize: ScreenSize(width: 100, height: 100), viewport: Viewport(center: Point(0, 0), resolution: 1), spatialReference: .webMercator)
        mercator.wrapAround = true
        #expect(abs((mercator.worldWidth ?? 0) - 40_075_016.685578488) < 1e-6)
        let projected = MapView(screenSize: ScreenSize(width: 100, height: 100), viewport: Viewport(center: Point(0, 0), resolution: 1), spatialReference: SpatialReference(wkid: 32615))
        projected.wrapAround = true
        #expect(projected.worldWidth == nil, "a projected system does not wrap")
    }

    @Test func wrappedGraphicsDrawInEveryVisibleWorldCopy() throws {
        let map = MapView(screenSize: ScreenSize(width: 100, height: 50), viewport: Viewport(center: Point(178, 0), resolution: 1), spatialReference: .wgs84)
        let layer = GraphicsLayer()
        try map.addLayer(layer, named: "g")
        try layer.add(Graphic(Point(-175, 0), symbol: .simpleMarker(SimpleMarkerSymbol(size: 4))))
        #expect(!map.renderSVG().contains("<circle"), "off screen without wrap-around")
        map.wrapAround = true
        #expect(map.visibleWorldShifts == [0, 360])
        #expect(map.renderSVG().contains("<circle cx=\"57\" cy=\"25\" r=\"2\""), "the copy at 185° = -175° + 360°, 7° right of the center")
        map.normalizeCenter()
        #expect(map.viewport.center.x == 178, "already inside the world: unchanged")
    }
}

@MainActor
@Suite struct LayerViewStateTests {
    @Test func drawDuringPanningAndZooming() throws {
        let map = MapView(screenSize: ScreenSize(width: 100, height: 100), viewport: Viewport(center: Point(0, 0), resolution: 1))
        let base = GraphicsLayer(), top = GraphicsLayer()
        try map.addLayer(base, named: "base")
        try map.addLayer(top, named: "top")
        base.view.drawDuringPanning = true
        top.view.drawDuringZooming = true
        #expect(map.navigation == .idle)
        // A real one-finger pan: down, move past the slop, up.
        map.handle(TouchEvent(time: 0, phase: .began, x: 50, y: 50))
        map.handle(TouchEvent(time: 0.05, phase: .moved, x: 80, y: 50))
        #expect(map.navigation == .panning)
        var svg = map.renderSVG()
        #expect(svg.contains("<g id=\"layer-base\">") && svg.contains("<!-- layer top not drawn while panning -->"))
        map.handle(TouchEvent(time: 0.1, phase: .ended, x: 80, y: 50))
        #expect(map.navigation == .idle)
        #expect(map.renderSVG().contains("<g id=\"layer-top\">"))
        map.dispatch(.pinch(PinchStep(startFocalPoint: ScreenPoint(x: 50, y: 50), focalPoint: ScreenPoint(x: 50, y: 50), scale: 1.5)))
        #expect(map.navigation == .zooming)
        svg = map.renderSVG()
        #expect(svg.contains("<!-- layer base not drawn while zooming -->") && svg.contains("<g id=\"layer-top\">"))
    }

    /// Fixed: a layer name holding `--` went into the "not drawn" comment as is, and a text
    /// holding `---` kept a `--` after the old single replacement: both made the SVG malformed.
    @Test func layerCommentsStayWellFormedWhateverTheName() throws {
        let map = MapView(screenSize: ScreenSize(width: 100, height: 100), viewport: Viewport(center: Point(0, 0), resolution: 1))
        try map.addLayer(GraphicsLayer(), named: "a--b---c")
        map.dispatch(.pinch(PinchStep(startFocalPoint: ScreenPoint(x: 50, y: 50), focalPoint: ScreenPoint(x: 50, y: 50), scale: 1.5)))
        let svg = map.renderSVG()
        #expect(svg.contains("<!-- layer a- -b- - -c not drawn while zooming -->"))
        for line in svg.split(separator: "\n") where line.contains("<!--") {
            let inner = line.drop(while: { $0 == " " }).dropFirst(4).dropLast(3)
            #expect(!inner.contains("--"), "a comment holds --: \(line)")
        }
    }

    @Test func hiddenAndOpacity() throws {
        let map = MapView(screenSize: ScreenSize(width: 100, height: 100), viewport: Viewport(center: Point(0, 0), resolution: 1))
        let layer = GraphicsLayer()
        try map.addLayer(layer, named: "g")
        try layer.add(Graphic(Point(0, 0), symbol: .simpleMarker(SimpleMarkerSymbol())))
        layer.view.opacity = 0.25
        #expect(map.renderSVG().contains("<g id=\"layer-g\" opacity=\"0.25\">"))
        layer.view.isHidden = true
        #expect(!map.renderSVG().contains("layer-g") && !layer.isDrawn)
    }
}
