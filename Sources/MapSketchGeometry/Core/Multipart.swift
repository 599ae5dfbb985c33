/// A set of points.
public struct Multipoint: Hashable, Sendable, Codable {
    public var points: [Point]
    /// Whether the vertices carry z values (kept explicitly so an empty geometry keeps its flags).
    public var hasZ: Bool
    /// Whether the vertices carry m values.
    public var hasM: Bool

    /// Creates a multipoint; `hasZ`/`hasM` default to whether every point carries z/m.
    public init(points: [Point], hasZ: Bool? = nil, hasM: Bool? = nil) {
        self.points = points
        self.hasZ = hasZ ?? (!points.isEmpty && points.allSatisfy { $0.z != nil })
        self.hasM = hasM ?? (!points.isEmpty && points.allSatisfy { $0.m != nil })
    }

    public var isEmpty: Bool { points.isEmpty }
}

/// A line of one or more paths (parts); each path is an ordered list of vertices.
public struct Polyline: Hashable, Sendable, Codable {
    public var paths: [[Point]]
    public var hasZ: Bool
    public var hasM: Bool

    /// Creates a polyline; `hasZ`/`hasM` default to whether every vertex carries z/m.
    public init(paths: [[Point]], hasZ: Bool? = nil, hasM: Bool? = nil) {
        self.paths = paths
        self.hasZ = hasZ ?? _allVertices(paths) { $0.z != nil }
        self.hasM = hasM ?? _allVertices(paths) { $0.m != nil }
    }

    /// Whether there is no vertex at all.
    public var isEmpty: Bool { paths.allSatisfy(\.isEmpty) }
    /// The number of vertices over all paths.
    public var pointCount: Int { paths.reduce(0) { $0 + $1.count } }
}

/// An area bounded by rings (parts).
///
/// Rings are stored **open**: the closing vertex is implicit, so vertex `i` of a ring is the same
/// vertex a sketch edits at index `i`, and the closing segment runs from the last vertex back to
/// the first. Codecs add the closing vertex on output and drop it on input. The Esri convention
/// for orientation holds (y up): exterior rings clockwise, holes counter-clockwise.
public struct Polygon: Hashable, Sendable, Codable {
    public var rings: [[Point]]
    public var hasZ: Bool
    public var hasM: Bool

    /// Creates a polygon from open rings; a ring whose last vertex repeats its first is opened.
    public init(rings: [[Point]], hasZ: Bool? = nil, hasM: Bool? = nil) {
        let opened = rings.map(Polygon.open)
        self.rings = opened
        self.hasZ = hasZ ?? _allVertices(opened) { $0.z != nil }
        self.hasM = hasM ?? _allVertices(opened) { $0.m != nil }
    }

    /// Whether there is no vertex at all.
    public var isEmpty: Bool { rings.allSatisfy(\.isEmpty) }
    /// The number of vertices over all rings (closing vertices not counted).
    public var pointCount: Int { rings.reduce(0) { $0 + $1.count } }

    /// A ring with its closing vertex dropped if it repeats the first (2D comparison).
    public static func open(_ ring: [Point]) -> [Point] {
        guard ring.count >= 2, let f = ring.first, let l = ring.last, f.equals2D(l) else { return ring }
        return Array(ring.dropLast())
    }

    /// A ring with its closing vertex appended (no-op on an empty ring).
    public static func closed(_ ring: [Point]) -> [Point] {
        guard let f = ring.first else { return ring }
        if ring.count >= 2, let l = ring.last, l.equals2D(f) { return ring }
        return ring + [f]
    }
}

@usableFromInline
func _allVertices(_ parts: [[Point]], _ pred: (Point) -> Bool) -> Bool {
    var any = false
    for part in parts {
        for p in part {
            if !pred(p) { return false }
            any = true
        }
    }
    return any
}
