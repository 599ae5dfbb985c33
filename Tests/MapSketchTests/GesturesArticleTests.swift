import Foundation
import MapSketch
import MapSketchGeometry
import MapSketchTestSupport
import Testing

// The example of Sources/MapSketch/MapSketch.docc/Gestures.md, compiled and run here.
// `articleShowsThisCode` fails when the two differ: change both together.
// BEGIN Gestures
@MainActor func pinchWithOneFingerStill() -> MapView {
    // 400 × 400 pt centred on map (1000, 2000) at 2 map units per point.
    let map = MapView(
        screenSize: ScreenSize(width: 400, height: 400),
        viewport: Viewport(center: Point(1000, 2000), resolution: 2))
    // Finger 0 rests on (150, 200), map (900, 2000); finger 1 spreads from 250 to 350.
    map.handle(TouchEvent(time: 0, id: 0, phase: .began, x: 150, y: 200))
    map.handle(TouchEvent(time: 0.02, id: 1, phase: .began, x: 250, y: 200))
    for (k, x) in [275.0, 300, 325, 350].enumerated() {
        map.handle(TouchEvent(time: 0.04 + 0.02 * Double(k), id: 1, phase: .moved, x: x, y: 200))
    }
    map.handle(TouchEvent(time: 0.2, id: 1, phase: .ended, x: 350, y: 200))
    map.handle(TouchEvent(time: 0.22, id: 0, phase: .ended, x: 150, y: 200))
    // Twice the finger distance: resolution 1. Finger 0 still sits on map x 900.
    print(map.viewport.center, map.viewport.resolution)  // (950.0 2000.0) 1.0
    return map
}
// END Gestures

// BEGIN GesturesDriver
@MainActor func sketchATriangleWithFingers() throws -> (MapView, SketchLayer) {
    let map = MapView(
        screenSize: ScreenSize(width: 400, height: 400),
        viewport: Viewport(center: Point(0, 0), resolution: 1))
    let sketch = try SketchLayer(geometryType: .polygon)
    try map.addLayer(sketch, named: "Sketch")
    map.touchDelegate = sketch

    var fingers = GestureDriver(map: map)
    fingers.tap(at: ScreenPoint(x: 100, y: 300))
    fingers.tap(at: ScreenPoint(x: 300, y: 300))
    fingers.tap(at: ScreenPoint(x: 200, y: 100))
    // Hold the selected (last) vertex for 0.7 s, which holds at 0.5 s, and drag it up 50 pt.
    fingers.holdDrag(from: ScreenPoint(x: 200, y: 100), to: ScreenPoint(x: 200, y: 50))
    // Spread two fingers to twice their distance: the map zooms in about them.
    fingers.pinch(center: ScreenPoint(x: 200, y: 200), from: 100, to: 200)
    print(WKT.encode(sketch.geometry), map.viewport.resolution)
    // POLYGON ((-100 -100, 100 -100, 0 150, -100 -100)) 0.5
    return (map, sketch)
}
// END GesturesDriver

@MainActor
@Suite struct GesturesArticleTests {
    static let here = URL(fileURLWithPath: #filePath)
    static let article = here.deletingLastPathComponent()
        .appendingPathComponent("../../Sources/MapSketch/MapSketch.docc/Gestures.md").standardizedFileURL

    @Test func theExampleRunsAsTheArticleSays() {
        let map = pinchWithOneFingerStill()
        #expect(map.viewport.center == Point(950, 2000) && map.viewport.resolution == 1)
        #expect("\(map.viewport.center) \(map.viewport.resolution)" == "(950.0 2000.0) 1.0", "what the comment prints")
        #expect(map.toMap(ScreenPoint(x: 150, y: 200)) == Point(900, 2000))
    }

    @Test func theDriverExampleRunsAsTheArticleSays() throws {
        let (map, sketch) = try sketchATriangleWithFingers()
        #expect(WKT.encode(sketch.geometry) == "POLYGON ((-100 -100, 100 -100, 0 150, -100 -100))")
        #expect(map.viewport.resolution == 0.5)
        #expect(sketch.undoCount == 4, "three taps and the drag")
    }

    @Test func articleShowsTheDriverExample() throws {
        let (shown, imports, tested) = try ArticleSnippet.both(
            article: Self.article, containing: "func sketchATriangleWithFingers", source: Self.here, marker: "GesturesDriver")
        #expect(shown != nil && tested != nil, "the article's example and this file's copy")
        #expect(shown == tested, "Gestures.md and this file show different code")
        #expect(imports == ["import MapSketch", "import MapSketchGeometry"])
    }

    @Test func articleShowsThisCode() throws {
        let (shown, imports, tested) = try ArticleSnippet.both(
            article: Self.article, containing: "func pinchWithOneFingerStill", source: Self.here, marker: "Gestures")
        #expect(shown != nil && tested != nil, "the article's example and this file's copy")
        #expect(shown == tested, "Gestures.md and this file show different code")
        #expect(imports == ["import MapSketch", "import MapSketchGeometry"])
    }
}
