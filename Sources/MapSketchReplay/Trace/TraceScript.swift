public import MapSketch
import MapSketchGeometry

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
    public mutating func add(_ e: TraceEvent, at t: Double? = nil) {
        trace.events.append(TraceEntry(t: Self.round(t ?? now), e))
    }

    /// A touch at a time relative to now.
    public mutating func touch(_ phase: TouchPhase, _ x: Double, _ y: Double, id: Int = 0, after dt: Double = 0) {
        add(.touch(phase: phase, id: id, location: ScreenPoint(x: x, y: y)), at: now + dt)
    }

    /// A tap: down, up `duration` later (default 0.08 s), then a pause.
    public mutating func tap(_ x: Double, _ y: Double, duration: Double = 0.08, jitter: Double = 0) {
        touch(.began, x, y)
        if jitter > 0 { touch(.moved, x + jitter, y - jitter, after: duration / 2) }
        touch(.ended, x + jitter, y - jitter, after: duration)
        now += duration + pause
    }

    /// A hold at `from` (held `hold` seconds, default 0.7), then a drag through `via` to `to` in
    /// `steps` moves, then release.
    public mutating func holdDrag(
        from: (Double, Double), to: (Double, Double), hold: Double = 0.7, steps: Int = 5, cancel: Bool = false
    ) {
        touch(.began, from.0, from.1)
        var t = hold
        for i in 1...max(steps, 1) {
            let f = Double(i) / Double(max(steps, 1))
            touch(.moved, from.0 + (to.0 - from.0) * f, from.1 + (to.1 - from.1) * f, after: t)
            t += 0.05
        }
        touch(cancel ? .cancelled : .ended, to.0, to.1, after: t)
        now += t + pause
    }

    /// A hold without moving, released after `hold` seconds.
    public mutating func hold(_ x: Double, _ y: Double, hold: Double = 0.8) {
        touch(.began, x, y)
        touch(.ended, x, y, after: hold)
        now += hold + pause
    }

    /// A one-finger drag that starts moving at once (a pan when it leaves the slop before the hold).
    public mutating func drag(from: (Double, Double), to: (Double, Double), steps: Int = 6, duration: Double = 0.3) {
        touch(.began, from.0, from.1)
        let n = max(steps, 1)
        for i in 1...n {
            let f = Double(i) / Double(n)
            touch(.moved, from.0 + (to.0 - from.0) * f, from.1 + (to.1 - from.1) * f, after: duration * f)
        }
        touch(.ended, to.0, to.1, after: duration + 0.02)
        now += duration + 0.02 + pause
    }

    /// Two fingers around `center`, their distance going from `from` to `to` points.
    public mutating func pinch(center: (Double, Double), from: Double, to: Double, steps: Int = 5) {
        touch(.began, center.0 - from / 2, center.1, id: 0)
        touch(.began, center.0 + from / 2, center.1, id: 1, after: 0.02)
        let n = max(steps, 1)
        var t = 0.04
        for i in 1...n {
            let d = from + (to - from) * Double(i) / Double(n)
            touch(.moved, center.0 - d / 2, center.1, id: 0, after: t)
            touch(.moved, center.0 + d / 2, center.1, id: 1, after: t + 0.01)
            t += 0.05
        }
        touch(.ended, center.0 - to / 2, center.1, id: 0, after: t)
        touch(.ended, center.0 + to / 2, center.1, id: 1, after: t + 0.01)
        now += t + 0.01 + pause
    }

    /// A programmatic call, then a pause.
    public mutating func call(_ c: TraceCall) {
        add(.call(c))
        now += pause
    }

    /// A programmatic call the model is meant to refuse (an index out of range, an unknown layer),
    /// then a pause: its line is declared in the header's `expect.refusedCalls`.
    public mutating func refusedCall(_ c: TraceCall) {
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
