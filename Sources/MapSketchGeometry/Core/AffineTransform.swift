/// A planar affine map of x and y about an anchor: a point p goes to
/// `anchor + L · (p − anchor) + translation`, where L is the 2 × 2 matrix `[a b; c d]`; z and m
/// are kept as they are.
///
/// Writing the linear part about an anchor, instead of folding the anchor into the translation,
/// keeps rotations and scales of geometry far from the origin accurate (the differences
/// `p − anchor` are small and exact when p is near the anchor), and makes the common cases exact:
/// a translation adds dx and dy and nothing else, and a rotation by a multiple of 90° only swaps
/// and negates differences.
///
/// ```swift
/// let quarter = AffineTransform.rotation(degrees: 90, about: Point(0, 0))
/// quarter.apply(Point(100, -100))            // (100 100): exactly
/// AffineTransform.scale(x: 2, y: 2, about: Point(10, 10)).apply(Point(11, 12))   // (12 14)
/// ```
public struct AffineTransform: Hashable, Sendable, CustomStringConvertible {
    /// The x of the point the linear part turns and scales about.
    @usableFromInline package var anchorX: Double
    /// The y of the point the linear part turns and scales about.
    @usableFromInline package var anchorY: Double
    /// The linear part, row 1 column 1: x' gets `a · dx`.
    public var a: Double
    /// The linear part, row 1 column 2: x' gets `b · dy`.
    public var b: Double
    /// The linear part, row 2 column 1: y' gets `c · dx`.
    public var c: Double
    /// The linear part, row 2 column 2: y' gets `d · dy`.
    public var d: Double
    /// Added to x after the linear part.
    public var translationX: Double
    /// Added to y after the linear part.
    public var translationY: Double

    /// A transform from its parts (see the type's summary for the formula).
    public init(
        a: Double, b: Double, c: Double, d: Double, translationX: Double = 0, translationY: Double = 0,
        anchor: Point = Point(0, 0)
    ) {
        (self.a, self.b, self.c, self.d) = (a, b, c, d)
        (self.translationX, self.translationY) = (translationX, translationY)
        (anchorX, anchorY) = (anchor.x, anchor.y)
    }

    /// The transform that changes nothing.
    public static let identity = AffineTransform(a: 1, b: 0, c: 0, d: 1)

    /// Moves every point by (dx, dy): exactly `x + dx`, `y + dy`.
    public static func translation(dx: Double, dy: Double) -> AffineTransform {
        AffineTransform(a: 1, b: 0, c: 0, d: 1, translationX: dx, translationY: dy)
    }

    /// Turns every point counter-clockwise (y up) by `degrees` about `anchor`; exact at multiples
    /// of 90° (the sine and cosine are then exactly 0 and ±1).
    public static func rotation(degrees: Double, about anchor: Point) -> AffineTransform {
        let (s, co) = DeterministicMath.sinCos(degrees: degrees)
        return AffineTransform(a: co, b: 0 - s, c: s, d: co, anchor: anchor)
    }

    /// Turns every point about `anchor` by the angle from the direction `from` to the direction
    /// `to` (two vectors, not points; their lengths do not matter): the rotation a drag from
    /// `anchor + from` to `anchor + to` asks for. Computed without trigonometric functions (the
    /// cosine and sine are the normalised dot and cross products), so it is the same on every
    /// platform. Nil when either vector has length 0 (no direction to turn from or to).
    public static func rotation(from: (dx: Double, dy: Double), to: (dx: Double, dy: Double), about anchor: Point)
        -> AffineTransform?
    {
        let dot = from.dx * to.dx + from.dy * to.dy
        let cross = from.dx * to.dy - from.dy * to.dx
        let norm = (dot * dot + cross * cross).squareRoot()
        guard norm > 0, norm.isFinite else { return nil }
        let co = dot / norm
        let s = cross / norm
        return AffineTransform(a: co, b: 0 - s, c: s, d: co, anchor: anchor)
    }

    /// Scales x by `x` and y by `y` about `anchor` (the anchor stays put). A negative factor
    /// mirrors, and so reverses the orientation of rings.
    public static func scale(x: Double, y: Double, about anchor: Point) -> AffineTransform {
        AffineTransform(a: x, b: 0, c: 0, d: y, anchor: anchor)
    }

    /// The anchor the linear part acts about.
    package var anchor: Point { Point(anchorX, anchorY) }

    /// The determinant of the linear part: the factor areas are multiplied by (negative when the
    /// transform mirrors).
    package var determinant: Double { a * d - b * c }

    /// Whether the transform can be undone by another affine transform (its determinant is a
    /// finite non-zero number): then it keeps distinct points distinct, so it cannot make a
    /// simple geometry cross itself.
    package var isInvertible: Bool {
        let det = determinant
        return det != 0 && det.isFinite
    }

    /// Whether the transform moves no point: the linear part is the identity and there is no
    /// translation (the anchor does not matter then).
    public var isIdentity: Bool {
        a == 1 && b == 0 && c == 0 && d == 1 && translationX == 0 && translationY == 0
    }

    /// Whether every part of the transform is a finite number.
    package var isFinite: Bool {
        [anchorX, anchorY, a, b, c, d, translationX, translationY].allSatisfy(\.isFinite)
    }

    /// `p` transformed; its z and m are kept.
    /// - Complexity: O(1).
    @inlinable
    public func apply(_ p: Point) -> Point {
        let dx = p.x - anchorX
        let dy = p.y - anchorY
        var q = p
        q.x = anchorX + (a * dx + b * dy) + translationX
        q.y = anchorY + (c * dx + d * dy) + translationY
        return q
    }

    /// `[a b; c d] about (x, y) + (tx, ty)`, for logs.
    public var description: String {
        "[\(a) \(b); \(c) \(d)] about (\(anchorX) \(anchorY)) + (\(translationX) \(translationY))"
    }
}
