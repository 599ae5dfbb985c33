// BEGIN gesture-test
import FieldRules
import MapSketch
import MapSketchGeometry
import MapSketchReplay
import MapSketchTesting
import Testing

/// Fingers on the map, in code: taps sketch a line, a tap 2 points from the last vertex is refused
/// by the team's rule, and the line is checked against its golden WKT.
@Suite @MainActor struct GestureTests {
    /// A live map: 400 × 400 pt, 1 m per point, centred on (0, 0), with the rule on its sketch.
    @Test func tapsOnALiveMapSketchALineAndTheRuleRefusesAShortSegment() throws {
        let map = MapView(
            screenSize: ScreenSize(width: 400, height: 400),
            viewport: Viewport(center: Point(0, 0), resolution: 1),
            spatialReference: .webMercator)
        let sketch = try SketchLayer(geometryType: .polyline)
        sketch.validation = SketchValidation(custom: FieldRules.shortSegment)
        try map.addLayer(sketch, named: "Sketch")
        map.touchDelegate = sketch

        var fingers = GestureDriver(map: map)  // each gesture on the map's virtual clock
        fingers.tap(at: ScreenPoint(x: 200, y: 200))  // map (0, 0)
        fingers.tap(at: ScreenPoint(x: 300, y: 200))  // map (100, 0)
        fingers.tap(at: ScreenPoint(x: 302, y: 200))  // 2 m further: refused by shortSegment
        fingers.tap(at: ScreenPoint(x: 340, y: 170))  // map (140, 30)

        #expect(sketch.vertices.vertexCount == 3)
        assertGeometry(sketch.geometry, named: "tapped-line", as: .wkt)
    }

    /// The same taps as a trace script, replayed with the team's registrations installed.
    @Test func theSameTapsReplayedFromAScriptGiveTheSameLine() throws {
        var header = TraceHeader()  // the same screen and viewport by default
        header.sketch = TraceSketchSetup(geometryType: .polyline)
        var script = TraceScript(header: header)
        for (x, y) in [(200.0, 200.0), (300, 200), (302, 200), (340, 170)] { script.tap(x, y) }
        let session = try ReplaySession(trace: script.trace, name: "taps", extensions: FieldRules.extensions)
        session.run()
        let sketch = try #require(session.sketch)
        assertGeometry(sketch.geometry, named: "tapped-line", as: .wkt)
    }
}
// END gesture-test
