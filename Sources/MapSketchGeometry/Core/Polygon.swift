/// An area bounded by rings (parts).
///
/// Rings are stored **open**: the closing vertex is implicit, so vertex `i` of a ring is the same
/// vertex a sketch edits at index `i`, and the closing segment runs from the last vertex back to
/// the first. Codecs add the closing vertex on output and drop it on input. The Esri convention
/// for orientation holds (y up): exterior rings clockwise, holes counter-clockwise.
public struct Polygon: Hashable, Sendable, Codable {
    /// The rings, each open (its closing vertex implicit).
    public package(set) var rings: [[Point]]
    /// Whether the vertices carry z values.
    public var hasZ: Bool
    /// Whether the vertices carry m values.
    public var hasM: Bool

    /// Creates a polygon from open rings; a ring whose last vertex repeats its first is opened.
    public init(rings: [[Point]], hasZ: Bool? = nil, hasM: Bool? = nil) {
        let opened = rings.map(Polygon.open)
        self.rings = opened
        self.hasZ = hasZ ?? allVertices(opened) { $0.z != nil }
        self.hasM = hasM ?? allVertices(opened) { $0.m != nil }
    }

    /// Whether there is no vertex at all.
    public var isEmpty: Bool { rings.allSatisfy(\.isEmpty) }
    /// The number of vertices over all rings (closing vertices not counted).
    public var pointCount: Int { rings.reduce(0) { $0 + $1.count } }
}
