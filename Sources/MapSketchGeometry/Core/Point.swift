/// A vertex or a point geometry: x and y, with optional z (height) and m (measure).
///
/// Points are plain values; the spatial reference travels with the geometry that holds them
/// (see ``SpatialGeometry``) rather than with every vertex.
public struct Point: Hashable, Sendable, Codable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    public var z: Double?
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
    public var xy: Point { Point(x: x, y: y) }

    /// Whether x and y equal those of `other` (z and m ignored).
    @inlinable
    public func equals2D(_ other: Point) -> Bool { x == other.x && y == other.y }

    public var description: String {
        var s = "(\(x) \(y)"
        if let z { s += " z=\(z)" }
        if let m { s += " m=\(m)" }
        return s + ")"
    }
}
