import Foundation

extension GeometryEngine {
    /// The length on the WGS 84 ellipsoid, in meters: paths, or ring perimeters (closing
    /// segments included) for polygons and envelopes; 0 for points. Coordinates in Web
    /// Mercator are first converted to longitude/latitude.
    ///
    /// Each segment is measured with Vincenty's inverse formula; when it does not converge
    /// (nearly antipodal points) the segment is split at its great-circle midpoint and the two
    /// halves are measured instead (recursively, at most a few levels), which is at most a
    /// little long.
    /// - Throws: ``ProjectionError/unsupportedSpatialReference(_:operation:)`` unless the spatial
    ///   reference is WGS 84 or Web Mercator.
    /// - Complexity: O(n) for n vertices, no allocation per vertex.
    /// - Source: T. Vincenty, "Direct and inverse solutions of geodesics on the ellipsoid with
    ///   application of nested equations", Survey Review 23(176):88–93, 1975.
    public static func geodesicLength(_ g: Geometry, spatialReference: SpatialReference) throws -> Double {
        let toGeo = try geodesicCoordinates(spatialReference)
        switch g {
        case .point, .multipoint: return 0
        case .polyline(let pl): return pl.paths.reduce(0) { $0 + pathLength($1, count: $1.count, last: $1.last, closed: false, toGeo) }
        case .polygon(let pg): return pg.rings.reduce(0) { $0 + pathLength($1, count: $1.count, last: $1.last, closed: true, toGeo) }
        case .envelope: return g.parts.reduce(0) { $0 + pathLength($1, count: $1.count, last: $1.last, closed: true, toGeo) }
        }
    }

    /// ``geodesicLength(_:spatialReference:)-(Geometry,_)`` of the geometry a vertex store holds,
    /// read from its chunks without assembling the geometry (the same sums, so the same bits).
    /// - Throws: as the geometry form.
    /// - Complexity: O(n) for n vertices, no allocation per vertex.
    package static func geodesicLength(_ store: VertexStore, spatialReference: SpatialReference) throws -> Double {
        let toGeo = try geodesicCoordinates(spatialReference)
        switch store.type {
        case .point, .multipoint: return 0
        case .polyline, .polygon, .envelope:
            let closed = store.type != .polyline
            return store.parts.reduce(0) { $0 + pathLength($1, count: $1.count, last: $1.last, closed: closed, toGeo) }
        }
    }

    /// How coordinates in `spatialReference` become longitude/latitude for a geodesic.
    private static func geodesicCoordinates(_ spatialReference: SpatialReference) throws -> (Point) -> Point {
        if spatialReference.isWGS84 { return { $0 } }
        if spatialReference.isWebMercator { return webMercatorToGeographic }
        throw ProjectionError.unsupportedSpatialReference(spatialReference, operation: "geodesicLength")
    }

    /// The geodesic length of one path (`closed`: a ring, with its closing segment measured
    /// first) of `count` vertices ending with `last`.
    private static func pathLength(
        _ points: some Sequence<Point>, count: Int, last: Point?, closed: Bool, _ toGeo: (Point) -> Point
    ) -> Double {
        guard count >= 2, let last else { return 0 }
        var s = 0.0
        var prev: Point? = closed ? toGeo(last) : nil
        for p in points {
            let q = toGeo(p)
            if let prev { s += geodesicDistance(prev, q) }
            prev = q
        }
        return s
    }

    /// The geodesic distance in meters between two longitude/latitude points (degrees) on WGS 84.
    /// - Source: Vincenty (1975), with the midpoint split described in ``geodesicLength(_:spatialReference:)``.
    public static func geodesicDistance(_ a: Point, _ b: Point) -> Double {
        if let d = vincentyInverse(a, b) { return d }
        return splitDistance(a, b, depth: 0)
    }

    private static func splitDistance(_ a: Point, _ b: Point, depth: Int) -> Double {
        let m = greatCircleMidpoint(a, b)
        func part(_ p: Point, _ q: Point) -> Double {
            if let d = vincentyInverse(p, q) { return d }
            return depth < 4 ? splitDistance(p, q, depth: depth + 1) : sphericalDistance(p, q)
        }
        return part(a, m) + part(m, b)
    }

