import MapSketchGeometry

extension SketchEditor {
    /// Whether the sketch is a valid geometry of its type: a point has its vertex; a
    /// multipoint ≥ 1 vertex; every polyline part ≥ 2 vertices; every polygon part ≥ 3 distinct
    /// vertices (2D). An empty polyline or polygon (no parts) is not valid.
    /// - Complexity: O(n) for polygons (distinct vertices are counted until 3 are found), O(parts) otherwise.
    public var isSketchValid: Bool {
        switch store.type {
        case .point, .multipoint: return store.vertexCount >= 1
        case .polyline: return store.partCount > 0 && store.parts.allSatisfy { $0.count >= 2 }
        case .polygon, .envelope:
            guard store.partCount > 0 else { return false }
            return store.parts.allSatisfy { part in
                guard part.count >= 3 else { return false }
                var distinct: [Point] = []
                for v in part where !distinct.contains(where: { $0.equals2D(v) }) {
                    distinct.append(v.xy)
                    if distinct.count == 3 { return true }
                }
                return false
            }
        }
    }
}
