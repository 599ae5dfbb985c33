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

    @Test func articleShowsThisCode() throws {
        let (shown, imports, tested) = try ArticleSnippet.both(
            article: Self.article, containing: "func pinchWithOneFingerStill", source: Self.here, marker: "Gestures")
        #expect(shown != nil && tested != nil, "the article's example and this file's copy")
        #expect(shown == tested, "Gestures.md and this file show different code")
        #expect(imports == ["import MapSketch", "import MapSketchGeometry"])
    }
}
