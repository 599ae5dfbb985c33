extension GeometryEngine {
    /// The planar area. For a polygon it is the sum over rings of minus the shoelace signed
    /// area (y up), so clockwise exteriors count positive and counter-clockwise holes negative:
    /// positive for Esri-valid polygons, negative when the orientation is reversed. An envelope
    /// gives width × height; other geometries 0.
    /// - Complexity: O(n) for n vertices, no allocation.
    public static func area(_ g: Geometry) -> Double {
        switch g {
        case .point, .multipoint, .polyline: return 0
        case .envelope(let e): return e.width * e.height
        case .polygon(let pg):
            var s = 0.0
            for ring in pg.rings { s -= Kernel.signedDoubleArea(ring) / 2 }
            return s
        }
    }
}
