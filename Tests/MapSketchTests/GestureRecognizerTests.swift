import MapSketch
import Testing

@Suite struct GestureRecognizerTests {
    @Test func quickDownUpIsATap() {
        var r = GestureRecognizer()
        #expect(r.process(TouchEvent(time: 0, phase: .began, x: 10, y: 10)).isEmpty)
        #expect(r.process(TouchEvent(time: 0.1, phase: .moved, x: 12, y: 11)).isEmpty)
        #expect(r.process(TouchEvent(time: 0.2, phase: .ended, x: 12, y: 11)) == [.tap(ScreenPoint(x: 10, y: 10))])
    }

    @Test func heldStillFiresHoldThenMovesThenEnds() {
        var r = GestureRecognizer()
        _ = r.process(TouchEvent(time: 0, phase: .began, x: 10, y: 10))
        #expect(r.advance(to: 0.49).isEmpty)
        #expect(r.advance(to: 0.5) == [.holdBegan(ScreenPoint(x: 10, y: 10))])
        #expect(r.process(TouchEvent(time: 0.6, phase: .moved, x: 50, y: 50)) == [.holdMoved(ScreenPoint(x: 50, y: 50))])
        #expect(r.process(TouchEvent(time: 0.7, phase: .ended, x: 50, y: 50)) == [.holdEnded(ScreenPoint(x: 50, y: 50))])
    }

    @Test func movingPastSlopBeforeHoldPans() {
        var r = GestureRecognizer()
        _ = r.process(TouchEvent(time: 0, phase: .began, x: 10, y: 10))
        #expect(r.process(TouchEvent(time: 0.1, phase: .moved, x: 25, y: 10)) == [.pan(from: ScreenPoint(x: 10, y: 10), to: ScreenPoint(x: 25, y: 10))])
        #expect(r.advance(to: 1).isEmpty, "no hold once panning")
        #expect(r.process(TouchEvent(time: 1.1, phase: .ended, x: 25, y: 10)) == [.panEnded])
    }

    @Test func slowReleaseIsNeitherTapNorHold() {
        var r = GestureRecognizer()
        _ = r.process(TouchEvent(time: 0, phase: .began, x: 10, y: 10))
        #expect(r.process(TouchEvent(time: 0.4, phase: .ended, x: 10, y: 10)).isEmpty)
    }

    @Test func secondFingerPinches() {
        var r = GestureRecognizer()
        _ = r.process(TouchEvent(time: 0, id: 1, phase: .began, x: 100, y: 100))
        _ = r.process(TouchEvent(time: 0.05, id: 2, phase: .began, x: 200, y: 100))
        let g = r.process(TouchEvent(time: 0.1, id: 2, phase: .moved, x: 300, y: 100))
        let start = ScreenPoint(x: 150, y: 100)
        #expect(g == [.pinch(PinchStep(startFocalPoint: start, focalPoint: ScreenPoint(x: 200, y: 100), scale: 2))])
        #expect(r.process(TouchEvent(time: 0.2, id: 1, phase: .ended, x: 100, y: 100)) == [.pinchEnded])
        #expect(r.process(TouchEvent(time: 0.25, id: 2, phase: .ended, x: 300, y: 100)) == [.panEnded])
    }
}
