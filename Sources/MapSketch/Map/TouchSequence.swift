import MapSketchGeometry

/// A gesture as the raw touches that make it: taps, a double tap, holds, a hold then a drag, a
/// one-finger drag and a two-finger pinch (spreading, closing and turning), each touch timed
/// from the gesture's start.
///
/// A value: it describes fingers and their timing, nothing else. ``GestureDriver`` sends it to a
/// ``MapView`` on a virtual clock; anything else that needs the same touches (a recorded script
/// of gestures, a test) takes them from ``touches(startingAt:)``, so every user of a gesture sees
/// the same samples, finger ids and times.
///
/// One-finger gestures use finger 0; a pinch uses fingers 0 and 1. The defaults are shaped for
/// the default ``GestureThresholds``: a tap is 0.08 s (the tap duration is 0.3 s), a hold 0.7 to
/// 0.8 s (the hold fires at 0.5 s), and a drag leaves the 10 pt slop at once.
///
/// ```swift
/// let tap = TouchSequence.tap(at: ScreenPoint(x: 200, y: 200))
/// tap.touches            // began at 0, ended at 0.08
/// tap.touches(startingAt: 3)   // the same at 3 and 3.08
/// ```
public struct TouchSequence: Hashable, Sendable {
    /// The touches in the order they are sent; each ``TouchEvent/time`` is seconds from the
    /// gesture's start (0 or more, in order).
    public var touches: [TouchEvent]
    /// Seconds from the start until the gesture is over: at or after its last touch.
    public var duration: Double

    /// A gesture of `touches` (times from its start), over after `duration` seconds (nil: at its
    /// last touch).
    public init(touches: [TouchEvent], duration: Double? = nil) {
        self.touches = touches
        self.duration = duration ?? touches.last?.time ?? 0
    }

    /// The touches with their times moved to start at `start`: touch k at `start + touches[k].time`.
    package func touches(startingAt start: Double) -> [TouchEvent] {
        touches.map { TouchEvent(time: start + $0.time, id: $0.id, phase: $0.phase, location: $0.location) }
    }

    // MARK: Gestures

    /// A tap: down at `point`, up `duration` seconds later. With `jitter`, the finger drifts by
    /// (+jitter, −jitter) points halfway through and lifts there (within the slop it is still a tap).
    public static func tap(at point: ScreenPoint, duration: Double = 0.08, jitter: Double = 0) -> TouchSequence {
        var s = TouchSequence(touches: [], duration: duration)
        s.add(.began, point)
        let lifted = ScreenPoint(x: point.x + jitter, y: point.y - jitter)
        if jitter > 0 { s.add(.moved, lifted, at: duration / 2) }
        s.add(.ended, lifted, at: duration)
        return s
    }

    /// Two taps at `point`, the second going down `interval` seconds after the first (each down
    /// for `duration`). The map has no double-tap gesture: it sees two taps (on a sketch, the
    /// first adds a vertex and the second selects it).
    public static func doubleTap(at point: ScreenPoint, interval: Double = 0.2, duration: Double = 0.08) -> TouchSequence {
        var s = tap(at: point, duration: duration)
        for t in tap(at: point, duration: duration).touches { s.add(t.phase, t.location, at: interval + t.time) }
        s.duration = interval + duration
        return s
    }

    /// A finger held still at `point` and lifted after `duration` seconds (a hold when the
    /// duration reaches the hold threshold).
    public static func hold(at point: ScreenPoint, duration: Double = 0.8) -> TouchSequence {
        var s = TouchSequence(touches: [], duration: duration)
        s.add(.began, point)
        s.add(.ended, point, at: duration)
        return s
    }

