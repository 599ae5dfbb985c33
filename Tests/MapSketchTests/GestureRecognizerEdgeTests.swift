import MapSketch
import MapSketchTestSupport
import Testing

/// Edge cases of gesture recognition: thresholds at their limits, configuration, bad input.
@Suite struct GestureRecognizerEdgeTests {
    func touch(_ t: Double, _ id: Int, _ phase: TouchPhase, _ x: Double, _ y: Double) -> TouchEvent {
        TouchEvent(time: t, id: id, phase: phase, x: x, y: y)
    }

    @Test func tapLimitsAreInclusive() {
        var r = GestureRecognizer()
        _ = r.process(touch(0, 1, .began, 0, 0))
        _ = r.process(touch(0.1, 1, .moved, 10, 0))
        #expect(r.process(touch(0.3, 1, .ended, 10, 0)) == [.tap(ScreenPoint(x: 0, y: 0))], "0.3 s and 10 pt is still a tap")
        _ = r.process(touch(1, 1, .began, 0, 0))
        #expect(r.process(touch(1.30001, 1, .ended, 0, 0)).isEmpty, "just over the tap duration")
        _ = r.process(touch(2, 1, .began, 0, 0))
        #expect(r.process(touch(2.1, 1, .ended, 6, 8.0001)).isEmpty, "lifted just past the slop")
    }

    @Test func holdFiresOnTheNextEventWhenTimeWasNotAdvanced() {
        var r = GestureRecognizer()
        _ = r.process(touch(0, 1, .began, 5, 5))
        // No advance(to:) call: the move at 0.7 s first fires the hold, then is a hold move.
        #expect(r.process(touch(0.7, 1, .moved, 50, 5)) == [.holdBegan(ScreenPoint(x: 5, y: 5)), .holdMoved(ScreenPoint(x: 50, y: 5))])
        #expect(r.process(touch(0.8, 1, .ended, 60, 5)) == [.holdEnded(ScreenPoint(x: 60, y: 5))])
        _ = r.process(touch(1, 1, .began, 5, 5))
        #expect(r.process(touch(2, 1, .ended, 5, 5)) == [.holdBegan(ScreenPoint(x: 5, y: 5)), .holdEnded(ScreenPoint(x: 5, y: 5))])
    }

    @Test func smallMovesWithinTheSlopStillHold() {
        var r = GestureRecognizer()
        _ = r.process(touch(0, 1, .began, 0, 0))
        #expect(r.process(touch(0.2, 1, .moved, 7, 7)).isEmpty)
        #expect(r.advance(to: 0.5) == [.holdBegan(ScreenPoint(x: 0, y: 0))])
    }

    @Test func configuredThresholdsApply() throws {
        var r = GestureRecognizer(thresholds: try GestureThresholds(tapDuration: 0.1, slop: 2, holdDuration: 1).validated())
        _ = r.process(touch(0, 1, .began, 0, 0))
        #expect(r.process(touch(0.2, 1, .ended, 0, 0)).isEmpty, "0.2 s is too slow for a 0.1 s tap")
        _ = r.process(touch(1, 1, .began, 0, 0))
        #expect(r.process(touch(1.05, 1, .moved, 3, 0)) == [.pan(from: ScreenPoint(x: 0, y: 0), to: ScreenPoint(x: 3, y: 0))])
        _ = r.process(touch(1.1, 1, .ended, 3, 0))
        _ = r.process(touch(2, 1, .began, 0, 0))
        #expect(r.advance(to: 2.9).isEmpty)
        #expect(r.advance(to: 3) == [.holdBegan(ScreenPoint(x: 0, y: 0))])
    }

