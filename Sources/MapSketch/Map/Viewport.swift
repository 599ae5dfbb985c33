public import MapSketchGeometry
import Foundation

/// What part of the map the screen shows: center (map units), resolution (map units per point)
/// and rotation (degrees, counter-clockwise, as `AGSMapView.rotationAngle`).
///
/// The transforms are pure functions of the viewport and the screen size.
///
/// A viewport is always valid: its center's x and y and its rotation are finite and its
/// resolution is positive and finite. Making or setting one otherwise is a programmer error (a
/// precondition); decoding one (`Codable`) throws instead. A zero resolution would put every
/// screen point on the center, a negative one would mirror the map.
public struct Viewport: Hashable, Sendable, Codable {
    /// The map point at the centre of the screen.
    /// - Precondition: x and y finite (z and m are not used).
    public var center: Point {
        didSet { Self.require(center: center) }
    }
    /// Map units per screen point.
    /// - Precondition: positive and finite.
    public var resolution: Double {
        didSet { Self.require(resolution: resolution) }
    }
    /// Degrees counter-clockwise.
    /// - Precondition: finite.
    public var rotation: Double {
        didSet { Self.require(rotation: rotation) }
    }

    /// A viewport centred on `center` at `resolution` map units per point, rotated by `rotation`.
    /// - Precondition: `center`'s x and y and `rotation` finite; `resolution` positive and finite.
    public init(center: Point, resolution: Double, rotation: Double = 0) {
        Self.require(center: center)
        Self.require(resolution: resolution)
        Self.require(rotation: rotation)
        self.center = center
        self.resolution = resolution
        self.rotation = rotation
    }

    /// Whether `resolution` can be a viewport's: positive and finite.
    package static func isValidResolution(_ resolution: Double) -> Bool { resolution > 0 && resolution.isFinite }

    /// Whether `center` can be a viewport's: x and y finite.
    package static func isValidCenter(_ center: Point) -> Bool { center.x.isFinite && center.y.isFinite }

    private static func require(center: Point) {
        precondition(isValidCenter(center), "Viewport: the center must be finite, found \(center)")
    }

    private static func require(resolution: Double) {
        precondition(isValidResolution(resolution), "Viewport: the resolution must be positive and finite, found \(resolution)")
    }

    private static func require(rotation: Double) {
        precondition(rotation.isFinite, "Viewport: the rotation must be finite, found \(rotation)")
    }

    private enum CodingKeys: String, CodingKey { case center, resolution, rotation }

    /// Decodes a viewport.
    /// - Throws: `DecodingError.dataCorrupted` for a center or rotation that is not finite or a
    ///   resolution that is not positive and finite.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let center = try c.decode(Point.self, forKey: .center)
        let resolution = try c.decode(Double.self, forKey: .resolution)
        let rotation = try c.decode(Double.self, forKey: .rotation)
        func bad(_ key: CodingKeys, _ expected: String) -> DecodingError {
            .dataCorruptedError(forKey: key, in: c, debugDescription: "expected \(expected)")
        }
        guard Self.isValidCenter(center) else { throw bad(.center, "a finite center") }
        guard Self.isValidResolution(resolution) else { throw bad(.resolution, "a positive, finite resolution (map units per point), found \(resolution)") }
        guard rotation.isFinite else { throw bad(.rotation, "a finite rotation in degrees, found \(rotation)") }
        self.init(center: center, resolution: resolution, rotation: rotation)
    }

    /// The map point under `screen` on a screen of `size`.
    package func toMap(_ screen: ScreenPoint, size: ScreenSize) -> Point {
        let dx = (screen.x - size.width / 2) * resolution
        let dy = (size.height / 2 - screen.y) * resolution
        if rotation == 0 { return Point(x: center.x + dx, y: center.y + dy) }
        let a = -rotation * .pi / 180
        let c = cos(a)
        let s = sin(a)
        return Point(x: center.x + dx * c - dy * s, y: center.y + dx * s + dy * c)
    }

    /// The screen point where `map` is drawn on a screen of `size`.
    package func toScreen(_ map: Point, size: ScreenSize) -> ScreenPoint {
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
    /// changes nothing, and so does a move whose result would not be a valid viewport (a scale
    /// that takes the resolution to 0 or infinity, a center beyond the largest `Double`).
    ///
    /// ```swift
    /// let v = Viewport(center: Point(1000, 2000), resolution: 2)
    /// let size = ScreenSize(width: 400, height: 400)
    /// // Fingers at x 150 and 250 spread to 150 and 350: the one at 150 never moved.
    /// let w = v.moved(from: ScreenPoint(x: 200, y: 200), to: ScreenPoint(x: 250, y: 200), scale: 2, size: size)
    /// // w.center == Point(950, 2000), w.resolution == 1: map x 900 is still at screen x 150.
    /// ```
    package func moved(
        from: ScreenPoint, to: ScreenPoint, scale: Double = 1, rotation: Double = 0, size: ScreenSize
    ) -> Viewport {
        guard scale > 0, scale.isFinite, rotation.isFinite,
            from.x.isFinite, from.y.isFinite, to.x.isFinite, to.y.isFinite
        else { return self }
        let newResolution = resolution / scale
        let newRotation = rotation == 0 ? self.rotation : Self.normalizedRotation(self.rotation + rotation)
        guard Self.isValidResolution(newResolution), newRotation.isFinite else { return self }
        let anchor = toMap(from, size: size)
        var v = Viewport(center: Point(x: 0, y: 0), resolution: newResolution, rotation: newRotation)
        // Where `to` is, relative to the center, on the new viewport.
        let offset = v.toMap(to, size: size)
        let center = Point(x: anchor.x - offset.x, y: anchor.y - offset.y)
        guard Self.isValidCenter(center) else { return self }
        v.center = center
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
    package func visibleEnvelope(size: ScreenSize) -> Envelope {
        let corners = [
            ScreenPoint(x: 0, y: 0), ScreenPoint(x: size.width, y: 0),
            ScreenPoint(x: size.width, y: size.height), ScreenPoint(x: 0, y: size.height),
        ].map { toMap($0, size: size) }
        var e = Envelope(corners[0])
        for p in corners.dropFirst() { e.expand(toInclude: p) }
        return e
    }
}
