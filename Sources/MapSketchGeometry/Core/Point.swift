/// A vertex or a point geometry: x and y, with optional z (height) and m (measure).
///
/// Points are plain values; the spatial reference travels with the geometry that holds them
/// (see ``SpatialGeometry``) rather than with every vertex.
public struct Point: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The x coordinate (easting or longitude).
    public var x: Double
    /// The y coordinate (northing or latitude).
    public var y: Double
    /// The height, when the point carries one.
    public var z: Double?
    /// The measure, when the point carries one.
    public var m: Double?

    /// Creates a point.
    @inlinable
    public init(x: Double, y: Double, z: Double? = nil, m: Double? = nil) {
        self.x = x
        self.y = y
        self.z = z
        self.m = m
    }

    /// Creates a point from x and y.
    @inlinable
    public init(_ x: Double, _ y: Double) {
        self.x = x
        self.y = y
    }

    /// Whether x, y and any z or m are finite (neither NaN nor infinite).
    @inlinable
    public var isFinite: Bool {
        x.isFinite && y.isFinite && (z?.isFinite ?? true) && (m?.isFinite ?? true)
    }

    /// The point with z and m dropped.
    @inlinable
    package var xy: Point { Point(x: x, y: y) }

    /// Whether x and y equal those of `other` (z and m ignored).
    @inlinable
    package func equals2D(_ other: Point) -> Bool { x == other.x && y == other.y }

    public var description: String {
        var s = "(\(x) \(y)"
        if let z { s += " z=\(z)" }
        if let m { s += " m=\(m)" }
        return s + ")"
    }
}

extension Point {
    /// Sets z and m to their values at `t` along a→b (0 at `a`, 1 at `b`), each only when both
    /// ends carry it: the one rule for the vertices that noding and antimeridian cuts insert.
    mutating func interpolateZM(from a: Point, to b: Point, at t: Double) {
        if let za = a.z, let zb = b.z { z = za + (zb - za) * t }
        if let ma = a.m, let mb = b.m { m = ma + (mb - ma) * t }
    }
}
