/// Why a geometry cannot be written as RFC 7946 GeoJSON, whose coordinates are WGS 84 longitude
/// and latitude.
public enum GeoJSONOutputError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The geometry's spatial reference has no transformation to WGS 84.
    case cannotProject(from: SpatialReference)
    /// The geometry has no spatial reference and a coordinate outside longitude −180…180 /
    /// latitude −90…90, so it is not in WGS 84 and there is nothing to project it from.
    case notLongitudeLatitude(x: Double, y: Double)

    public var description: String {
        switch self {
        case .cannotProject(let sr):
            "GeoJSON is WGS 84 longitude/latitude (RFC 7946), and \(sr) cannot be projected to it; write Esri JSON or WKT instead"
        case .notLongitudeLatitude(let x, let y):
            "GeoJSON is WGS 84 longitude/latitude (RFC 7946), but the geometry has no spatial reference and a coordinate "
                + "(\(JSONWriter.format(x)), \(JSONWriter.format(y))) outside -180…180, -90…90; state its spatial reference so it can be projected"
        }
    }
}

extension GeoJSON {
    /// `g` in WGS 84 longitude/latitude, the only coordinates RFC 7946 (§4) allows: projected
    /// from its spatial reference when that is another one (Web Mercator: the inverse of the
    /// spherical formula ``GeometryEngine/project(_:from:to:)-(Geometry,_,_)`` uses); unchanged when it is already WGS
    /// 84 or has no spatial reference and lies within longitude/latitude ranges.
    ///
    /// From Web Mercator, each coordinate is the shortest decimal (15 significant digits or
    /// fewer) that projects back to the vertex's meters bit for bit, where there is one: a vertex
    /// projected from decimal degrees (a GPS fix at latitude 46.434981) is written with those
    /// degrees, not with the inverse's noise in the last digits (46.43498100000001), and reading
    /// the output back gives the same vertex.
    /// - Throws: ``GeoJSONOutputError`` when it cannot be projected, or has no spatial reference
    ///   and coordinates that are not longitudes and latitudes.
    /// - Complexity: O(n) in the vertices.
    public static func inWGS84(_ g: SpatialGeometry) throws(GeoJSONOutputError) -> SpatialGeometry {
        guard let sr = g.spatialReference else {
            for part in g.geometry.parts {
                for p in part { try requireLongitudeLatitude(p.x, p.y) }
            }
            return g
        }
        if sr.isWGS84 { return g }
        guard let projected = try? GeometryEngine.project(g.geometry, from: sr, to: .wgs84, decimal: true) else {
            throw .cannotProject(from: sr)
        }
        return SpatialGeometry(projected, spatialReference: .wgs84)
    }

    /// Refuses a coordinate of a geometry without a spatial reference that cannot be a longitude
    /// and latitude (outside −180…180, −90…90): GeoJSON output has nothing to project it from.
    /// - Throws: ``GeoJSONOutputError/notLongitudeLatitude(x:y:)``.
    package static func requireLongitudeLatitude(_ x: Double, _ y: Double) throws(GeoJSONOutputError) {
        if !(-180...180).contains(x) || !(-90...90).contains(y) { throw .notLongitudeLatitude(x: x, y: y) }
    }

    /// `g` as RFC 7946 GeoJSON: in WGS 84 longitude/latitude (``inWGS84(_:)``), compact.
    /// - Throws: ``GeoJSONOutputError`` as ``inWGS84(_:)``.
    /// - Complexity: O(n) in the vertices.
    public static func encodeWGS84(_ g: SpatialGeometry, options: EncodingOptions = EncodingOptions())
        throws(GeoJSONOutputError) -> String
    {
        encode(try inWGS84(g), options: options)
    }
}
