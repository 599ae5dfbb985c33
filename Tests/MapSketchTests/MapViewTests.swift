import MapSketch
import MapSketchGeometry
import Testing

@MainActor
@Suite struct MapViewTests {
    func makeMap() -> MapView {
        MapView(
            screenSize: ScreenSize(width: 400, height: 300),
            viewport: Viewport(center: Point(1000, 2000), resolution: 2), spatialReference: .webMercator)
    }

    /// Off the main actor: the conversions of a transform taken from the map.
    nonisolated static func convert(_ t: ScreenTransform, _ points: [Point]) -> ([ScreenPoint], [Point], Envelope) {
        let screen = points.map { t.toScreen($0) }
        return (screen, screen.map { t.toMap($0) }, t.visibleEnvelope)
    }

    @Test func aScreenTransformConvertsAsTheMapDoesOffTheMainActor() async {
        let map = makeMap()
        map.viewport.rotation = 30
        let points = [Point(1000, 2000), Point(1020, 2020), Point(-5, 7.5)]
        let transform = map.screenTransform
        let (screen, back, envelope) = await Task.detached { Self.convert(transform, points) }.value
        #expect(screen == points.map { map.toScreen($0) })
        #expect(back == screen.map { map.toMap($0) })
        #expect(envelope == map.visibleEnvelope)
        // A value: the map moving afterwards does not change it.
        map.pan(byScreenDeltaX: 50, dy: 0)
        #expect(transform.toScreen(points[0]) == screen[0] && map.toScreen(points[0]) != screen[0])
        #expect(map.screenTransform == ScreenTransform(viewport: map.viewport, screenSize: map.screenSize))
    }

    @Test func screenToMapRoundTrips() {
        let map = makeMap()
        #expect(map.toMap(ScreenPoint(x: 200, y: 150)) == Point(1000, 2000))
        #expect(map.toMap(ScreenPoint(x: 210, y: 140)) == Point(1020, 2020))
        map.viewport.rotation = 30
        let s = ScreenPoint(x: 17, y: 233)
        let back = map.toScreen(map.toMap(s))
        #expect(abs(back.x - s.x) < 1e-9 && abs(back.y - s.y) < 1e-9)
    }

    @Test func panAndZoomKeepAnchor() {
        let map = makeMap()
        map.pan(byScreenDeltaX: 10, dy: 0)
        #expect(map.viewport.center == Point(980, 2000), "content moves right, so the center moves left")
        let anchor = ScreenPoint(x: 50, y: 60)
        let before = map.toMap(anchor)
        map.zoom(by: 2, anchor: anchor)
        #expect(map.viewport.resolution == 1)
        let after = map.toMap(anchor)
        #expect(abs(after.x - before.x) < 1e-9 && abs(after.y - before.y) < 1e-9)
    }
}
