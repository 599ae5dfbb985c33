/// A spatial reference: a well-known ID (WKID) or a well-known text (WKT) definition.
///
/// WKID 3857 and its older alias 102100 (and 102113, 900913) denote the same Web Mercator
/// system: they compare equal and hash alike, and ``wkid`` keeps the one you gave.
///
/// ```swift
/// let sr = SpatialReference.webMercator      // wkid 102100, latestWkid 3857
/// sr == SpatialReference(wkid: 3857)          // true
/// ```
public struct SpatialReference: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The well-known ID as given (may be a deprecated alias such as 102100).
    public var wkid: Int?
    /// The latest well-known ID, as in Esri JSON's `latestWkid`.
    public var latestWkid: Int?
    /// A WKT definition for a custom spatial reference.
    public var wkt: String?

    /// Creates a spatial reference from a well-known ID.
    public init(wkid: Int, latestWkid: Int? = nil) {
        self.wkid = wkid
        self.latestWkid = latestWkid
    }

    /// Creates a custom spatial reference from its WKT definition.
    public init(wkt: String) {
        self.wkt = wkt
    }

    /// Creates a spatial reference from any of the three fields; at least one should be set.
    package init(wkid: Int?, latestWkid: Int?, wkt: String?) {
        self.wkid = wkid
        self.latestWkid = latestWkid
        self.wkt = wkt
    }

    /// WGS 84 geographic coordinates (WKID 4326), in degrees.
    public static let wgs84 = SpatialReference(wkid: 4326)
    /// Web Mercator auxiliary sphere (WKID 102100, latest 3857), in meters.
    public static let webMercator = SpatialReference(wkid: 102100, latestWkid: 3857)

    /// The canonical WKID: Web Mercator aliases fold to 3857; otherwise `latestWkid ?? wkid`.
    package var canonicalWkid: Int? {
        let id = latestWkid ?? wkid
        guard let id else { return nil }
        return Self.webMercatorAliases.contains(id) ? 3857 : id
    }

    /// Whether this is WGS 84 (4326).
    public var isWGS84: Bool { canonicalWkid == 4326 }
    /// Whether this is Web Mercator (3857 or one of its aliases).
    public var isWebMercator: Bool { canonicalWkid == 3857 }

    static let webMercatorAliases: Set<Int> = [3857, 102100, 102113, 900913, 3785]

    /// The xy tolerance: the distance, in the spatial reference's units, below which two
    /// coordinates are the same location (``GeometryEngine/simplify(_:spatialReference:)``
    /// snaps multipoints and polylines to it; a polygon keeps its exact region). As ArcGIS
    /// defaults it: 1 mm — 0.001 for Web Mercator and for every other
    /// WKID or WKT definition (taken to be in meters), and its equivalent in degrees on the
    /// equator for WGS 84, 0.001 / (π · 6378137 / 180) ≈ 8.983e-9°.
    public var xyTolerance: Double {
        isWGS84 ? Self.defaultXYTolerance / (Double.pi * GeometryEngine.webMercatorRadius / 180) : Self.defaultXYTolerance
    }

    /// The xy tolerance of geometry with no spatial reference, and of a spatial reference in
    /// units other than degrees: 0.001 (1 mm in meters), as ArcGIS defaults an unknown
    /// coordinate system.
    public static let defaultXYTolerance = 0.001

    public static func == (lhs: SpatialReference, rhs: SpatialReference) -> Bool {
        if let l = lhs.canonicalWkid, let r = rhs.canonicalWkid { return l == r }
        if lhs.canonicalWkid != nil || rhs.canonicalWkid != nil { return false }
        return lhs.wkt == rhs.wkt
    }

    public func hash(into hasher: inout Hasher) {
        if let id = canonicalWkid { hasher.combine(id) } else { hasher.combine(wkt) }
    }

    public var description: String {
        if let wkid { return "wkid:\(wkid)" }
        if let latestWkid { return "wkid:\(latestWkid)" }
        return "wkt:\(wkt ?? "")"
    }
}