    @Test func invalidThresholdsNameTheField() {
        #expect(throws: GestureThresholdsError.invalid(field: .holdDuration, value: 0, expected: "a finite number of seconds > 0")) {
            try GestureThresholds(holdDuration: 0).validated()
        }
        #expect(throws: GestureThresholdsError.invalid(field: .slop, value: -1, expected: "a finite number of points >= 0")) {
            try GestureThresholds(slop: -1).validated()
        }
        #expect(throws: (any Error).self) { try GestureThresholds(tapDuration: .nan).validated() }
        #expect(throws: Never.self) { try GestureThresholds.default.validated() }
    }

    @Test func cancelledTouchesNeverTapAndCancelledHoldsSaySo() {
        var r = GestureRecognizer()
        _ = r.process(touch(0, 1, .began, 0, 0))
        #expect(r.process(touch(0.1, 1, .cancelled, 0, 0)).isEmpty)
        _ = r.process(touch(1, 1, .began, 0, 0))
        _ = r.advance(to: 2)
        #expect(r.process(touch(2.1, 1, .cancelled, 0, 0)) == [.holdCancelled])
        _ = r.process(touch(3, 1, .began, 0, 0))
        _ = r.process(touch(3.1, 1, .moved, 20, 0))
        #expect(r.process(touch(3.2, 1, .cancelled, 40, 0)) == [.panEnded], "a cancelled pan moves no further")
        #expect(!r.isTouching)
    }

    @Test func secondFingerCancelsHoldAndPanThenPinches() {
        var r = GestureRecognizer()
        _ = r.process(touch(0, 1, .began, 100, 100))
        _ = r.advance(to: 0.6)
        #expect(r.process(touch(0.7, 2, .began, 200, 100)) == [.holdCancelled])
        #expect(
            r.process(touch(0.8, 1, .moved, 150, 100))
                == [.pinch(PinchStep(startFocalPoint: ScreenPoint(x: 150, y: 100), focalPoint: ScreenPoint(x: 175, y: 100), scale: 0.5))])
        #expect(r.process(touch(0.9, 1, .ended, 150, 100)) == [.pinchEnded])
        #expect(
            r.process(touch(1.0, 2, .moved, 300, 100)) == [.pan(from: ScreenPoint(x: 200, y: 100), to: ScreenPoint(x: 300, y: 100))],
            "the remaining finger pans from where it was when the pinch ended")
        #expect(r.process(touch(1.1, 2, .ended, 300, 100)) == [.panEnded])
        _ = r.process(touch(2, 1, .began, 0, 0))
        _ = r.process(touch(2.1, 1, .moved, 30, 0))
        #expect(r.process(touch(2.2, 2, .began, 100, 0)) == [.panEnded])
    }

    @Test func aThirdFingerDoesNotEndThePinch() {
        var r = GestureRecognizer()
        _ = r.process(touch(0, 1, .began, 0, 0))
        _ = r.process(touch(0, 2, .began, 100, 0))
        _ = r.process(touch(0.1, 3, .began, 50, 50))
        #expect(r.process(touch(0.2, 3, .ended, 50, 50)).isEmpty)
        #expect(
            r.process(touch(0.3, 2, .moved, 200, 0))
                == [.pinch(PinchStep(startFocalPoint: ScreenPoint(x: 50, y: 0), focalPoint: ScreenPoint(x: 100, y: 0), scale: 2))])
    }

    @Test func badInputIsIgnoredWithoutCorruptingState() {
        var r = GestureRecognizer()
        // Unknown fingers.
        #expect(r.process(touch(0, 7, .moved, 1, 1)).isEmpty)
        #expect(r.process(touch(0, 7, .ended, 1, 1)).isEmpty)
        // Non-finite positions: a began is ignored, a move is ignored, an end uses the last position.
        #expect(r.process(touch(0, 1, .began, .nan, 0)).isEmpty)
        #expect(!r.isTouching)
        _ = r.process(touch(1, 1, .began, 10, 10))
        #expect(r.process(touch(1.1, 1, .moved, .infinity, 0)).isEmpty)
        #expect(r.process(touch(1.2, 1, .ended, .nan, .nan)) == [.tap(ScreenPoint(x: 10, y: 10))])
        // Time running backwards counts as no time passing, and the late end is not a tap (see
        // lateTouchesNeverTap).
        _ = r.process(touch(5, 1, .began, 0, 0))
        #expect(r.process(touch(4, 1, .ended, 0, 0)).isEmpty)
        #expect(!r.isTouching)
        _ = r.process(touch(6, 1, .began, 0, 0))
        #expect(r.advance(to: .nan).isEmpty)
        #expect(r.advance(to: 6.5) == [.holdBegan(ScreenPoint(x: 0, y: 0))])
        // A began for a finger already down restarts it (the lost end is a cancel).
        #expect(r.process(touch(7, 1, .began, 3, 3)) == [.holdCancelled])
        #expect(r.process(touch(7.1, 1, .ended, 3, 3)) == [.tap(ScreenPoint(x: 3, y: 3))])
        #expect(!r.isTouching)
    }

    @Test func lateTouchesNeverTap() {
        var r = GestureRecognizer()
        // Ended before it began: the duration is not known, so no tap (the finger is up).
        _ = r.process(touch(1.0, 1, .began, 50, 50))
        #expect(r.process(touch(0.9, 1, .ended, 50, 50)).isEmpty)
        #expect(!r.isTouching)
        // An end whose time is not a number.
        _ = r.process(touch(2.0, 1, .began, 50, 50))
        #expect(r.process(touch(.nan, 1, .ended, 50, 50)).isEmpty)
        // A touch-down earlier than the latest time seen, then an end 0.1 s after that latest time:
        // the real duration is unknown, so no tap either.
        _ = r.process(touch(3.0, 2, .began, 10, 10))
        _ = r.process(touch(3.1, 2, .ended, 10, 10))
        _ = r.process(touch(2.5, 1, .began, 50, 50))
        #expect(r.process(touch(3.2, 1, .ended, 50, 50)).isEmpty)
        // A late move in between spoils the tap too.
        _ = r.process(touch(4.0, 1, .began, 50, 50))
        _ = r.process(touch(3.9, 1, .moved, 51, 50))
        #expect(r.process(touch(4.1, 1, .ended, 51, 50)).isEmpty)
        // Touches on time tap again, and a late touch still holds: the hold is timed from when
        // the finger was taken down (the latest time seen).
        _ = r.process(touch(5.0, 1, .began, 50, 50))
        #expect(r.process(touch(5.1, 1, .ended, 50, 50)) == [.tap(ScreenPoint(x: 50, y: 50))])
        _ = r.process(touch(4.0, 1, .began, 50, 50))
        #expect(r.nextDeadline == 5.1 + 0.5)
        #expect(r.advance(to: 5.1 + 0.5) == [.holdBegan(ScreenPoint(x: 50, y: 50))])
        #expect(r.process(touch(5.0, 1, .ended, 50, 50)) == [.holdEnded(ScreenPoint(x: 50, y: 50))])
    }

    @Test func theHoldIsDueAtTheTouchDownPlusTheHoldDuration() {
        var r = GestureRecognizer()
        #expect(r.nextDeadline == nil, "no finger down, no timer")
        _ = r.process(touch(1, 1, .began, 5, 5))
        #expect(r.nextDeadline == 1.5)
        #expect(r.process(touch(1.2, 1, .moved, 12, 5)).isEmpty, "7 pt: within the slop")
        #expect(r.nextDeadline == 1.5, "a move within the slop keeps the timer")
        #expect(r.advance(to: 1.4999).isEmpty)
        #expect(r.advance(to: 1.5) == [.holdBegan(ScreenPoint(x: 5, y: 5))])
        #expect(r.nextDeadline == nil, "the hold fired")
        _ = r.process(touch(1.6, 1, .ended, 12, 5))
        // Past the slop before the deadline: a pan, and no timer any more.
        _ = r.process(touch(2, 1, .began, 5, 5))
        _ = r.process(touch(2.1, 1, .moved, 30, 5))
        #expect(r.nextDeadline == nil)
        #expect(r.advance(to: 10).isEmpty)
        _ = r.process(touch(10, 1, .ended, 30, 5))
        // Released before the deadline: no timer.
        _ = r.process(touch(11, 1, .began, 5, 5))
        _ = r.process(touch(11.4, 1, .ended, 5, 5))
        #expect(r.nextDeadline == nil)
        // A second finger cancels the one-finger gesture and its timer.
        _ = r.process(touch(12, 1, .began, 5, 5))
        _ = r.process(touch(12.1, 2, .began, 50, 5))
        #expect(r.nextDeadline == nil)
        // The deadline is the sum of the two times, and advancing to it fires the hold exactly
        // there, also where the difference of the times would round below the hold duration.
        var q = GestureRecognizer()
        _ = q.process(touch(31.500446, 1, .began, 5, 5))
        let due = 31.500446 + 0.5
        #expect(q.nextDeadline == due)
        #expect(q.advance(to: due.nextDown).isEmpty)
        #expect(q.advance(to: due) == [.holdBegan(ScreenPoint(x: 5, y: 5))])
    }

    @Test func aHoldDueWithATouchFiresBeforeIt() {
        var r = GestureRecognizer()
        _ = r.process(touch(1, 1, .began, 5, 5))
        #expect(r.process(touch(1.5, 1, .ended, 5, 5)) == [.holdBegan(ScreenPoint(x: 5, y: 5)), .holdEnded(ScreenPoint(x: 5, y: 5))])
        _ = r.process(touch(2, 1, .began, 5, 5))
        #expect(
            r.process(touch(2.5, 1, .moved, 40, 5)) == [.holdBegan(ScreenPoint(x: 5, y: 5)), .holdMoved(ScreenPoint(x: 40, y: 5))],
            "a move past the slop at the deadline is a hold move, not a pan")
    }

    @Test func sameTouchesGiveSameGestures() {
        var rng = SeededRandom(seed: 4)
        var events: [TouchEvent] = []
        var t = 0.0
        for _ in 0..<2000 {
            t += Double(rng.next() % 400) / 1000
            let id = Int(rng.next() % 3)
            let phase: TouchPhase = [.began, .moved, .moved, .ended, .cancelled][Int(rng.next() % 5)]
            events.append(TouchEvent(time: t, id: id, phase: phase, x: Double(rng.next() % 400), y: Double(rng.next() % 400)))
        }
        func run() -> [Gesture] {
            var r = GestureRecognizer()
            return events.flatMap { r.process($0) }
        }
        let a = run()
        #expect(!a.isEmpty)
        #expect(a == run())
    }
}
