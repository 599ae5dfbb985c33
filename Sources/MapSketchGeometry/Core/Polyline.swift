/// A line of one or more paths (parts); each path is an ordered list of vertices.
public struct Polyline: Hashable, Sendable, Codable {
    /// The paths, each an ordered list of vertices.
    public package(set) var paths: [[Point]]
    /// Whether the vertices carry z values.
    public var hasZ: Bool
    /// Whether the vertices carry m values.
    public var hasM: Bool

    /// Creates a polyline; `hasZ`/`hasM` default to whether every vertex carries z/m.
    public init(paths: [[Point]], hasZ: Bool? = nil, hasM: Bool? = nil) {
        self.paths = paths
        self.hasZ = hasZ ?? allVertices(paths) { $0.z != nil }
        self.hasM = hasM ?? allVertices(paths) { $0.m != nil }
    }

    /// Whether there is no vertex at all.
    public var isEmpty: Bool { paths.allSatisfy(\.isEmpty) }
    /// The number of vertices over all paths.
    public var pointCount: Int { paths.reduce(0) { $0 + $1.count } }
}
