/// A polygon prepared for many point-in-polygon queries: the answer of
/// ``GeometryEngine/contains(_:_:)``, without reading every edge.
///
/// Preparing indexes the edges of all rings by horizontal bands (each band a contiguous copy of
/// the edges meeting it, sorted by their greatest x), so a query reads only the edges of its
/// band that lie right of the point, and runs the exact orientation test only on those whose
/// x-range holds the point. Every decision is the one ``GeometryEngine/contains(_:_:)`` makes,
/// so the answers are identical, boundary points included (they count as contained).
///
/// ```swift
/// let parcel = PreparedPolygon(polygon)          // once
/// for tap in taps where parcel.contains(tap) { … }
/// ```
///
/// - Complexity: preparing O(n log n) for n vertices and about 32 bytes per vertex (at most
///   8 band entries per edge on average); a query O(edges of its band right of the point),
///   about O(√n) for well-spread rings, with no allocation.
public struct PreparedPolygon: Sendable {
    /// The polygon as given.
    public let polygon: Polygon
    private let edges: PreparedEdges

    /// Prepares `polygon` for queries.
    public init(_ polygon: Polygon) {
        self.polygon = polygon
        edges = PreparedEdges(rings: polygon.rings)
    }

    /// Whether `p` lies in the polygon under the odd-even rule over all its rings, points on a
    /// ring included: exactly ``GeometryEngine/contains(_:_:)`` on ``polygon``.
    /// - Complexity: O(edges of the band of `p.y` right of `p`); no allocation.
    public func contains(_ p: Point) -> Bool { edges.locate(p) != .exterior }

    /// Bytes held by the index (the band table and its copies of the edges), beyond ``polygon``.
    package var indexFootprint: Int { edges.memoryFootprint }
}
