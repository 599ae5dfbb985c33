public import MapSketch
import MapSketchGeometry
public import MapSketchReaders

/// Writes traces in code: gestures and calls on a running clock.
///
/// Each gesture starts at the current time and moves the clock past its end plus a pause, so
/// scripts read like what a person does:
///
/// ```swift
/// var s = TraceScript(header: header)
/// s.tap(200, 200)                   // down, up 0.08 s later
/// s.holdDrag(from: (200, 200), to: (260, 180))
/// s.call(.undo)
/// let trace = s.trace
/// ```
public struct TraceScript: Sendable {
    /// The trace built so far.
    public private(set) var trace: Trace
    /// The clock: the time of the next event.
    public var now: Double = 0.1
    /// The pause after each gesture or call, in seconds.
    public var pause: Double = 0.4

    /// Starts a script.
    public init(header: TraceHeader) {
        trace = Trace(header: header)
    }

    private static func round(_ t: Double) -> Double { (t * 1000).rounded() / 1000 }

    /// Appends an event at the current time without moving the clock.
    package mutating func add(_ e: TraceEvent, at t: Double? = nil) {
        trace.events.append(TraceEntry(t: Self.round(t ?? now), e))
    }

    /// A touch at a time relative to now.
    public mutating func touch(_ phase: TouchPhase, _ x: Double, _ y: Double, id: Int = 0, after dt: Double = 0) {
        add(.touch(phase: phase, id: id, location: ScreenPoint(x: x, y: y)), at: now + dt)
    }

    /// Appends the touches of `gesture` from the current time (touch k at now plus its time in the
    /// gesture), then moves the clock past the gesture's end plus a pause. The gestures below are
    /// this with the model's ``TouchSequence`` gestures, the ones a `GestureDriver` sends to a live map.
    public mutating func perform(_ gesture: TouchSequence) {
        for t in gesture.touches { touch(t.phase, t.location.x, t.location.y, id: t.id, after: t.time) }
        now += gesture.duration + pause
    }

    /// A tap: down, up `duration` later (default 0.08 s), then a pause
    /// (``TouchSequence/tap(at:duration:jitter:)``).
    public mutating func tap(_ x: Double, _ y: Double, duration: Double = 0.08, jitter: Double = 0) {
        perform(.tap(at: ScreenPoint(x: x, y: y), duration: duration, jitter: jitter))
    }

    /// Two taps at one spot, the second going down `interval` seconds after the first, then a pause
    /// (``TouchSequence/doubleTap(at:interval:duration:)``).
    public mutating func doubleTap(_ x: Double, _ y: Double, interval: Double = 0.2, duration: Double = 0.08) {
        perform(.doubleTap(at: ScreenPoint(x: x, y: y), interval: interval, duration: duration))
    }

    /// A hold at `from` (held `hold` seconds, default 0.7), then a drag to `to` in `steps`
    /// moves, then release (``TouchSequence/holdDrag(from:to:hold:steps:cancel:)``).
    public mutating func holdDrag(
        from: (Double, Double), to: (Double, Double), hold: Double = 0.7, steps: Int = 5, cancel: Bool = false
    ) {
        perform(.holdDrag(from: Self.point(from), to: Self.point(to), hold: hold, steps: steps, cancel: cancel))
    }

    /// A hold without moving, released after `hold` seconds (``TouchSequence/hold(at:duration:)``).
    public mutating func hold(_ x: Double, _ y: Double, hold: Double = 0.8) {
        perform(.hold(at: ScreenPoint(x: x, y: y), duration: hold))
    }

    /// A one-finger drag that starts moving at once (a pan when it leaves the slop before the
    /// hold; ``TouchSequence/drag(from:to:steps:duration:)``).
    public mutating func drag(from: (Double, Double), to: (Double, Double), steps: Int = 6, duration: Double = 0.3) {
        perform(.drag(from: Self.point(from), to: Self.point(to), steps: steps, duration: duration))
    }

    /// Two fingers around `center`, their distance going from `from` to `to` points and their
    /// line turning `rotation` degrees counter-clockwise
    /// (``TouchSequence/pinch(center:from:to:rotation:steps:)``).
    public mutating func pinch(center: (Double, Double), from: Double, to: Double, rotation: Double = 0, steps: Int = 5) {
        perform(.pinch(center: Self.point(center), from: from, to: to, rotation: rotation, steps: steps))
    }

    private static func point(_ p: (Double, Double)) -> ScreenPoint { ScreenPoint(x: p.0, y: p.1) }

    /// A programmatic call, then a pause.
    package mutating func call(_ c: TraceCall) {
        add(.call(c))
        now += pause
    }

    /// A programmatic call the model is meant to refuse (an index out of range, an unknown layer),
    /// then a pause: its line is declared in the header's `expect.refusedCalls`.
    package mutating func refusedCall(_ c: TraceCall) {
        call(c)
        // The header is line 1, so event i (from 0) is on line i + 2.
        trace.header.expect.refusedCalls.append(trace.events.count + 1)
    }

    /// Ends the trace at `t` (default: the current time) with an `end` line: the replay's clock
    /// runs on to it after the last event, so a hold whose finger is still down fires.
    public mutating func end(at t: Double? = nil) {
        trace.end = Self.round(t ?? now)
    }

    /// A GPS fix at the current time, advancing the clock by `dt`.
    public mutating func gps(_ fix: GPSFix, dt: Double = 1) {
        add(.gps(fix))
        now += dt
    }
}
