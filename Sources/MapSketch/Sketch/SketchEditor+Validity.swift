package import MapSketchGeometry

extension SketchEditor {
    /// Whether the sketch has enough vertices for its geometry type: a point has its vertex; a
    /// multipoint ≥ 1 vertex; every polyline part ≥ 2 vertices; every polygon part ≥ 3 distinct
    /// vertices (2D). An empty polyline or polygon (no parts) has not.
    ///
    /// It counts vertices only: a polygon whose ring crosses itself (a bow tie) has enough
    /// vertices. ``validate(mode:)`` checks the geometry's validity itself (crossings, ring
    /// nesting, …), and ``SketchValidation/noSelfIntersection`` stops edits from making a
    /// crossing in the first place.
    /// - Complexity: O(n) for polygons (distinct vertices are counted until 3 are found), O(parts) otherwise.
    package var hasEnoughVertices: Bool {
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

    /// What ``hasEnoughVertices`` checks, under the ArcGIS sketch editors' name, which promises
    /// more than it checks: a bow tie polygon has enough vertices and passes.
    @available(*, deprecated, renamed: "hasEnoughVertices",
        message: "it counts vertices only (a bow tie passes); validate(mode:) checks the geometry's validity")
    package var isSketchValid: Bool { hasEnoughVertices }

    /// The validity issues of the sketch's geometry, as ``GeometryEngine/validate(_:mode:)``
    /// finds them: empty when it is a valid geometry. Unlike ``hasEnoughVertices``, this finds a
    /// polygon ring that crosses itself, overlapping rings, a hole outside its exterior, and
    /// parts too short to be a line or a ring.
    /// - Complexity: as ``GeometryEngine/validate(_:mode:)``, O(n log n + k) for n vertices.
    package func validate(mode: ValidationMode = .ogc) -> [ValidationIssue] {
        GeometryEngine.validate(geometry, mode: mode)
    }
}
