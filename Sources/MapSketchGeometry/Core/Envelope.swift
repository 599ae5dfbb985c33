/// An axis-aligned rectangle: xmin, ymin, xmax, ymax.
public struct Envelope: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The least x.
    public var xmin: Double
    /// The least y.
    public var ymin: Double
    /// The greatest x.
    public var xmax: Double
    /// The greatest y.
    public var ymax: Double

    /// Creates an envelope; the bounds are taken as given (`xmin <= xmax` is the caller's duty).
    @inlinable
    public init(xmin: Double, ymin: Double, xmax: Double, ymax: Double) {
        self.xmin = xmin
        self.ymin = ymin
        self.xmax = xmax
        self.ymax = ymax
    }

    /// The envelope of one point.
    @inlinable
    public init(_ p: Point) {
        self.init(xmin: p.x, ymin: p.y, xmax: p.x, ymax: p.y)
    }

    /// The envelope of a sequence of points, or nil when it is empty.
    /// - Complexity: O(n) for n points.
    @inlinable
    public init?<S: Sequence>(points: S) where S.Element == Point {
        var it = points.makeIterator()
        guard let first = it.next() else { return nil }
        var e = Envelope(first)
        while let p = it.next() { e.expand(toInclude: p) }
        self = e
    }

    /// `xmax − xmin`.
    @inlinable public var width: Double { xmax - xmin }
    /// `ymax − ymin`.
    @inlinable public var height: Double { ymax - ymin }
    /// The point halfway between the bounds in x and in y.
    @inlinable public var center: Point { Point(x: (xmin + xmax) / 2, y: (ymin + ymax) / 2) }

    /// Grows the envelope to include `p`.
    @inlinable
    public mutating func expand(toInclude p: Point) {
        if p.x < xmin { xmin = p.x }
        if p.x > xmax { xmax = p.x }
        if p.y < ymin { ymin = p.y }
        if p.y > ymax { ymax = p.y }
    }

    /// Grows the envelope to include `other`.
    @inlinable
    public mutating func expand(toInclude other: Envelope) {
        if other.xmin < xmin { xmin = other.xmin }
        if other.xmax > xmax { xmax = other.xmax }
        if other.ymin < ymin { ymin = other.ymin }
        if other.ymax > ymax { ymax = other.ymax }
    }

    /// The union of two envelopes.
    @inlinable
    public func union(_ other: Envelope) -> Envelope {
        var e = self
        e.expand(toInclude: other)
        return e
    }

    /// The envelope grown by `d` on every side.
    @inlinable
    public func inset(by d: Double) -> Envelope {
        Envelope(xmin: xmin - d, ymin: ymin - d, xmax: xmax + d, ymax: ymax + d)
    }

    /// Whether `p` lies inside or on the boundary.
    @inlinable
    public func contains(_ p: Point) -> Bool {
        p.x >= xmin && p.x <= xmax && p.y >= ymin && p.y <= ymax
    }

    /// Whether the two envelopes share at least one point.
    @inlinable
    public func intersects(_ o: Envelope) -> Bool {
        o.xmin <= xmax && o.xmax >= xmin && o.ymin <= ymax && o.ymax >= ymin
    }

    /// The squared distance from `p` to the envelope (0 inside).
    @inlinable
    package func distanceSquared(to p: Point) -> Double {
        let dx = p.x < xmin ? xmin - p.x : (p.x > xmax ? p.x - xmax : 0)
        let dy = p.y < ymin ? ymin - p.y : (p.y > ymax ? p.y - ymax : 0)
        return dx * dx + dy * dy
    }

    public var description: String { "[\(xmin) \(ymin), \(xmax) \(ymax)]" }
}

extension Envelope {
    /// Whether `other` lies inside this envelope, boundaries included (the envelope test before a
    /// ring-in-ring test).
    func covers(_ other: Envelope) -> Bool {
        xmin <= other.xmin && xmax >= other.xmax && ymin <= other.ymin && ymax >= other.ymax
    }
}
