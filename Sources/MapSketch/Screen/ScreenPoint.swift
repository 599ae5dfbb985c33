/// A position on the screen, in points: x to the right, y down, origin at the top left.
public struct ScreenPoint: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Points from the left edge.
    public var x: Double
    /// Points from the top edge.
    public var y: Double

    /// The screen point (x, y).
    @inlinable
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The distance to `other`, in points.
    @inlinable
    package func distance(to other: ScreenPoint) -> Double {
        let dx = x - other.x
        let dy = y - other.y
        return (dx * dx + dy * dy).squareRoot()
    }

    public var description: String { "(\(x), \(y))" }
}

/// The screen's size in points.
public struct ScreenSize: Hashable, Sendable, Codable {
    /// The width in points.
    public var width: Double
    /// The height in points.
    public var height: Double

    /// A screen of `width` × `height` points.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
}
