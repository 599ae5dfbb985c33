extension GeometryEngine {
    /// Whether `p` lies in `polygon` under the odd-even rule over all its rings; points on a
    /// ring count as contained (friendlier for hit-testing). Exact: every side-of-edge decision uses the exact orientation predicate.
    /// - Complexity: O(n) for n vertices, no allocation.
    public static func contains(_ polygon: Polygon, _ p: Point) -> Bool {
        var inside = false
        for ring in polygon.rings {
            switch Kernel.locate(p, inRing: ring) {
            case .boundary: return true
            case .interior: inside.toggle()
            case .exterior: break
            }
        }
        return inside
    }
}
