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
