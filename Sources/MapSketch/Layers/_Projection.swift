import MapSketchGeometry

/// WGS 84 ↔ Web Mercator (spherical, radius 6378137 m), the reprojection graphics and dynamic
/// layers need (EPSG Guidance Note 7-2, "Popular Visualisation Pseudo Mercator").
enum _Projection {
    static let radius = 6_378_137.0
    static let maxLatitude = 85.051_128_779_806_59

    /// Whether `from` → `to` is supported (equal, or between 4326 and 3857 in either direction).
    static func canProject(from: SpatialReference, to: SpatialReference) -> Bool {
        from == to || (from.isWGS84 && to.isWebMercator) || (from.isWebMercator && to.isWGS84)
    }

    /// `g` in `to`; nil when the pair is not supported.
    static func project(_ g: Geometry, from: SpatialReference, to: SpatialReference) -> Geometry? {
        if from == to { return g }
        if from.isWGS84 && to.isWebMercator { return g.mapPoints(toMercator) }
        if from.isWebMercator && to.isWGS84 { return g.mapPoints(toGeographic) }
        return nil
    }

    static func toMercator(_ p: Point) -> Point {
        let lat = max(-maxLatitude, min(maxLatitude, p.y))
        var q = p
        q.x = p.x * .pi / 180 * radius
        q.y = _log(_tan(.pi / 4 + lat * .pi / 360)) * radius
        return q
    }

    static func toGeographic(_ p: Point) -> Point {
        var q = p
        q.x = p.x / radius * 180 / .pi
        q.y = (2 * _atan(_exp(p.y / radius)) - .pi / 2) * 180 / .pi
        return q
    }
}
