import MapSketch
import MapSketchGeometry
import Testing

/// The touch delegate's say over one-finger drags: taken at the first step, then its moves and
/// end go to the delegate and the map does not pan.
@Suite @MainActor struct MapViewDragTests {
    final class Recorder: MapTouchDelegate {
        var takes = true
        var asked: [ScreenPoint] = []
        var moves: [ScreenPoint] = []
        var ends: [(ScreenPoint, Bool)] = []
        func mapView(_ mapView: MapView, shouldBeginDragAt screen: ScreenPoint, mapPoint: Point) -> Bool {
            asked.append(screen)
            return takes
        }
        func mapView(_ mapView: MapView, didDragTo screen: ScreenPoint, mapPoint: Point) { moves.append(screen) }
        func mapView(_ mapView: MapView, didEndDragAt screen: ScreenPoint, mapPoint: Point, cancelled: Bool) {
            ends.append((screen, cancelled))
        }
    }

    func map() -> MapView {
        MapView(screenSize: ScreenSize(width: 400, height: 400), viewport: Viewport(center: Point(0, 0), resolution: 1))
    }

    func touch(_ m: MapView, _ t: Double, _ phase: TouchPhase, _ x: Double, _ y: Double, id: Int = 0) {
        m.handle(TouchEvent(time: t, id: id, phase: phase, location: ScreenPoint(x: x, y: y)))
    }

    @Test func aTakenDragGoesToTheDelegateAndTheMapStays() {
        let m = map()
        let d = Recorder()
        m.touchDelegate = d
        touch(m, 0, .began, 100, 100)
        touch(m, 0.1, .moved, 120, 100)
        touch(m, 0.2, .moved, 150, 130)
        touch(m, 0.3, .ended, 160, 130)
        #expect(d.asked == [ScreenPoint(x: 100, y: 100)])
        #expect(d.moves == [ScreenPoint(x: 120, y: 100), ScreenPoint(x: 150, y: 130), ScreenPoint(x: 160, y: 130)])
        #expect(d.ends.map(\.0) == [ScreenPoint(x: 160, y: 130)] && d.ends.map(\.1) == [false])
        #expect(m.viewport.center == Point(0, 0) && m.navigation == .idle)
    }

    @Test func aDeclinedDragPansAndIsAskedOnce() {
        let m = map()
        let d = Recorder()
        d.takes = false
        m.touchDelegate = d
        touch(m, 0, .began, 100, 100)
        touch(m, 0.1, .moved, 120, 100)
        touch(m, 0.2, .moved, 140, 100)
        touch(m, 0.3, .ended, 140, 100)
        #expect(d.asked.count == 1 && d.moves.isEmpty && d.ends.isEmpty)
        #expect(m.viewport.center == Point(-40, 0))
    }

    @Test func aCancelledTouchOrASecondFingerCancelsTheDrag() {
        let m = map()
        let d = Recorder()
        m.touchDelegate = d
        touch(m, 0, .began, 100, 100)
        touch(m, 0.1, .moved, 130, 100)
        touch(m, 0.2, .cancelled, 130, 100)
        touch(m, 1, .began, 100, 100)
        touch(m, 1.1, .moved, 130, 100)
        touch(m, 1.2, .began, 300, 300, id: 1)
        #expect(d.ends.map(\.1) == [true, true])
        // The pinch's hand-over pan is the map's: the delegate is not asked again.
        touch(m, 1.3, .moved, 320, 320, id: 1)
        touch(m, 1.4, .ended, 130, 100)
        touch(m, 1.5, .moved, 350, 350, id: 1)
        touch(m, 1.6, .ended, 350, 350, id: 1)
        #expect(d.asked.count == 2)
    }
}
