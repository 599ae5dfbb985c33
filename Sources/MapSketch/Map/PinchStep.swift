import Foundation

/// Where two fingers are, measured from where they were when the pinch began.
///
/// Every value is measured against the start, never against the previous step, so a step
/// depends only on where the fingers started and where they are now, not on the path between:
/// a map that applies steps this way ends on the same viewport whatever the fingers did on the
/// way (see ``MapView/dispatch(_:)``).
public struct PinchStep: Hashable, Sendable {
    /// The fingers' focal point (their centroid) when the pinch began, in screen points.
    public var startFocalPoint: ScreenPoint
    /// The fingers' focal point now, in screen points.
    public var focalPoint: ScreenPoint
    /// The distance between the fingers now over their distance at the start: above 1 the
    /// fingers spread (the map zooms in), below 1 they close.
    public var scale: Double
    /// How far the line from the first finger to the second has turned since the start, in
    /// degrees counter-clockwise as seen on the screen, in (−180, 180].
    public var rotation: Double

    /// A step: the focal point moved from `startFocalPoint` to `focalPoint`, the fingers' distance
    /// changed by `scale` and their line turned by `rotation` degrees counter-clockwise.
    package init(startFocalPoint: ScreenPoint, focalPoint: ScreenPoint, scale: Double, rotation: Double = 0) {
        self.startFocalPoint = startFocalPoint
        self.focalPoint = focalPoint
        self.scale = scale
        self.rotation = rotation
    }

    /// The step from fingers at `startA`, `startB` to `a`, `b` (finger A stays finger A), or nil
    /// when either pair of fingers is on one spot (no distance to measure a scale or angle by)
    /// or a position is not finite.
    ///
    /// The focal point is the midpoint of the two fingers; the scale is the ratio of their
    /// distances; the rotation is the signed angle from the start vector (A→B) to the current
    /// one, with the sign of a counter-clockwise turn on a y-down screen.
    package init?(startA: ScreenPoint, startB: ScreenPoint, a: ScreenPoint, b: ScreenPoint) {
        let d0 = startA.distance(to: startB)
        let d = a.distance(to: b)
        guard d0 > 0, d > 0, d0.isFinite, d.isFinite else { return nil }
        let u = (x: startB.x - startA.x, y: startB.y - startA.y)
        let v = (x: b.x - a.x, y: b.y - a.y)
        // With y down, a turn that looks counter-clockwise has a negative cross product.
        let cross = u.x * v.y - u.y * v.x
        let dot = u.x * v.x + u.y * v.y
        let degrees = cross == 0 && dot > 0 ? 0 : atan2(-cross, dot) * 180 / .pi
        self.init(
            startFocalPoint: ScreenPoint(x: (startA.x + startB.x) / 2, y: (startA.y + startB.y) / 2),
            focalPoint: ScreenPoint(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2),
            scale: d / d0, rotation: degrees == -180 ? 180 : degrees)
    }
}
