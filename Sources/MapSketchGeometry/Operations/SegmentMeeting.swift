/// Two segments of a geometry that meet where they may not — a crossing, a touch or an
/// overlap — and where: the one wording of such a problem, used by
/// ``GeometryEngine/validate(_:mode:)`` and by the sketch's no-self-intersection rule.
///
/// Segment `k` of a part runs from its vertex `k` to vertex `k + 1`; a ring's last segment runs
/// from its last vertex back to vertex 0.
///
/// ```swift
/// let issue = GeometryEngine.validate(try WKT.decode("POLYGON ((5 5, 15 15, 15 5, 5 15, 5 5))"))[0]
/// issue.meeting?.description   // segment 0 of part 0 crosses segment 2 of part 0 at (10 10)
/// ```
package struct SegmentMeeting: Hashable, Sendable, CustomStringConvertible {
    /// How the two segments meet.
    public enum Kind: String, Hashable, Sendable {
        /// They cross (at a point inside both, or through a vertex).
        case cross
        /// They touch at a point without crossing.
        case touch
        /// They overlap along a stretch.
        case overlap
    }

    /// How they meet.
    public var kind: Kind
    /// The first segment's part.
    public var part: Int
    /// The first segment (from vertex `segment` of its part).
    public var segment: Int
    /// The second segment's part.
    public var otherPart: Int
    /// The second segment (from vertex `otherSegment` of its part).
    public var otherSegment: Int
    /// Where they meet: the crossing or touching point, or where the overlap starts.
    public var location: Point
    /// Where the overlap ends (``Kind/overlap`` only).
    public var overlapEnd: Point?

    /// Creates a meeting of segment `segment` of part `part` with segment `otherSegment` of part
    /// `otherPart` at `location` (through `overlapEnd` for an overlap).
    public init(
        _ kind: Kind, part: Int, segment: Int, otherPart: Int, otherSegment: Int, at location: Point, to overlapEnd: Point? = nil
    ) {
        self.kind = kind
        self.part = part
        self.segment = segment
        self.otherPart = otherPart
        self.otherSegment = otherSegment
        self.location = location.xy
        self.overlapEnd = overlapEnd?.xy
    }

    /// `segment 0 of part 0 crosses segment 2 of part 0 at (5 5)` (`touches … at`, `overlaps
    /// … from (0 0) to (1 0)`).
    public var description: String { sentence(would: false) }

    /// The sentence naming both segments, how they meet and where; with `would`, as a change
    /// that was refused says it: `segment 1 of part 0 would cross segment 3 of part 0 at (0 -100)`.
    public func sentence(would: Bool) -> String {
        let verb: String
        switch kind {
        case .cross: verb = would ? "would cross" : "crosses"
        case .touch: verb = would ? "would touch" : "touches"
        case .overlap: verb = would ? "would overlap" : "overlaps"
        }
        let place = overlapEnd.map { "from \(Self.text(location)) to \(Self.text($0))" } ?? "at \(Self.text(location))"
        return "segment \(segment) of part \(part) \(verb) segment \(otherSegment) of part \(otherPart) \(place)"
    }

    /// `(x y)`, with numbers as WKT writes them.
    static func text(_ p: Point) -> String { "(\(WKT.format(p.x)) \(WKT.format(p.y)))" }
}
