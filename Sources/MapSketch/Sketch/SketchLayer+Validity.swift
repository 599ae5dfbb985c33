public import MapSketchGeometry

// Whether the sketch is complete enough for its type, and whether it is a valid geometry.

extension SketchLayer {
    /// Whether the sketch has enough vertices for its geometry type (a point its vertex, a
    /// multipoint one, every polyline part two, every polygon part three distinct ones; see
    /// ``SketchEditor/hasEnoughVertices``). It does not look at the shape: a bow tie has enough.
    /// ``validate(mode:)`` checks the geometry's validity.
    public var hasEnoughVertices: Bool { editor.hasEnoughVertices }
    /// What ``hasEnoughVertices`` checks, under the ArcGIS sketch editors' name, which promises
    /// more than it checks: a bow tie polygon has enough vertices and passes.
    @available(*, deprecated, renamed: "hasEnoughVertices",
        message: "it counts vertices only (a bow tie passes); validate(mode:) checks the geometry's validity")
    public var isSketchValid: Bool { hasEnoughVertices }

    /// The validity issues of the sketch's geometry (``GeometryEngine/validate(_:mode:)``): empty
    /// when it is a valid geometry. A bow tie polygon has enough vertices (``hasEnoughVertices``) but
    /// is not valid here: its ring crosses itself.
    ///
    /// ```swift
    /// for issue in sketch.validate() { print(issue) }   // the rule, the part and vertex, what is wrong
    /// ```
    /// - Complexity: O(n log n + k) for n vertices (see ``SketchEditor/validate(mode:)``).
    public func validate(mode: ValidationMode = .ogc) -> [ValidationIssue] { editor.validate(mode: mode) }
}
