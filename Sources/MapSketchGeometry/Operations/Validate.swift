extension GeometryEngine {
    /// The validity issues of `g`; empty when valid.
    ///
    /// Checks run in stages as in JTS `IsValidOp` (coordinates, point counts, intersections,
    /// hole and shell nesting, interior connectivity); the issues of the first failing stage are
    /// returned, because later stages assume the earlier ones hold.
    ///
    /// ```swift
    /// GeometryEngine.validate(try WKT.decode("POLYGON ((0 0, 10 10, 10 0, 0 10, 0 0))"))
    /// // [selfIntersection at part 0 …]
    /// ```
    /// - Complexity: O(n log n + k) for n vertices and k segment pairs whose x-ranges overlap,
    ///   plus O(r²·n) ring-nesting tests for r rings (pruned by envelopes).
    /// - Source: JTS `IsValidOp`, `PolygonTopologyAnalyzer`, `PolygonIntersectionAnalyzer`,
    ///   `PolygonRing` (locationtech/jts 1.19+).
    public static func validate(_ g: Geometry, mode: ValidationMode = .ogc) -> [ValidationIssue] {
        var v = Validator()
        switch g {
        case .point(let p):
            if let p { v.checkFinite([p], part: 0) }
        case .multipoint(let mp):
            v.checkFinite(mp.points, part: 0)
        case .polyline(let pl):
            for (i, path) in pl.paths.enumerated() { v.checkFinite(path, part: i) }
            if v.issues.isEmpty {
                for (i, path) in pl.paths.enumerated() where !path.isEmpty { v.checkLineSize(path, part: i) }
            }
        case .envelope(let e):
            if !g.isFinite { v.add(.nonFiniteCoordinate, part: 0, vertex: nil, at: nil, "the envelope has a NaN or infinite bound") }
            else if e.width <= 0 || e.height <= 0 { v.add(.tooFewPoints, part: 0, vertex: nil, at: nil, "the envelope has no area") }
        case .polygon(let pg):
            v.validateFlatPolygon(pg.rings, mode: mode)
        }
        return v.issues
    }

    /// Whether `g` is valid in `mode` (``validate(_:mode:)`` is empty).
    public static func isValid(_ g: Geometry, mode: ValidationMode = .ogc) -> Bool {
        validate(g, mode: mode).isEmpty
    }

    /// The OGC validity issues of a WKT tree, with JTS's polygon structure (each POLYGON's own
    /// exterior and holes, linear rings, collections). Part numbers count rings within each
    /// (multi)polygon, or members within a collection's component.
    /// - Complexity: as ``validate(_:mode:)``.
    package static func validate(_ t: WKTGeometry) -> [ValidationIssue] {
        var v = Validator()
        v.validateTree(t)
        return v.issues
    }

    /// Whether a WKT tree is OGC-valid (JTS `isValid`).
    package static func isValid(_ t: WKTGeometry) -> Bool { validate(t).isEmpty }
}
