/// Drives a ``MapView`` with gestures on its virtual clock: a finger for tests and scripts.
///
/// Each gesture is a ``TouchSequence`` sent from the driver's clock, ``now``: every touch goes to
/// ``MapView/handle(_:)`` at `now` plus its time in the gesture, and a timer of the map that is
/// due first (a hold, ``MapView/nextDeadline``) fires at its own time, before the touch, as it
/// would on a device (``MapView/fireTimers(through:willFire:)``). After the gesture the clock
/// moves past its end plus ``pause`` (firing any timer due by then), so the next gesture is a
/// separate one. A hold therefore begins at its touch-down plus
/// ``GestureThresholds/holdDuration``.
///
/// The touches are the ones a trace written with the replay library's trace script sends for the
/// same gesture (both take them from ``TouchSequence``), so a gesture driven live and the same
/// gesture replayed from a trace give the same map and sketch events.
///
/// ```swift
/// var fingers = GestureDriver(map: map)
/// fingers.tap(at: ScreenPoint(x: 100, y: 200))
/// fingers.holdDrag(from: ScreenPoint(x: 100, y: 200), to: ScreenPoint(x: 150, y: 150))
/// fingers.pinch(center: ScreenPoint(x: 200, y: 200), from: 100, to: 200)
/// ```
@MainActor
public struct GestureDriver {
    /// The map the touches go to.
    public let map: MapView
    /// The clock: when the next gesture starts, in seconds on the map's virtual clock.
    public private(set) var now: Double
    /// The pause after each gesture, in seconds (default 0.4: longer than the tap duration, shorter
    /// than a hold).
    public var pause: Double = 0.4

    /// A driver for `map` whose clock starts at `time`; nil starts it where the map's clock is
    /// (the latest time its ``MapView/gestureRecognizer`` has seen), or at 0 on a map that has
    /// seen no touch. A touch earlier than the map's clock is late: it cannot tap (see
    /// ``GestureRecognizer``).
    public init(map: MapView, time: Double? = nil) {
        self.map = map
        now = time ?? map.gestureRecognizer.time ?? 0
    }

    /// Sends `gesture`'s touches from ``now``, each after the map's timers due by its time, then
    /// moves the clock on by the gesture's duration and ``pause``.
    public mutating func perform(_ gesture: TouchSequence) {
        for touch in gesture.touches(startingAt: now) {
            map.fireTimers(through: touch.time)
            map.handle(touch)
        }
        wait(gesture.duration + pause)
    }

    /// Lets `seconds` pass on the clock, firing the map's timers due by then at their own times
    /// (a finger left down long enough holds).
    public mutating func wait(_ seconds: Double) {
        now += seconds
        map.fireTimers(through: now)
    }

    // MARK: Gestures (see ``TouchSequence`` for their touches and timing)

    /// A tap at `point` (``TouchSequence/tap(at:duration:jitter:)``).
    public mutating func tap(at point: ScreenPoint, duration: Double = 0.08, jitter: Double = 0) {
        perform(.tap(at: point, duration: duration, jitter: jitter))
    }

    /// Two taps at `point` (``TouchSequence/doubleTap(at:interval:duration:)``).
    public mutating func doubleTap(at point: ScreenPoint, interval: Double = 0.2, duration: Double = 0.08) {
        perform(.doubleTap(at: point, interval: interval, duration: duration))
    }

    /// A finger held still at `point` for `duration` seconds (``TouchSequence/hold(at:duration:)``).
    public mutating func hold(at point: ScreenPoint, duration: Double = 0.8) {
        perform(.hold(at: point, duration: duration))
    }

    /// A hold at `from`, then a drag to `to` (``TouchSequence/holdDrag(from:to:hold:steps:cancel:)``).
    public mutating func holdDrag(
        from: ScreenPoint, to: ScreenPoint, hold: Double = 0.7, steps: Int = 5, cancel: Bool = false
    ) {
        perform(.holdDrag(from: from, to: to, hold: hold, steps: steps, cancel: cancel))
    }

    /// A one-finger drag that pans the map (``TouchSequence/drag(from:to:steps:duration:)``).
    public mutating func drag(from: ScreenPoint, to: ScreenPoint, steps: Int = 6, duration: Double = 0.3) {
        perform(.drag(from: from, to: to, steps: steps, duration: duration))
    }

    /// A two-finger pinch about `center` (``TouchSequence/pinch(center:from:to:rotation:steps:)``).
    public mutating func pinch(center: ScreenPoint, from: Double, to: Double, rotation: Double = 0, steps: Int = 5) {
        perform(.pinch(center: center, from: from, to: to, rotation: rotation, steps: steps))
    }
}