    /// A hold at `from` for `hold` seconds, then a drag to `to` in `steps` moves 0.05 s apart,
    /// then the release 0.05 s after the last move (or a cancel, with `cancel`): on a sketch, a
    /// hold on the selected vertex drags it.
    public static func holdDrag(
        from: ScreenPoint, to: ScreenPoint, hold: Double = 0.7, steps: Int = 5, cancel: Bool = false
    ) -> TouchSequence {
        var s = TouchSequence(touches: [])
        s.add(.began, from)
        let n = max(steps, 1)
        var t = hold
        for i in 1...n {
            let f = Double(i) / Double(n)
            s.add(.moved, ScreenPoint(x: from.x + (to.x - from.x) * f, y: from.y + (to.y - from.y) * f), at: t)
            t += 0.05
        }
        s.add(cancel ? .cancelled : .ended, to, at: t)
        s.duration = t
        return s
    }

    /// A one-finger drag from `from` to `to` that starts moving at once, in `steps` even moves
    /// over `duration` seconds, released 0.02 s after the last: the map pans (or its touch
    /// delegate takes the drag, see ``MapTouchDelegate/mapView(_:shouldBeginDragAt:mapPoint:)``).
    public static func drag(from: ScreenPoint, to: ScreenPoint, steps: Int = 6, duration: Double = 0.3) -> TouchSequence {
        var s = TouchSequence(touches: [], duration: duration + 0.02)
        s.add(.began, from)
        let n = max(steps, 1)
        for i in 1...n {
            let f = Double(i) / Double(n)
            s.add(.moved, ScreenPoint(x: from.x + (to.x - from.x) * f, y: from.y + (to.y - from.y) * f), at: duration * f)
        }
        s.add(.ended, to, at: duration + 0.02)
        return s
    }

    /// Two fingers about `center`, `from` points apart on a horizontal line (finger 0 on the
    /// left), moving in `steps` steps until they are `to` points apart and their line has turned
    /// `rotation` degrees counter-clockwise as the screen shows it; then both lift. Finger 1 goes
    /// down 0.02 s after finger 0; steps are 0.05 s apart (finger 1 moving 0.01 s after finger
    /// 0). Spreading (`to` > `from`) zooms in; the map turns only when
    /// ``MapView/allowRotationByPinching`` is on.
    public static func pinch(
        center: ScreenPoint, from: Double, to: Double, rotation: Double = 0, steps: Int = 5
    ) -> TouchSequence {
        // Where the fingers are `d` apart, their line turned `degrees` (y grows downwards).
        func fingers(_ d: Double, _ degrees: Double) -> (ScreenPoint, ScreenPoint) {
            if degrees == 0 {
                return (ScreenPoint(x: center.x - d / 2, y: center.y), ScreenPoint(x: center.x + d / 2, y: center.y))
            }
            let (sin, cos) = DeterministicMath.sinCos(degrees: degrees)
            let (dx, dy) = (d / 2 * cos, d / 2 * sin)
            return (ScreenPoint(x: center.x - dx, y: center.y + dy), ScreenPoint(x: center.x + dx, y: center.y - dy))
        }
        var s = TouchSequence(touches: [])
        let start = fingers(from, 0)
        s.add(.began, start.0, finger: 0)
        s.add(.began, start.1, finger: 1, at: 0.02)
        let n = max(steps, 1)
        var t = 0.04
        for i in 1...n {
            let d = from + (to - from) * Double(i) / Double(n)
            let p = fingers(d, rotation * Double(i) / Double(n))
            s.add(.moved, p.0, finger: 0, at: t)
            s.add(.moved, p.1, finger: 1, at: t + 0.01)
            t += 0.05
        }
        let end = fingers(to, rotation)
        s.add(.ended, end.0, finger: 0, at: t)
        s.add(.ended, end.1, finger: 1, at: t + 0.01)
        s.duration = t + 0.01
        return s
    }

    /// Appends a touch of `finger` at `time` seconds from the start.
    private mutating func add(_ phase: TouchPhase, _ location: ScreenPoint, finger: Int = 0, at time: Double = 0) {
        touches.append(TouchEvent(time: time, id: finger, phase: phase, location: location))
    }
}
