import MapSketch
import MapSketchGeometry
import Testing

/// The map's timers on the virtual clock: a host that advances to ``MapView/nextDeadline`` gets
/// the hold (and the sketch's magnifier) at its own time, before any later touch.
@MainActor
@Suite struct MapViewClockTests {
    @Test func advancingToTheDeadlineFiresTheHoldThere() throws {
        let map = MapView(screenSize: ScreenSize(width: 400, height: 400), viewport: Viewport(center: Point(0, 0), resolution: 1))
        let sketch = try SketchLayer(geometry: .polyline(Polyline(paths: [[Point(-100, 0), Point(100, 0)]])))
        try map.addLayer(sketch, named: "sketch")
        map.touchDelegate = sketch
        map.showMagnifierOnTapAndHold = true
        try sketch.select(.vertex(part: 0, index: 1))  // screen (300, 200)
        var seen: [String] = []
        _ = map.addEventObserver { e in if case .gesture(let g) = e { seen.append("\(g)") } }
        _ = sketch.onMagnifier { m in if case .show = m { seen.append("magnifier") } }
        #expect(map.nextDeadline == nil)
        map.handle(TouchEvent(time: 1, phase: .began, x: 300, y: 200))
        #expect(map.nextDeadline == 1.5)
        // A host's timer comes at 1.5, long before the finger's next move at 5.
        map.advanceTime(to: 1.2)
        #expect(seen.isEmpty)
        map.advanceTime(to: try #require(map.nextDeadline))
        #expect(seen == ["\(Gesture.holdBegan(ScreenPoint(x: 300, y: 200)))", "magnifier"])
        #expect(map.nextDeadline == nil)
        map.handle(TouchEvent(time: 5, phase: .moved, x: 340, y: 160))
        map.handle(TouchEvent(time: 5.1, phase: .ended, x: 340, y: 160))
        #expect(sketch.geometry == .polyline(Polyline(paths: [[Point(-100, 0), Point(140, 40)]])))
    }
}
