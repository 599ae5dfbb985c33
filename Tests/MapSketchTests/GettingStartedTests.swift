import Foundation
import MapSketch
import MapSketchGeometry
import MapSketchTestSupport
import Testing

// The "Sketch a line by tapping" example of Sources/MapSketch/MapSketch.docc/GettingStarted.md,
// compiled and run here. `articleShowsThisCode` fails when the two differ: change both together.
// BEGIN GettingStarted
@MainActor func sketchThreeTapsAndUndo() throws -> SketchLayer {
    // 400 × 400 pt of Web Mercator at 1 m per point, centred on (0, 0): the screen point (200, 200)
    // is the map point (0, 0), and y grows upwards on the map, downwards on the screen.
    let map = MapView(
        screenSize: ScreenSize(width: 400, height: 400),
        viewport: Viewport(center: Point(0, 0), resolution: 1),
        spatialReference: .webMercator)
    let sketch = try SketchLayer(geometryType: .polyline)
    try map.addLayer(sketch, named: "Sketch")
    map.touchDelegate = sketch

    // Three taps, one second apart: each appends a vertex and selects it.
    var time = 0.0
    for (x, y) in [(100.0, 200.0), (200.0, 100.0), (300.0, 200.0)] {
        map.handle(TouchEvent(time: time, phase: .began, x: x, y: y))
        map.handle(TouchEvent(time: time + 0.1, phase: .ended, x: x, y: y))
        time += 1
    }

    // Each tap was one undo step: undo the last one.
    sketch.undo()
    print(WKT.encode(sketch.geometry))  // LINESTRING (-100 0, 0 100)
    return sketch
}
// END GettingStarted

@MainActor
@Suite struct GettingStartedTests {
    static let here = URL(fileURLWithPath: #filePath)
    static let article = here.deletingLastPathComponent()
        .appendingPathComponent("../../Sources/MapSketch/MapSketch.docc/GettingStarted.md").standardizedFileURL

    @Test func theExampleRunsAsTheArticleSays() throws {
        let sketch = try sketchThreeTapsAndUndo()
        #expect(WKT.encode(sketch.geometry) == "LINESTRING (-100 0, 0 100)")
        #expect(sketch.geometry == .polyline(Polyline(paths: [[Point(-100, 0), Point(0, 100)]])))
        #expect(sketch.selection == .vertex(part: 0, index: 1), "the second vertex is selected again")
        #expect(sketch.undoCount == 2 && sketch.redoCount == 1)
    }

    @Test func articleShowsThisCode() throws {
        let (shown, imports, tested) = try ArticleSnippet.both(
            article: Self.article, containing: "func sketchThreeTapsAndUndo", source: Self.here, marker: "GettingStarted")
        #expect(shown != nil && tested != nil, "the article's example and this file's copy")
        #expect(shown == tested, "GettingStarted.md and this file show different code")
        #expect(imports == ["import MapSketch", "import MapSketchGeometry"], "the example imports what it uses")
    }
}
