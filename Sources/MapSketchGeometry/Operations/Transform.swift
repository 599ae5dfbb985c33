extension GeometryEngine {
    /// `geometry` with every vertex moved by `transform` (z and m kept). An envelope becomes the
    /// polygon of its four corners, since a rotated rectangle is no longer axis-aligned.
    ///
    /// ```swift
    /// let square = Geometry.polygon(Polygon(rings: [[Point(-1, -1), Point(-1, 1), Point(1, 1), Point(1, -1)]]))
    /// GeometryEngine.transform(square, by: .rotation(degrees: 90, about: Point(0, 0)))
    /// // [(1 -1), (-1 -1), (-1 1), (1 1)]: the same square, each corner a quarter turn on
    /// ```
    /// - Complexity: O(n) for n vertices.
    public static func transform(_ geometry: Geometry, by transform: AffineTransform) -> Geometry {
        if case .envelope(let e) = geometry {
            let ring = [Point(e.xmin, e.ymin), Point(e.xmin, e.ymax), Point(e.xmax, e.ymax), Point(e.xmax, e.ymin)]
            return .polygon(Polygon(rings: [ring.map(transform.apply)]))
        }
        return geometry.mapPoints(transform.apply)
    }
}
