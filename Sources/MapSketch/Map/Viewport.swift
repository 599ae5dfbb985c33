public import MapSketchGeometry
import Foundation

/// What part of the map the screen shows: center (map units), resolution (map units per point)
/// and rotation (degrees, counter-clockwise, as `AGSMapView.rotationAngle`).
///
/// The transforms are pure functions of the viewport and the screen size.
public struct Viewport: Hashable, Sendable, Codable {
    /// The map point at the centre of the screen.
    public var center: Point
    /// Map units per screen point; must be positive.
    public var resolution: Double
    /// Degrees counter-clockwise.
    public var rotation: Double

    /// A viewport centred on `center` at `resolution` map units per point, rotated by `rotation`.
    public init(center: Point, resolution: Double, rotation: Double = 0) {
        self.center = center
        self.resolution = resolution
        self.rotation = rotation
    }

    /// The map point under `screen` on a screen of `size`.
    public func toMap(_ screen: ScreenPoint, size: ScreenSize) -> Point {
        let dx = (screen.x - size.width / 2) * resolution
        let dy = (size.height / 2 - screen.y) * resolution
        if rotation == 0 { return Point(x: center.x + dx, y: center.y + dy) }
        let a = -rotation * .pi / 180
        let c = cos(a)
        let s = sin(a)
        return Point(x: center.x + dx * c - dy * s, y: center.y + dx * s + dy * c)
    }

    /// The screen point where `map` is drawn on a screen of `size`.
    public func toScreen(_ map: Point, size: ScreenSize) -> ScreenPoint {
        var dx = (map.x - center.x) / resolution
        var dy = (map.y - center.y) / resolution
        if rotation != 0 {
            let a = rotation * .pi / 180
            let c = cos(a)
            let s = sin(a)
            (dx, dy) = (dx * c - dy * s, dx * s + dy * c)
        }
        return ScreenPoint(x: size.width / 2 + dx, y: size.height / 2 - dy)
    }

    /// This viewport moved by a gesture: the map point under `from` on this viewport is under
    /// `to` on the result, which is zoomed in by `scale` (the resolution divided by it) and turned
    /// by `rotation` degrees counter-clockwise about that point.
    ///
    /// A pan is `scale` 1 and `rotation` 0; a zoom about a point is `from == to`; a pinch is all
    /// three. The result depends only on this viewport and the arguments, so a gesture that
    /// computes every step from the viewport it started on never accumulates rounding.
    /// The rotation is kept in (−180, 180] once turned; a zero `rotation` leaves it as it is.
    /// A `scale` that is not positive and finite, or a `rotation` or point that is not finite,
    /// changes nothing.
    ///
    /// ```swift
    /// let v = Viewport(center: Point(1000, 2000), resolution: 2)
    /// let size = ScreenSize(width: 400, height: 400)
    /// // Fingers at x 150 and 250 spread to 150 and 350: the one at 150 never moved.
    /// let w = v.moved(from: ScreenPoint(x: 200, y: 200), to: ScreenPoint(x: 250, y: 200), scale: 2, size: size)
    /// // w.center == Point(950, 2000), w.resolution == 1: map x 900 is still at screen x 150.
    /// ```
    public func moved(
        from: ScreenPoint, to: ScreenPoint, scale: Double = 1, rotation: Double = 0, size: ScreenSize
    ) -> Viewport {
        guard scale > 0, scale.isFinite, rotation.isFinite,
            from.x.isFinite, from.y.isFinite, to.x.isFinite, to.y.isFinite
        else { return self }
        let anchor = toMap(from, size: size)
        var v = Viewport(
            center: Point(x: 0, y: 0), resolution: resolution / scale,
            rotation: rotation == 0 ? self.rotation : Self.normalizedRotation(self.rotation + rotation))
        // Where `to` is, relative to the center, on the new viewport.
        let offset = v.toMap(to, size: size)
        v.center = Point(x: anchor.x - offset.x, y: anchor.y - offset.y)
        return v
    }

    /// `degrees` in (−180, 180].
    static func normalizedRotation(_ degrees: Double) -> Double {
        let r = degrees.truncatingRemainder(dividingBy: 360)
        if r > 180 { return r - 360 }
        if r <= -180 { return r + 360 }
        return r
    }

    /// The map envelope the screen covers (the bounding box of its four corners when rotated).
    public func visibleEnvelope(size: ScreenSize) -> Envelope {
        let corners = [
            ScreenPoint(x: 0, y: 0), ScreenPoint(x: size.width, y: 0),
            ScreenPoint(x: size.width, y: size.height), ScreenPoint(x: 0, y: size.height),
        ].map { toMap($0, size: size) }
        var e = Envelope(corners[0])
        for p in corners.dropFirst() { e.expand(toInclude: p) }
        return e
    }
}
