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
