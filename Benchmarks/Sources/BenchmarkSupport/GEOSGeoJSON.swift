import CGEOS

/// GEOS's GeoJSON reader (`GEOSGeoJSONReader_create_r`, `GEOSGeoJSONReader_readGeometry_r`): a
/// FeatureCollection read into one GeometryCollection of its features' geometries (properties
/// are parsed and dropped).
public final class GEOSGeoJSONPeer {
    let context: GEOSContext
    let reader: OpaquePointer

    /// A reader in `context`; traps if GEOS cannot make one (benchmark setup, not input).
    public init(context: GEOSContext) {
        self.context = context
        guard let r = GEOSGeoJSONReader_create_r(context.handle) else {
            preconditionFailure("GEOSGeoJSONReader_create_r failed")
        }
        reader = r
    }

    deinit { GEOSGeoJSONReader_destroy_r(context.handle, reader) }

    /// Reads `text` (NUL-terminated UTF-8) into a GEOS geometry; nil when GEOS refuses it.
    public func read(_ text: [CChar]) -> GEOSGeometryBox? {
        let g = text.withUnsafeBufferPointer { GEOSGeoJSONReader_readGeometry_r(context.handle, reader, $0.baseAddress) }
        return g.map { GEOSGeometryBox(context: context, geometry: $0) }
    }
}

extension GEOSGeometryBox {
    /// The number of geometries in a collection (1 for a single geometry).
    public var geometryCount: Int { Int(GEOSGetNumGeometries_r(context.handle, geometry)) }
}
