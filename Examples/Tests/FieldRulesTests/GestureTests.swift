// BEGIN gesture-test
import FieldRules
import MapSketch
import MapSketchReplay
import MapSketchTesting
import Testing

/// Fingers on the map, in code: taps sketch a line, a tap 2 points from the last vertex is refused
/// by the team's rule, and the line is checked against its golden WKT.
@Suite @MainActor struct GestureTests {
    @Test func tapsSketchALineAndTheRuleRefusesAShortSegment() throws {
        var header = TraceHeader()  // a 400 × 400 screen, 1 map unit per point, centred on 0, 0
        header.sketch = TraceSketchSetup(geometryType: .polyline)
        var script = TraceScript(header: header)
        script.tap(200, 200)  // map (0, 0)
        script.tap(300, 200)  // map (100, 0)
        script.tap(302, 200)  // 2 m further: refused by shortSegment
        script.tap(340, 170)  // map (140, 30)
        let session = try ReplaySession(trace: script.trace, name: "taps", extensions: FieldRules.extensions)
        session.run()
        let sketch = try #require(session.sketch)
        #expect(sketch.vertices.vertexCount == 3)
        assertGeometry(sketch.geometry, named: "tapped-line", as: .wkt)
    }
}
// END gesture-test
