public import MapSketchGeometry

/// Many graphics as columns: a geometry column and attribute columns with one row per graphic,
/// plus the own symbol and info template every row shares — what
/// ``GraphicsLayer/add(columns:)`` loads without building a ``Graphic`` or an attribute
/// dictionary per row.
///
/// Build one from buffers you already have, or from a GeoJSON FeatureCollection or an Esri JSON
/// FeatureSet read straight into columns (``init(_:symbol:infoTemplate:)``).
///
/// ```swift
/// let batch = GraphicColumns(
///     geometry: GeometryColumn(x: xs, y: ys),
///     attributes: [AttributeColumn("ID", integers: ids), AttributeColumn("STATE", strings: states)])
/// let added = try layer.add(columns: batch)   // a Range<GraphicID>
/// ```
public struct GraphicColumns: Sendable {
    /// The geometries, one row per graphic.
    public var geometry: GeometryColumn
    /// The attribute fields, each with a row per graphic (a row may lack its field).
    public var attributes: [AttributeColumn]
    /// Every row's own symbol (nil: the layer's renderer decides).
    public var symbol: Symbol?
    /// Every row's info template (nil: none).
    public var infoTemplate: InfoTemplate?

    /// Creates a batch; the layer checks that every attribute column has a row per geometry.
    public init(
        geometry: GeometryColumn, attributes: [AttributeColumn] = [], symbol: Symbol? = nil,
        infoTemplate: InfoTemplate? = nil
    ) {
        self.geometry = geometry
        self.attributes = attributes
        self.symbol = symbol
        self.infoTemplate = infoTemplate
    }

    /// The number of rows (graphics).
    public var count: Int { geometry.count }

    /// Row `row` as a graphic.
    /// - Complexity: O(k + c) for its k vertices and c attribute columns.
    public func graphic(at row: Int) -> Graphic {
        var attributes: [String: AttributeValue] = [:]
        for c in self.attributes {
            if let v = c[row] { attributes[c.name] = v }
        }
        return Graphic(geometry: geometry[row], symbol: symbol, attributes: attributes, infoTemplate: infoTemplate)
    }
}
