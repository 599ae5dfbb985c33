extension GeometryEngine {
    /// Folds a geometry into one world width, −180…180 degrees (WGS 84) or
    /// ±20037508.342789244 m (Web Mercator), splitting it where it crosses the antimeridian:
    /// paths are cut into parts there, polygons are cut into pieces, each shifted back by
    /// whole world widths, and the pieces repaired with ``simplify(_:spatialReference:)``.
    /// Geometry already inside the range is returned unchanged; a polygon that only needs a
    /// shift is shifted.
    ///
    /// Like `AGSGeometryEngine.normalizeCentralMeridianOfGeometry:` (ArcGIS Runtime 10.x). A
    /// polygon wider than one world overlaps itself once folded; the overlap then follows the
    /// odd-even rule of ``simplify(_:spatialReference:)``.
    ///
    /// The domain, so that the work stays proportional to the input:
    /// - Points and multipoints fold from any finite x (exactly: the remainder of x by the world
    ///   width).
    /// - Paths and rings: no segment may span more than one world width in x (a longer one wraps
    ///   the whole world and has no meaningful fold; cutting it would make one piece per world
    ///   crossed), and every vertex lies within ±2^50 (about 1.1e15) in x, where whole worlds
    ///   are still counted exactly.
    /// - An envelope wider than one world becomes the whole world's width.
    ///
    /// ```swift
    /// let track = Geometry.polyline(Polyline(paths: [[Point(170, 0), Point(190, 10)]]))
    /// try GeometryEngine.normalizeCentralMeridian(track, spatialReference: .wgs84)
    /// // paths [[(170 0), (180 5)], [(-180 5), (-170 10)]]
    /// ```
    /// - Throws: ``ProjectionError/unsupportedSpatialReference(_:operation:)`` unless the spatial
    ///   reference is WGS 84 or Web Mercator;
    ///   ``ProjectionError/segmentWiderThanWorld(part:vertex:span:worldWidth:)`` and
    ///   ``ProjectionError/vertexOutOfDomain(part:vertex:operation:found:expected:)`` (a path or
    ///   ring vertex beyond ±2^50 in x, or not finite) outside the domain above, naming the part
    ///   and vertex.
    /// - Complexity: O(n) for n vertices (each segment crosses at most one antimeridian);
    ///   polygons that cross add the cost of ``simplify(_:spatialReference:)``.
    public static func normalizeCentralMeridian(_ g: Geometry, spatialReference: SpatialReference) throws -> Geometry {
        let w = try WorldWrap(normalizing: spatialReference)
        let half = w.half
        switch g {
        case .point(let p): return .point(p.map(w.fold))
        case .multipoint(let mp):
            return .multipoint(Multipoint(points: mp.points.map(w.fold), hasZ: mp.hasZ, hasM: mp.hasM))
        case .polyline(let pl):
            try w.checkDomain(pl.paths, closed: false)
            var paths: [[Point]] = []
            for path in pl.paths { w.split(path, into: &paths) }
            return .polyline(Polyline(paths: paths, hasZ: pl.hasZ, hasM: pl.hasM))
        case .polygon(let pg):
            try w.checkDomain(pg.rings, closed: true)
            return w.normalize(pg)
        case .envelope(let e):
            try w.checkDomain([[Point(e.xmin, e.ymin), Point(e.xmax, e.ymax)]], closed: false, spanLimit: false)
            if e.xmax - e.xmin > w.width {
                return .envelope(Envelope(xmin: -half, ymin: e.ymin, xmax: half, ymax: e.ymax))
            }
            let k0 = w.world(e.xmin), k1 = w.world(e.xmax)
            if k0 == k1 || (k1 == k0 + 1 && e.xmax == w.boundary(k0)) {
                let s = w.shift(k0)
                return .envelope(Envelope(xmin: e.xmin + s, ymin: e.ymin, xmax: e.xmax + s, ymax: e.ymax))
            }
            return w.normalize(Polygon(rings: g.parts))
        }
    }
}