    static let wgs84A = 6_378_137.0
    static let wgs84F = 1 / 298.257223563

    /// Vincenty's inverse formula; nil when the iteration does not converge.
    static func vincentyInverse(_ p1: Point, _ p2: Point) -> Double? {
        let a = wgs84A, f = wgs84F, b = a * (1 - f)
        let rad = Double.pi / 180
        let L = (p2.x - p1.x) * rad
        let U1 = atan((1 - f) * tan(p1.y * rad)), U2 = atan((1 - f) * tan(p2.y * rad))
        let sinU1 = sin(U1), cosU1 = cos(U1), sinU2 = sin(U2), cosU2 = cos(U2)
        var lambda = L
        var iterations = 0
        var sinSigma = 0.0, cosSigma = 0.0, sigma = 0.0, cosSqAlpha = 0.0, cos2SigmaM = 0.0
        while true {
            let sinLambda = sin(lambda), cosLambda = cos(lambda)
            let t1 = cosU2 * sinLambda, t2 = cosU1 * sinU2 - sinU1 * cosU2 * cosLambda
            sinSigma = (t1 * t1 + t2 * t2).squareRoot()
            if sinSigma == 0 { return 0 }
            cosSigma = sinU1 * sinU2 + cosU1 * cosU2 * cosLambda
            sigma = atan2(sinSigma, cosSigma)
            let sinAlpha = cosU1 * cosU2 * sinLambda / sinSigma
            cosSqAlpha = 1 - sinAlpha * sinAlpha
            cos2SigmaM = cosSqAlpha != 0 ? cosSigma - 2 * sinU1 * sinU2 / cosSqAlpha : 0
            let C = f / 16 * cosSqAlpha * (4 + f * (4 - 3 * cosSqAlpha))
            let prev = lambda
            lambda = L + (1 - C) * f * sinAlpha
                * (sigma + C * sinSigma * (cos2SigmaM + C * cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)))
            iterations += 1
            if abs(lambda - prev) <= 1e-12 { break }
            if iterations >= 200 || abs(lambda) > .pi { return nil }
        }
        let uSq = cosSqAlpha * (a * a - b * b) / (b * b)
        let A = 1 + uSq / 16384 * (4096 + uSq * (-768 + uSq * (320 - 175 * uSq)))
        let B = uSq / 1024 * (256 + uSq * (-128 + uSq * (74 - 47 * uSq)))
        let deltaSigma = B * sinSigma * (cos2SigmaM + B / 4 * (cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)
            - B / 6 * cos2SigmaM * (-3 + 4 * sinSigma * sinSigma) * (-3 + 4 * cos2SigmaM * cos2SigmaM)))
        return b * A * (sigma - deltaSigma)
    }

    static func greatCircleMidpoint(_ p: Point, _ q: Point) -> Point {
        let rad = Double.pi / 180
        let la1 = p.y * rad, lo1 = p.x * rad, la2 = q.y * rad, lo2 = q.x * rad
        let x = cos(la1) * cos(lo1) + cos(la2) * cos(lo2)
        let y = cos(la1) * sin(lo1) + cos(la2) * sin(lo2)
        let z = sin(la1) + sin(la2)
        if x * x + y * y + z * z < 1e-24 {
            // Exactly antipodal: any meridian works; go through the pole nearer the start.
            return Point(p.x, p.y >= 0 ? 90 : -90)
        }
        return Point(atan2(y, x) / rad, atan2(z, (x * x + y * y).squareRoot()) / rad)
    }

    static func sphericalDistance(_ p: Point, _ q: Point) -> Double {
        let rad = Double.pi / 180
        let dLat = (q.y - p.y) * rad, dLon = (q.x - p.x) * rad
        let h = sin(dLat / 2) * sin(dLat / 2) + cos(p.y * rad) * cos(q.y * rad) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * 6_371_008.8 * asin(min(1, h.squareRoot()))
    }
}
