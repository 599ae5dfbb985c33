public import MapSketchGeometry

/// Why a graphics-layer operation was rejected.
public enum GraphicsLayerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The graphic's own symbol cannot draw its geometry type (`index`: position in the batch).
    case symbolMismatch(index: Int, symbolKind: SymbolKind, geometryType: GeometryType)
    /// A coordinate of the graphic's geometry is NaN or infinite.
    case nonFiniteGeometry(index: Int)
    /// No graphic with this id is in the layer.
    case noSuchGraphic(GraphicID)
    /// The graphic's geometry cannot be projected from the layer's spatial reference to the map's.
    case cannotProject(from: SpatialReference, to: SpatialReference)
    /// An attribute column of a ``GraphicColumns`` batch has `found` rows where the geometry
    /// column has `expected`.
    case columnLength(field: String, expected: Int, found: Int)
    /// Two attribute columns of a ``GraphicColumns`` batch have the same field name.
    case duplicateField(String)

    public var description: String {
        switch self {
        case .symbolMismatch(let i, let k, let t): "graphic \(i): a \(k) symbol cannot draw a \(t) geometry"
        case .nonFiniteGeometry(let i): "graphic \(i): a coordinate is NaN or infinite"
        case .noSuchGraphic(let id): "no graphic \(id) in the layer"
        case .cannotProject(let f, let t): "cannot project graphics from \(f) to \(t)"
        case .columnLength(let f, let e, let n): "attribute column \"\(f)\": expected \(e) rows (one per geometry), found \(n)"
        case .duplicateField(let f): "attribute column \"\(f)\" appears twice in the batch"
        }
    }
}
