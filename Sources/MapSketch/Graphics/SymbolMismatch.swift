public import MapSketchGeometry

/// A graphic whose resolved symbol cannot draw its geometry type: reported, never silently
/// skipped.
public struct SymbolMismatch: Hashable, Sendable, CustomStringConvertible {
    /// The layer's name in its map, if it is in one.
    public var layerName: String?
    /// The graphic.
    public var graphicID: GraphicID
    /// The symbol's kind.
    public var symbolKind: SymbolKind
    /// The geometry's type.
    public var geometryType: GeometryType
    /// Whether the symbol came from the renderer (false: the graphic's own symbol).
    public var fromRenderer: Bool

    /// Creates a mismatch report.
    package init(
        layerName: String?, graphicID: GraphicID, symbolKind: SymbolKind, geometryType: GeometryType, fromRenderer: Bool
    ) {
        self.layerName = layerName
        self.graphicID = graphicID
        self.symbolKind = symbolKind
        self.geometryType = geometryType
        self.fromRenderer = fromRenderer
    }

    public var description: String {
        "graphic \(graphicID)\(layerName.map { " in layer \"\($0)\"" } ?? ""): a \(symbolKind) symbol\(fromRenderer ? " from the renderer" : "") cannot draw a \(geometryType)"
    }
}
