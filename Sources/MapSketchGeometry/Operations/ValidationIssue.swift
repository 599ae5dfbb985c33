/// One reason a geometry is not valid: which rule, which part and vertex, and where.
public struct ValidationIssue: Hashable, Sendable, CustomStringConvertible {
    /// The rules ``GeometryEngine/validate(_:mode:)`` checks.
    public enum Rule: String, Hashable, Sendable, CaseIterable {
        /// A path with fewer than 2 distinct vertices, or a ring with fewer than 3.
        case tooFewPoints
        /// A WKT ring whose last vertex differs from its first.
        case ringNotClosed
        /// Segments of the geometry cross, overlap, or a ring passes through another's vertex
        /// crosswise (JTS `SELF_INTERSECTION`).
        case selfIntersection
        /// A ring touches or crosses itself (JTS `RING_SELF_INTERSECTION`).
        case ringSelfIntersection
        /// A hole not inside its polygon's exterior.
        case holeOutsideShell
        /// A hole inside another hole of the same polygon.
        case nestedHoles
        /// An exterior inside another polygon's interior.
        case nestedShells
        /// Holes touching the exterior or each other so that the interior falls apart.
        case disconnectedInterior
        /// A NaN or infinite coordinate.
        case nonFiniteCoordinate
        /// Esri-simple only: an exterior not clockwise or a hole not counter-clockwise.
        case wrongOrientation
        /// Two rings with the same vertices.
        case duplicateRings
    }

    /// The rule broken.
    public var rule: Rule
    /// The part (path or ring) index, counting rings across all polygons in order.
    public var part: Int?
    /// The vertex index within the part (as given, repeated vertices included); for two
    /// segments that meet, the first segment's first vertex.
    public var vertex: Int?
    /// Where the problem is, when a location is known.
    public var location: Point?
    /// A readable explanation.
    public var message: String
    /// The two segments that meet, how and where, for ``Rule/selfIntersection`` and
    /// ``Rule/ringSelfIntersection`` (nil for the other rules).
    package var meeting: SegmentMeeting?

    /// Creates an issue.
    package init(rule: Rule, part: Int?, vertex: Int?, location: Point?, message: String) {
        self.rule = rule
        self.part = part
        self.vertex = vertex
        self.location = location
        self.message = message
    }

    /// An issue of two segments that meet: its part, vertex and location are the first segment's
    /// part and first vertex and where they meet; its message names both and the point.
    package init(rule: Rule, meeting: SegmentMeeting) {
        self.init(rule: rule, part: meeting.part, vertex: meeting.segment, location: meeting.location, message: meeting.description)
        self.meeting = meeting
    }

    /// `rule at part P vertex V (x y): message`; for two segments that meet, `rule: segment 0 of
    /// part 0 crosses segment 2 of part 0 at (5 5)`.
    public var description: String {
        if meeting != nil { return rule.rawValue + ": " + message }
        var s = rule.rawValue
        if let part { s += " at part \(part)" }
        if let vertex { s += " vertex \(vertex)" }
        if let location { s += " \(location)" }
        return s + ": " + message
    }
}

/// Which validity to check.
public enum ValidationMode: Hashable, Sendable {
    /// OGC Simple Features validity, as JTS `IsValidOp` checks it (orientation ignored; a flat
    /// ``Polygon``'s rings take their role, exterior or hole, from how deeply they nest).
    case ogc
    /// OGC validity plus the Esri convention: exteriors clockwise, holes counter-clockwise.
    case esriSimple
}
