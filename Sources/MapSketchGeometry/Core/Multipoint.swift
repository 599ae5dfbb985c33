/// A set of points.
public struct Multipoint: Hashable, Sendable, Codable {
    /// The points, in order.
    public package(set) var points: [Point]
    /// Whether the vertices carry z values (kept explicitly so an empty geometry keeps its flags).
    public var hasZ: Bool
    /// Whether the vertices carry m values.
    public var hasM: Bool

    /// Creates a multipoint; `hasZ`/`hasM` default to whether every point carries z/m.
    public init(points: [Point], hasZ: Bool? = nil, hasM: Bool? = nil) {
        self.points = points
        self.hasZ = hasZ ?? allVertices([points]) { $0.z != nil }
        self.hasM = hasM ?? allVertices([points]) { $0.m != nil }
    }

    /// Whether there is no point.
    public var isEmpty: Bool { points.isEmpty }
}
