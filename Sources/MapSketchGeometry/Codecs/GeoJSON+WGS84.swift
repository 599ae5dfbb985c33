/// Why a geometry cannot be written as RFC 7946 GeoJSON, whose coordinates are WGS 84 longitude
/// and latitude.
public enum GeoJSONOutputError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The geometry's spatial reference has no transformation to WGS 84.
    case cannotProject(from: SpatialReference)
    /// The geometry has no spatial reference, so nothing says whether its numbers are
    /// longitudes and latitudes or what to project them from — and they are not guessed from
    /// their values (Web Mercator meters near the origin fit −180…180, −90…90 as well).
    case noSpatialReference

    public var description: String {
        switch self {
        case .cannotProject(let sr):
            "GeoJSON is WGS 84 longitude/latitude (RFC 7946), and \(sr) cannot be projected to it; write Esri JSON or WKT instead"
        case .noSpatialReference:
            "GeoJSON is WGS 84 longitude/latitude (RFC 7946), and the geometry has no spatial reference saying what its "
                + "coordinates are; give it its spatial reference (WGS 84 if they are longitudes and latitudes)"
        }
    }
}

// The one rule of GeoJSON output: coordinates are written from WGS 84 as they are, from any
// other spatial reference projected to WGS 84, and never from a geometry without one — its
// numbers are not taken for degrees because they happen to fit. Every path that writes GeoJSON
// goes through `GeoJSON.wgs84Projection(from:)`: `inWGS84` and `encode` here, the flat
// coordinates of the geometry tool, and the replay's streaming writer.

extension GeoJSON {
    /// The projection GeoJSON output applies to coordinates in `sr`: none when `sr` is WGS 84
    /// (written as they are), Web Mercator to WGS 84 (each coordinate the shortest decimal that
    /// projects back to the vertex: ``GeometryEngine/webMercatorToGeographicDecimal(_:)``)
    /// otherwise.
    /// - Throws: ``GeoJSONOutputError/noSpatialReference`` when `sr` is nil;
    ///   ``GeoJSONOutputError/cannotProject(from:)`` when it has no transformation to WGS 84.
    /// - Complexity: O(1).
    package static func wgs84Projection(from sr: SpatialReference?) throws(GeoJSONOutputError) -> PointProjection? {
        guard let sr else { throw .noSpatialReference }
        if isLongitudeLatitude(sr) { return nil }
        do {
            return try PointProjection(from: sr, to: .wgs84, decimal: true)
        } catch {
            throw .cannotProject(from: sr)
        }
    }

    /// Whether coordinates in `sr` are written to GeoJSON as they are: `sr` is WGS 84 (nil is
    /// not: it is an error, see ``wgs84Projection(from:)``).
    package static func isLongitudeLatitude(_ sr: SpatialReference?) -> Bool { sr?.isWGS84 == true }

    /// `g` in WGS 84 longitude/latitude, the only coordinates RFC 7946 (§4) allows: unchanged when
    /// its spatial reference is WGS 84, projected from any other (Web Mercator: the inverse of
    /// the spherical formula ``GeometryEngine/project(_:from:to:)-(Geometry,_,_)`` uses).
    ///
    /// From Web Mercator, each coordinate is the shortest decimal (15 significant digits or
    /// fewer) that projects back to the vertex's meters bit for bit, where there is one: a vertex
    /// projected from decimal degrees (a GPS fix at latitude 46.434981) is written with those
    /// degrees, not with the inverse's noise in the last digits (46.43498100000001), and reading
    /// the output back gives the same vertex.
    /// - Throws: ``GeoJSONOutputError/noSpatialReference`` when `g` has none (pair it with
    ///   ``SpatialReference/wgs84`` when its coordinates are longitudes and latitudes);
    ///   ``GeoJSONOutputError/cannotProject(from:)`` when it cannot be projected.
    /// - Complexity: O(n) in the vertices.
    package static func inWGS84(_ g: SpatialGeometry) throws(GeoJSONOutputError) -> SpatialGeometry {
        guard let projection = try wgs84Projection(from: g.spatialReference) else { return g }
        guard let projected = try? GeometryEngine.project(g.geometry, from: projection.from, to: .wgs84, decimal: true) else {
            throw .cannotProject(from: projection.from)
        }
        return SpatialGeometry(projected, spatialReference: .wgs84)
    }
}
